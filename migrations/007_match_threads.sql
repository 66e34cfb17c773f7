-- Placeholder on the WATCH branch (i16-watch) only, so that 009_watchers.sql
-- applies (migrations must be numbered without gaps). At the merge, take the
-- THREADS / UNDO branch's file of this name instead of this one.
SELECT 1;
