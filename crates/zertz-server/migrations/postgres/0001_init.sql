-- Games, their event logs, and matches. Times are ms since the Unix epoch; settings, payloads
-- and match states are JSON documents owned by the service (kept as TEXT, byte for byte).

CREATE TABLE games (
    id         TEXT   NOT NULL PRIMARY KEY,
    match_id   TEXT,
    created_ms BIGINT NOT NULL,
    settings   TEXT   NOT NULL,
    token_one  TEXT,
    token_two  TEXT,
    status     TEXT   NOT NULL,
    result     TEXT,
    updated_ms BIGINT NOT NULL
);

-- list_games: newest change first, with or without a status filter.
CREATE INDEX games_by_status_updated ON games (status, updated_ms DESC, id DESC);
CREATE INDEX games_by_updated ON games (updated_ms DESC, id DESC);

CREATE TABLE game_events (
    game_id TEXT   NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version BIGINT NOT NULL CHECK (version >= 1),
    at_ms   BIGINT NOT NULL,
    payload TEXT   NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE matches (
    id         TEXT   NOT NULL PRIMARY KEY,
    created_ms BIGINT NOT NULL,
    state      TEXT   NOT NULL,
    status     TEXT   NOT NULL,
    updated_ms BIGINT NOT NULL
);

-- list_matches: newest change first, with or without a status filter.
CREATE INDEX matches_by_status_updated ON matches (status, updated_ms DESC, id DESC);
CREATE INDEX matches_by_updated ON matches (updated_ms DESC, id DESC);
