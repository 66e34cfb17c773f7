-- version 10: several processes (issue 18).
-- deadline: when a pending clock next needs the host (epoch seconds): the
-- reminder at half of per_move + bank when not yet reminded, else the expiry
-- at since + per_move + bank; NULL while the seat is not deciding. A process
-- claiming a due clock pushes it forward by a short lease, so that two
-- processes never handle one clock; the host's next set_clock writes the real one.
ALTER TABLE clocks ADD COLUMN deadline REAL;
UPDATE clocks SET deadline = CASE
    WHEN pending = 0 THEN NULL
    WHEN reminded = 0 THEN since + (per_move + bank) / 2
    ELSE since + per_move + bank
END;
CREATE INDEX clocks_by_deadline ON clocks (deadline);

-- The heartbeat of each shard, under a shard layout (shard_count): a process
-- freezes its own shards' clocks over its own downtime.
CREATE TABLE shard_heartbeats (
    shard_count INTEGER NOT NULL,
    shard_id    INTEGER NOT NULL,
    alive_at    REAL NOT NULL,
    PRIMARY KEY (shard_count, shard_id)
);

-- The active matches of the servers a process owns.
CREATE INDEX matches_by_status_guild ON matches (status, guild_id);
