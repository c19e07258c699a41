-- A node holds all its leases by its heartbeat (store/postgres/leases.rs): `expires_ms` is
-- pushed forward several times per lease, and a lease holds while its own expiry or its
-- node's is in the future. Before, every lease row was renewed one by one, so a node holding
-- thousands of games rewrote thousands of rows every round.
ALTER TABLE nodes ADD COLUMN expires_ms BIGINT NOT NULL DEFAULT 0;
