-- Game reviews (docs/study.md): a review is keyed by a hash of the game's start and moves, so
-- that the same game reviewed twice is computed and stored once. `record` is the game as the
-- project's record text; `result` the finished review as JSON.

CREATE TABLE reviews (
    id          TEXT    NOT NULL PRIMARY KEY,
    -- The server's game, when the review is of one.
    game_id     TEXT,
    record      TEXT    NOT NULL,
    -- Who asked first: `account:ID` or `address:IP` (for the fair queue after a restart).
    requester   TEXT    NOT NULL,
    -- queued, done, or failed.
    state       TEXT    NOT NULL,
    result      TEXT,
    error       TEXT,
    created_ms  INTEGER NOT NULL,
    updated_ms  INTEGER NOT NULL
) STRICT;

CREATE INDEX reviews_by_game ON reviews (game_id) WHERE game_id IS NOT NULL;
CREATE INDEX reviews_waiting ON reviews (created_ms) WHERE state = 'queued';
