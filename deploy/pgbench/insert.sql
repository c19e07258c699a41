-- A bare insert of one event in its own transaction: the floor of a move written alone.
SELECT COALESCE(MAX(version),0)+1 AS v FROM game_events WHERE game_id = 'x' || :client_id \gset
INSERT INTO game_events (game_id, version, at_ms, payload) VALUES ('x' || :client_id, :v, 1796032553617, '{"kind":"move","move":"Wd4 c3","seat":1,"clock":{"one":123456,"two":234567},"extra":"padding padding padding"}');
