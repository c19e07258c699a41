-- A game's events were tied to its row by a foreign key, which PostgreSQL checks at every
-- event inserted: a lookup of the game's row and a lock on it, in a trigger's query of its own,
-- about a tenth of PostgreSQL's CPU per move (docs/server.md, "The foreign key of the events").
-- Every writer of events already holds the game's row in the same transaction (the moves'
-- statement and an append lock it `FOR UPDATE` and write nothing when it is missing; a new
-- game inserts it first), so the check guarded only a game deleted by hand. Such a deletion
-- still takes the game's events with it, by the trigger below, which costs nothing to a move.
ALTER TABLE game_events DROP CONSTRAINT game_events_game_id_fkey;

CREATE FUNCTION delete_game_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM game_events WHERE game_id = OLD.id;
    RETURN OLD;
END
$$;

CREATE TRIGGER games_take_their_events AFTER DELETE ON games
    FOR EACH ROW EXECUTE FUNCTION delete_game_events();
