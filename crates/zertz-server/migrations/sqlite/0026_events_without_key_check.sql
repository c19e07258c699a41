-- On PostgreSQL this migration drops the foreign key of game_events, whose check cost every
-- move a query (docs/server.md, "The foreign key of the events"); a trigger on the deletion of
-- a game takes its events with it there. SQLite keeps its key. The number is kept so that both
-- folders count alike.
SELECT 1;
