-- What a finished game tells its pairing besides the result (docs/tournaments.md, "Arena on
-- the server"): who went berserk (`white`, `black`, `both` or NULL) and the turns played,
-- which an arena's berserk point needs (at least 7 turns of the player's own).
ALTER TABLE tournament_pairings ADD COLUMN berserk TEXT;
ALTER TABLE tournament_pairings ADD COLUMN turns BIGINT;
