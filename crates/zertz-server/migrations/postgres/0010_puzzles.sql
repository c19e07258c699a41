-- The puzzle trainer (docs/learning.md, "Puzzle trainer"): each puzzle's Glicko-2 rating (a
-- row once it has had a rated attempt; before that it has its starting rating, from its
-- length), each account's puzzle rating, and every attempt. The puzzles themselves are data of
-- the project (data/puzzles.json), not rows.

CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT    NOT NULL PRIMARY KEY,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    -- Rated attempts, and how many of them solved it.
    attempts   BIGINT  NOT NULL,
    solved     BIGINT  NOT NULL,
    updated_ms BIGINT  NOT NULL
);

CREATE TABLE puzzle_solvers (
    account_id TEXT    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts   BIGINT  NOT NULL,
    -- The last rated attempt: the deviation grows from then.
    updated_ms BIGINT  NOT NULL
);

-- `solver` is `account:ID`, or `address:IP` for a guest. At most one rated attempt per solver
-- and puzzle (the first); later ones are kept unrated.
CREATE TABLE puzzle_attempts (
    solver        TEXT    NOT NULL,
    puzzle_id     TEXT    NOT NULL,
    at_ms         BIGINT  NOT NULL,
    solved        BOOLEAN NOT NULL,
    rated         BOOLEAN NOT NULL,
    rating_before DOUBLE PRECISION,
    rating_after  DOUBLE PRECISION
);

CREATE INDEX puzzle_attempts_by_solver ON puzzle_attempts (solver, puzzle_id);
CREATE UNIQUE INDEX puzzle_attempts_rated ON puzzle_attempts (solver, puzzle_id) WHERE rated;
