-- The opening explorer: the games it was built from, and per (position, source, rating band,
-- move) what those games did. A position is its canonical key (zertz::symmetry: the same for
-- positions equal under the board's symmetries and for transpositions), its first 64 bits as a
-- signed integer; a move is written in the position's canonical frame (zertz::symmetry's move
-- code), so that one row holds the move however the board was turned.

CREATE TABLE explorer_games (
    -- `bs-` + a hash of the BoardSpace record, or `server-` + the server's game id.
    id          TEXT             NOT NULL PRIMARY KEY,
    -- boardspace or server.
    source      TEXT             NOT NULL,
    -- The BoardSpace file name, or the server's game id.
    name        TEXT             NOT NULL,
    player_one  TEXT             NOT NULL,
    player_two  TEXT             NOT NULL,
    rating_one  DOUBLE PRECISION,
    rating_two  DOUBLE PRECISION,
    -- YYYY-MM-DD when known.
    date        TEXT,
    -- 1-0, 0-1, 1/2-1/2 or * (player one is the first to move).
    result      TEXT             NOT NULL,
    -- The game in the project's record format.
    record      TEXT             NOT NULL,
    plies       BIGINT           NOT NULL
);

CREATE TABLE explorer_moves (
    position     BIGINT           NOT NULL,
    source       TEXT             NOT NULL,
    -- The mover's rating rounded down to a hundred (its hundreds), -1 when not known.
    band         BIGINT           NOT NULL,
    move         TEXT             NOT NULL,
    games        BIGINT           NOT NULL,
    first_wins   BIGINT           NOT NULL,
    second_wins  BIGINT           NOT NULL,
    draws        BIGINT           NOT NULL,
    rating_sum   DOUBLE PRECISION NOT NULL,
    rating_count BIGINT           NOT NULL,
    last_date    TEXT,
    -- Up to a few game ids (space-separated; the first ones stored are kept).
    examples     TEXT             NOT NULL,
    PRIMARY KEY (position, source, band, move)
);
