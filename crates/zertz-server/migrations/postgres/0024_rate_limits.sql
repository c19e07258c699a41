-- Limits of events per key and hour kept in the database (sign-ups per address), so that every
-- node of a cluster counts the same events and a restart forgets none (docs/security.md, "Several
-- nodes"). One row per key: the moment its allowance is whole again less one event's share (the
-- "theoretical arrival time" of a generic cell rate algorithm, the token bucket of the in-memory
-- limits). A row whose moment has passed says nothing and is deleted.
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY,
    ready_ms BIGINT NOT NULL
);
