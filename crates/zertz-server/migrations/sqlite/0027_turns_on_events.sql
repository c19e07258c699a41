-- On PostgreSQL the moves write a game's turns on their events from this migration on
-- (docs/server.md, "The turns on the events"). SQLite keeps them on the game's row, where its
-- writer folds the recent events (store/sqlite/recent.rs). The number is kept so that both
-- folders count alike.
SELECT 1;
