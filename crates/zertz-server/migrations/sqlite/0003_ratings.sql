-- Ratings (Glicko-2, one per account and pool), each rated game's point on the rating graph,
-- and every finished game of an account as its profile lists it. Written in the same
-- transaction as the game's result.

CREATE TABLE ratings (
    account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool       TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,
    -- The last rated game in the pool: the deviation grows from then, and the leaderboard
    -- shows only players active lately.
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, pool)
) STRICT;

CREATE INDEX ratings_by_pool ON ratings (pool, rating DESC);

CREATE TABLE rating_history (
    account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool       TEXT    NOT NULL,
    at_ms      INTEGER NOT NULL,
    game_id    TEXT    NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    PRIMARY KEY (account_id, pool, at_ms, game_id)
) STRICT;

CREATE TABLE player_games (
    account_id       TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id          TEXT    NOT NULL,
    ended_ms         INTEGER NOT NULL,
    -- 1 or 2.
    seat             INTEGER NOT NULL,
    -- win, loss or draw.
    outcome          TEXT    NOT NULL,
    -- captures, isolation, no_legal_move, resignation, time, abandonment, repetition,
    -- agreement.
    reason           TEXT    NOT NULL,
    opponent_account TEXT,
    opponent_name    TEXT    NOT NULL,
    board            TEXT    NOT NULL,
    pool             TEXT,
    rated            INTEGER NOT NULL,
    rating_before    REAL,
    rating_after     REAL,
    PRIMARY KEY (account_id, game_id)
) STRICT;

CREATE INDEX player_games_by_time ON player_games (account_id, ended_ms DESC, game_id DESC);
