-- The turns a game has played, written by the moves on their events instead of on the game's
-- row: a move then changes no row of `games` (whose update was, after the foreign key, the
-- largest part of a move's cost to PostgreSQL: docs/server.md, "The turns on the events").
-- A game's turns are those of its last event that has them, else the row's (`games.turns`,
-- still written by the appends that change more than the turns: a join, an end).
ALTER TABLE game_events ADD COLUMN turns BIGINT;

-- Each game's last event takes the row's turns, so that a listing finds a game's turns at its
-- last event rather than reading back through every event of a game played before.
UPDATE game_events e SET turns = g.turns FROM games g
WHERE e.game_id = g.id
  AND e.version = (SELECT MAX(x.version) FROM game_events x WHERE x.game_id = g.id);
