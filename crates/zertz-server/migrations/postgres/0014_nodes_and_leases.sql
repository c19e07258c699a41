-- Several nodes on one database (docs/server.md, "Several nodes"). Each node that serves on
-- PostgreSQL writes a row in `nodes` (its address for the others, renewed while it lives), and
-- each unfinished game it holds in memory is leased to it in `game_leases` until `expires_ms`
-- (the database's clock, so the nodes' clocks need not agree). An append checks the lease in
-- its transaction: a node without the lease cannot store a move.

CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    addr TEXT NOT NULL,
    seen_ms BIGINT NOT NULL
);

CREATE TABLE game_leases (
    game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    node TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE INDEX game_leases_by_node ON game_leases (node);
