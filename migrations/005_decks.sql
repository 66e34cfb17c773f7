-- version 5: decks that players build (Chroniques de Liber first), and the
-- deck each seat of a lobby chose.
-- A deck belongs to a user, not to a server: it follows them everywhere.
-- name_key is the name folded (case, accents, spaces) so that "Mon Deck" and
-- "mon deck" are the same deck; code is the canonical deck code the engine
-- reads (general:card*n+card*n), list_text the list as the player pasted it.
CREATE TABLE decks (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id    INTEGER NOT NULL,
    game_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    code       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX decks_one_name_per_user ON decks (user_id, game_id, name_key);

-- The deck a seat chose when joining (a deck code, copied at that moment:
-- deleting or replacing the deck later does not change the lobby); NULL: a
-- ready-made deck is dealt at the start.
ALTER TABLE lobby_players ADD COLUMN deck TEXT;
ALTER TABLE lobby_players ADD COLUMN deck_name TEXT;
