-- version 11: the version of the match its latest posted board shows (issue 18).
-- A process killed between a move's commit and its board posts the board of
-- that version when it restarts (Announcer.send_lost_private). NULL: never
-- recorded (a match older than this version): nothing is posted again.
ALTER TABLE matches ADD COLUMN board_version INTEGER;
