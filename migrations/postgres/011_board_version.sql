-- version 11: the version of the match its latest posted board shows (see
-- migrations/011_board_version.sql).
ALTER TABLE matches ADD COLUMN board_version INTEGER;
