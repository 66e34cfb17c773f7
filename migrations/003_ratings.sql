-- version 3: ratings, per-seat results, rating history, bot seats.
ALTER TABLE match_players ADD COLUMN is_bot INTEGER NOT NULL DEFAULT 0;

-- One row per seat of a finished match: where it placed and how.
CREATE TABLE result_players (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    place    INTEGER NOT NULL,
    resigned INTEGER NOT NULL DEFAULT 0,
    is_bot   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX result_players_by_user ON result_players (user_id);

ALTER TABLE results ADD COLUMN seats INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN with_bots INTEGER NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
-- The order in which matches finished (the order ratings are computed in).
ALTER TABLE results ADD COLUMN finish_seq INTEGER NOT NULL DEFAULT 0;

-- Current ratings. scope: 'global' or 'guild:<id>'; pool: 'humans' (matches
-- between people) or 'bots' (matches with a bot seat, kept apart).
CREATE TABLE ratings (
    scope      TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    pool       TEXT NOT NULL CHECK (pool IN ('humans', 'bots')),
    user_id    INTEGER NOT NULL,
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (scope, game_id, pool, user_id)
);
CREATE INDEX ratings_board ON ratings (scope, game_id, pool, mu);

-- Every change of a rating, for history charts and audits.
CREATE TABLE rating_history (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    scope    TEXT NOT NULL,
    game_id  TEXT NOT NULL,
    pool     TEXT NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL NOT NULL,
    sigma    REAL NOT NULL,
    at       TEXT NOT NULL
);
CREATE INDEX rating_history_by_user ON rating_history (user_id, game_id, id);

-- Results written before this version: their seats, from the ranking JSON.
WITH flat AS (
    SELECT r.match_id AS match_id, CAST(s.value AS INTEGER) AS seat, CAST(g.key AS INTEGER) AS gidx
    FROM results r, json_each(r.ranking, '$.seats') g, json_each(g.value) s
)
INSERT INTO result_players (match_id, seat, user_id, place, resigned, is_bot)
SELECT f.match_id, f.seat, mp.user_id,
       1 + (SELECT COUNT(*) FROM flat f2 WHERE f2.match_id = f.match_id AND f2.gidx < f.gidx),
       mp.resigned, 0
FROM flat f JOIN match_players mp ON mp.match_id = f.match_id AND mp.seat = f.seat;

UPDATE results SET seats = (SELECT COUNT(*) FROM match_players mp WHERE mp.match_id = results.match_id);

UPDATE results SET finish_seq = (
    SELECT COUNT(*) FROM results r2
    WHERE r2.finished_at < results.finished_at
       OR (r2.finished_at = results.finished_at AND r2.match_id <= results.match_id)
);
CREATE INDEX results_by_seq ON results (finish_seq);
