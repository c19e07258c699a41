-- Accounts, their sessions and trusted devices, and the seats bound to them. A password is kept
-- only as an Argon2id PHC string; a session or device key only as the SHA-256 of the key the
-- browser holds (hex), so a copy of the database logs no one in.

CREATE TABLE accounts (
    id            TEXT    NOT NULL PRIMARY KEY,
    name          TEXT    NOT NULL,
    -- The name in lower case: names are unique without regard to case.
    name_key      TEXT    NOT NULL UNIQUE,
    password_hash TEXT    NOT NULL,
    created_ms    BIGINT  NOT NULL,
    -- Last request with one of its sessions (kept to the minute).
    seen_ms       BIGINT  NOT NULL
);

CREATE TABLE sessions (
    key_hash   TEXT    NOT NULL PRIMARY KEY,
    account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ms BIGINT  NOT NULL,
    -- Last use (kept to the hour): a session unused for 30 days has expired.
    used_ms    BIGINT  NOT NULL
);

CREATE INDEX sessions_by_account ON sessions (account_id);
CREATE INDEX sessions_by_use ON sessions (used_ms);

-- Browsers that logged in to an account: they are not held back when strangers' failed
-- guesses have locked the account's logins for a while.
CREATE TABLE login_devices (
    key_hash   TEXT    NOT NULL PRIMARY KEY,
    account_id TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ms BIGINT  NOT NULL
);

CREATE INDEX login_devices_by_account ON login_devices (account_id);

-- The account in each seat of a game or a match (none for guests and engines).
ALTER TABLE games ADD COLUMN account_one TEXT;
ALTER TABLE games ADD COLUMN account_two TEXT;
CREATE INDEX games_by_account_one ON games (account_one, status, updated_ms DESC)
    WHERE account_one IS NOT NULL;
CREATE INDEX games_by_account_two ON games (account_two, status, updated_ms DESC)
    WHERE account_two IS NOT NULL;

ALTER TABLE matches ADD COLUMN account_one TEXT;
ALTER TABLE matches ADD COLUMN account_two TEXT;
CREATE INDEX matches_by_account_one ON matches (account_one, status)
    WHERE account_one IS NOT NULL;
CREATE INDEX matches_by_account_two ON matches (account_two, status)
    WHERE account_two IS NOT NULL;
