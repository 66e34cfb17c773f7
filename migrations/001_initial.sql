-- gueridon schema, version 1: lobbies, matches, append-only actions, results.
CREATE TABLE guild_settings (
    guild_id      INTEGER PRIMARY KEY,
    locale        TEXT,
    settings_json TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE users (
    user_id    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    locale     TEXT,
    updated_at TEXT NOT NULL
);

CREATE TABLE lobbies (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER,
    channel_id INTEGER NOT NULL,
    game_id    TEXT NOT NULL,
    host_id    INTEGER NOT NULL,
    seats      INTEGER NOT NULL,
    options    TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL CHECK (status IN ('open', 'started', 'cancelled')),
    message_id INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX lobbies_one_open_per_channel ON lobbies (channel_id) WHERE status = 'open';

CREATE TABLE lobby_players (
    lobby_id  INTEGER NOT NULL REFERENCES lobbies (id),
    user_id   INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    joined_at TEXT NOT NULL,
    PRIMARY KEY (lobby_id, user_id)
);

CREATE TABLE matches (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    lobby_id         INTEGER REFERENCES lobbies (id),
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    game_id          TEXT NOT NULL,
    options          TEXT NOT NULL,
    seats            INTEGER NOT NULL,
    seed             TEXT NOT NULL,
    seed_sha256      TEXT NOT NULL,
    engine_version   TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('active', 'finished', 'cancelled')),
    snapshot         TEXT NOT NULL,
    version          INTEGER NOT NULL DEFAULT 0,
    board_message_id INTEGER,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    finished_at      TEXT
);
CREATE UNIQUE INDEX matches_one_active_per_channel ON matches (channel_id) WHERE status = 'active';

CREATE TABLE match_players (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat     INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT NOT NULL,
    resigned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_players_by_user ON match_players (user_id);

-- Append-only: one row per accepted action, in version order.
CREATE TABLE match_actions (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    version    INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    action     TEXT NOT NULL,
    events     TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    PRIMARY KEY (match_id, version)
);

CREATE TABLE results (
    match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
    guild_id    INTEGER,
    game_id     TEXT NOT NULL,
    ranking     TEXT NOT NULL,
    reason      TEXT NOT NULL,
    finished_at TEXT NOT NULL
);
