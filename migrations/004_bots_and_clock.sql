-- version 4: bot seats, the turn clock, and the host's heartbeat.
ALTER TABLE lobby_players ADD COLUMN bot_level TEXT;
ALTER TABLE lobbies ADD COLUMN clock TEXT NOT NULL DEFAULT 'correspondence';
ALTER TABLE match_players ADD COLUMN bot_level TEXT;
-- 1 when the player was replaced by a bot after too many expired decisions
ALTER TABLE match_players ADD COLUMN replaced INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN clock TEXT NOT NULL DEFAULT 'correspondence';

-- One row per human seat of an active match with a clock.
-- since: when the current decision started (epoch seconds, shifted forward
-- by the host's downtime so the clock is frozen while the bot is down);
-- per_move: seconds for this decision before the bank is used;
-- bank: seconds left in the time bank; pending: 1 while the seat must decide.
CREATE TABLE clocks (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    since    REAL NOT NULL,
    per_move REAL NOT NULL,
    bank     REAL NOT NULL,
    pending  INTEGER NOT NULL DEFAULT 0,
    reminded INTEGER NOT NULL DEFAULT 0,
    expiries INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);

CREATE TABLE host_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- When a lobby was opened, on the host's clock (lobbies that never start expire).
ALTER TABLE lobbies ADD COLUMN created_epoch REAL NOT NULL DEFAULT 0;
