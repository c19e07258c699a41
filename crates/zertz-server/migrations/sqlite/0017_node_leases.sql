-- Leases between nodes exist only on PostgreSQL (docs/server.md, "Several nodes"): on SQLite
-- the server is one process and holds every game. The number is kept so that both folders
-- count alike.
SELECT 1;
