-- Quick pairing across nodes (docs/server.md, "Several nodes"): every request waiting for a
-- game is a row here, kept alive by the node holding its client's socket (`expires_ms`, the
-- database's clock, renewed twice a second). Any node pairs rows it locks
-- (`FOR UPDATE SKIP LOCKED`), makes the game and writes it into both rows in one transaction;
-- the node of each row tells its client and deletes the row. Rows whose node stopped renewing
-- them are never paired and are deleted.

CREATE TABLE pairing_queue (
    id BIGSERIAL PRIMARY KEY,
    node TEXT NOT NULL,
    pool TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    guests BOOLEAN NOT NULL,
    rating DOUBLE PRECISION,
    account TEXT,
    name TEXT NOT NULL,
    since_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    -- Once paired: the game, this request's seat in it and its seat token.
    game TEXT,
    seat SMALLINT,
    token TEXT
);

-- An account waits at most once for each kind of game, whichever node it asked.
CREATE UNIQUE INDEX pairing_queue_account ON pairing_queue (pool, rated, guests, account)
    WHERE account IS NOT NULL;
CREATE INDEX pairing_queue_node ON pairing_queue (node);
