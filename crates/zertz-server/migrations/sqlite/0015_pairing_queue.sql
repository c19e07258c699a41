-- The shared quick-pairing queue exists only on PostgreSQL (docs/server.md, "Several nodes"):
-- on SQLite the server is one process and keeps its queue in memory. The number is kept so
-- that both folders count alike.
SELECT 1;
