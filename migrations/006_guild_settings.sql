-- version 6: what a server's admins choose with /settings (members with
-- Manage Server). The row exists already when the bot has seen the server
-- (locale: Discord's preferred locale of the server, kept as before).
-- language: 'en', 'fr'... chosen by the admins; NULL follows Discord's locale.
-- match_mode: 'thread' (a match plays in a public thread made from its lobby
-- message) or 'channel' (in the channel where the lobby opened).
-- lobby_channels: the channel ids where lobbies may open, space-separated;
-- '' means every channel the bot can use.
-- default_clock: the clock of a lobby opened without one.
-- bots_allowed: 0 refuses /lobby addbot on this server.
-- cancel_role_id: a role whose members may cancel any lobby or match here.
-- thread_notice: 1 once the bot said it could not make threads here and
-- plays in the channel instead (said once, not at every match).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
ALTER TABLE guild_settings ADD COLUMN match_mode TEXT NOT NULL DEFAULT 'thread';
ALTER TABLE guild_settings ADD COLUMN lobby_channels TEXT NOT NULL DEFAULT '';
ALTER TABLE guild_settings ADD COLUMN default_clock TEXT NOT NULL DEFAULT 'correspondence';
ALTER TABLE guild_settings ADD COLUMN bots_allowed INTEGER NOT NULL DEFAULT 1;
ALTER TABLE guild_settings ADD COLUMN cancel_role_id INTEGER;
ALTER TABLE guild_settings ADD COLUMN thread_notice INTEGER NOT NULL DEFAULT 0;
