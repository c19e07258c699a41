-- The explorer's leaves (store/explorer.rs): a position only one game reached is kept as the
-- game's number, who moved and the move, its figures read from the game at query time. Games
-- get a number that never changes (`num`, what a leaf names; SQLite's own rowid may change on
-- VACUUM), so the table is rebuilt with it, its rows kept in their order.

CREATE TABLE explorer_games_numbered (
    num         INTEGER NOT NULL PRIMARY KEY,
    -- `bs-` + a hash of the BoardSpace record, or `server-` + the server's game id.
    id          TEXT    NOT NULL UNIQUE,
    -- boardspace or server.
    source      TEXT    NOT NULL,
    -- The BoardSpace file name, or the server's game id.
    name        TEXT    NOT NULL,
    player_one  TEXT    NOT NULL,
    player_two  TEXT    NOT NULL,
    rating_one  REAL,
    rating_two  REAL,
    -- YYYY-MM-DD when known.
    date        TEXT,
    -- 1-0, 0-1, 1/2-1/2 or * (player one is the first to move).
    result      TEXT    NOT NULL,
    -- The game in the project's record format.
    record      TEXT    NOT NULL,
    plies       INTEGER NOT NULL
) STRICT;

INSERT INTO explorer_games_numbered (id, source, name, player_one, player_two, rating_one,
    rating_two, date, result, record, plies)
SELECT id, source, name, player_one, player_two, rating_one, rating_two, date, result, record,
    plies
FROM explorer_games ORDER BY rowid;

DROP TABLE explorer_games;
ALTER TABLE explorer_games_numbered RENAME TO explorer_games;

-- At most one leaf per position (the key's first 64 bits, as in explorer_moves); a position
-- may have a leaf and rows, and its answer sums both. No foreign key: a leaf whose game is
-- gone is left out of answers by their join.
CREATE TABLE explorer_leaves (
    position INTEGER NOT NULL PRIMARY KEY,
    -- explorer_games.num
    game     INTEGER NOT NULL,
    -- 0: player one moved, 1: player two.
    mover    INTEGER NOT NULL,
    -- The move in the canonical frame, as in explorer_moves.
    move     TEXT    NOT NULL
) STRICT;
