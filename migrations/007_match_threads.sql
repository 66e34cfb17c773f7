-- Placeholder on the i16-undo branch only, so that 008_undo.sql applies
-- (migrations must be numbered without gaps). THREADS owns this number: at the
-- merge, keep THREADS's 007_match_threads.sql and drop this one.
SELECT 1;
