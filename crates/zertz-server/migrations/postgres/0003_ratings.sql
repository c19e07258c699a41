-- Ratings (Glicko-2, one per account and pool), each rated game's point on the rating graph,
-- and every finished game of an account as its profile lists it. Written in the same
-- transaction as the game's result.

CREATE TABLE ratings (
    account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool       TEXT    NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT  NOT NULL,
    -- The last rated game in the pool: the deviation grows from then, and the leaderboard
    -- shows only players active lately.
    updated_ms BIGINT  NOT NULL,
    PRIMARY KEY (account_id, pool)
);

CREATE INDEX ratings_by_pool ON ratings (pool, rating DESC);

CREATE TABLE rating_history (
    account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    pool       TEXT    NOT NULL,
    at_ms      BIGINT  NOT NULL,
    game_id    TEXT    NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (account_id, pool, at_ms, game_id)
);

CREATE TABLE player_games (
    account_id       TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id          TEXT    NOT NULL,
    ended_ms         BIGINT  NOT NULL,
    -- 1 or 2.
    seat             BIGINT  NOT NULL,
    -- win, loss or draw.
    outcome          TEXT    NOT NULL,
    -- captures, isolation, no_legal_move, resignation, time, abandonment, repetition,
    -- agreement.
    reason           TEXT    NOT NULL,
    opponent_account TEXT,
    opponent_name    TEXT    NOT NULL,
    board            TEXT    NOT NULL,
    pool             TEXT,
    rated            BOOLEAN NOT NULL,
    rating_before    DOUBLE PRECISION,
    rating_after     DOUBLE PRECISION,
    PRIMARY KEY (account_id, game_id)
);

CREATE INDEX player_games_by_time ON player_games (account_id, ended_ms DESC, game_id DESC);
