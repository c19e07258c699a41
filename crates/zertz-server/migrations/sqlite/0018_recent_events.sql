-- Recent events: an appended event waits in one of these two tables, in arrival order and
-- without an index, until the writer folds it into game_events with the others of its game
-- (see src/store/sqlite/recent.rs). `turns` is the game's listing turns, on the last event of
-- an append that set them. recent_owner names the store whose memory holds these rows.

CREATE TABLE recent_events_0 (
    game_id TEXT    NOT NULL,
    version INTEGER NOT NULL,
    at_ms   INTEGER NOT NULL,
    payload TEXT    NOT NULL,
    turns   INTEGER
) STRICT;

CREATE TABLE recent_events_1 (
    game_id TEXT    NOT NULL,
    version INTEGER NOT NULL,
    at_ms   INTEGER NOT NULL,
    payload TEXT    NOT NULL,
    turns   INTEGER
) STRICT;

CREATE TABLE recent_owner (
    id    INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
    store TEXT    NOT NULL
) STRICT;
