-- The next version of the client's game, read first by every script (its cost is this script's).
SELECT COALESCE(MAX(version),0)+1 AS v FROM game_events WHERE game_id = 'x' || :client_id \gset
