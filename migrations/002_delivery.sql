-- version 2: remember users whose DMs are closed (so we stop retrying every
-- turn and say so once per match), and the last private message sent to each seat.
ALTER TABLE users ADD COLUMN dm_closed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE match_players ADD COLUMN dm_notice_sent INTEGER NOT NULL DEFAULT 0;

CREATE TABLE seat_messages (
    match_id   INTEGER NOT NULL REFERENCES matches (id),
    seat       INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    version    INTEGER NOT NULL,
    PRIMARY KEY (match_id, seat)
);

CREATE INDEX results_by_guild_game ON results (guild_id, game_id);
