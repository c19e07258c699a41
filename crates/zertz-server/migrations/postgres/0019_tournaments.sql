-- Tournaments run by the server (docs/tournaments.md, "Running an event on the server"):
-- Swiss (FIDE Dutch) and round robin events. An event's state is all here, so that a server
-- that restarts (or another node) carries on from it.

CREATE TABLE tournaments (
    id            TEXT    NOT NULL PRIMARY KEY,
    name          TEXT    NOT NULL,
    -- `swiss` or `round_robin` (knockout and arena to come).
    format        TEXT    NOT NULL,
    -- JSON: board, rules, clock (as a game's), rated, rounds (Swiss), double (round robin).
    settings      TEXT    NOT NULL,
    -- When it starts by itself (ms since the epoch); NULL: when the organiser starts it.
    starts_ms     BIGINT,
    max_players   BIGINT  NOT NULL,
    organiser     TEXT    NOT NULL REFERENCES accounts (id),
    organiser_name TEXT   NOT NULL,
    -- `registering`, `running` or `finished`.
    status        TEXT    NOT NULL,
    -- The last round paired (0 before the first).
    round         BIGINT  NOT NULL DEFAULT 0,
    created_ms    BIGINT  NOT NULL,
    updated_ms    BIGINT  NOT NULL
);

CREATE INDEX tournaments_by_status ON tournaments (status, starts_ms);

CREATE TABLE tournament_entries (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id),
    account_id    TEXT    NOT NULL REFERENCES accounts (id),
    name          TEXT    NOT NULL,
    -- The rating in the event's pool when the player joined, then when the event started.
    rating        DOUBLE PRECISION NOT NULL,
    -- The pairing number, given at the start (by rating, highest first); NULL before.
    number        BIGINT ,
    withdrawn     BOOLEAN NOT NULL DEFAULT FALSE,
    joined_ms     BIGINT  NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);

-- One row a round paired: the key that makes a round stored once, whoever tries again.
CREATE TABLE tournament_rounds (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id),
    round         BIGINT  NOT NULL,
    paired_ms     BIGINT  NOT NULL,
    PRIMARY KEY (tournament_id, round)
);

-- The boards of a round. `white` moves first; a bye is a row with `white` only and no game.
-- `result`: NULL while the game is played; `1-0`, `0-1`, `1/2-1/2`; forfeits `+-`, `-+`,
-- `--` (an aborted game); `bye` (the Swiss pairing-allocated bye, a win's points) or `rest`
-- (a round robin's odd player out, no points).
CREATE TABLE tournament_pairings (
    tournament_id TEXT    NOT NULL,
    round         BIGINT  NOT NULL,
    board         BIGINT  NOT NULL,
    white         TEXT    NOT NULL,
    black         TEXT,
    game_id       TEXT    UNIQUE,
    result        TEXT,
    PRIMARY KEY (tournament_id, round, board),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, round)
);
