-- version 9: spectators (/watch). A row per user following a match: in
-- channel mode they get each new public board by DM, in thread mode they are
-- members of the match's thread. The rows of a match are deleted once its
-- final board went out; since: when they started following (ISO 8601, UTC).
CREATE TABLE watchers (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    user_id  INTEGER NOT NULL,
    since    TEXT NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
