-- version 8: undo by consent (issue 16).
-- How many moves were taken back in a match (the `!undo` rows of
-- match_actions, counted when the result is written; 0 for older results).
ALTER TABLE results ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;

-- The take-back requests waiting for answers (one per match at most), so that
-- a restart keeps their buttons working. version: the match version the
-- request is about (a request whose match has moved on is void); asked and
-- accepted: space-separated user ids; deadline: epoch seconds on the host's
-- clock; message_id: the public message with the buttons (0 until posted).
CREATE TABLE undo_requests (
    match_id   INTEGER PRIMARY KEY REFERENCES matches (id),
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    asked      TEXT NOT NULL,
    accepted   TEXT NOT NULL DEFAULT '',
    deadline   REAL NOT NULL,
    message_id INTEGER NOT NULL DEFAULT 0
);
