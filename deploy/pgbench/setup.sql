-- The schema of a fresh database of the server (made by `zertz admin reports --db URL`), filled
-- with 3,001 live games, each held by node n1 with 30 events, and analysed, so that the plans
-- are those of a database in use (on empty tables PostgreSQL plans sequential scans).
SET client_min_messages = warning;
TRUNCATE games CASCADE; TRUNCATE nodes;
INSERT INTO nodes VALUES ('n1','127.0.0.1:1', 0, 9999999999999);
INSERT INTO games (id, match_id, created_ms, settings, token_one, token_two, status, result, updated_ms, account_one, account_two, name_one, name_two, board, rules, turns)
SELECT 'x' || i, NULL, 0, repeat('s', 300), 'tok1', 'tok2', 'live', NULL, 0, NULL, NULL, 'Guest 1', 'Guest 2', 'standard', 'standard', 0 FROM generate_series(0, 3000) i;
INSERT INTO game_leases SELECT 'x' || i, 'n1', 9999999999999 FROM generate_series(0, 3000) i;
INSERT INTO game_events SELECT 'x' || i, v, 0, repeat('p', 120) FROM generate_series(0, 3000) i, generate_series(1, 30) v;
VACUUM ANALYZE;
