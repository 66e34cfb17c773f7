-- version 7: match threads. A match plays where channel_id says: the public
-- thread made from its lobby message (thread mode, the default), or the
-- channel where its lobby opened (channel mode, or when the bot could not
-- make the thread). lobby_channel_id is that lobby's channel, where the match
-- is announced in one line at its start and one at its end. Matches from
-- before threads played in their lobby's channel.
ALTER TABLE matches ADD COLUMN lobby_channel_id INTEGER;
UPDATE matches SET lobby_channel_id = channel_id;
