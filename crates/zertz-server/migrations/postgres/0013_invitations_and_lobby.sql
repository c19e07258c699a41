-- An invitation is a credential of its own (docs/server.md, "Limits"): it takes the invited
-- seat once, and the seat then gets a token of its own, so that the link stops acting for
-- the seat. `invite_one`/`invite_two` keep the invitation after its use, to refuse a second
-- use with a sentence. Games stored before this held the invitation as the seat's token: a
-- seat nobody took yet gets it back as its invitation.
--
-- `lobby` marks the open seeks (open to anyone, not a match's game), which the lobby lists
-- apart from invitations still waiting.

ALTER TABLE games ADD COLUMN invite_one TEXT;
ALTER TABLE games ADD COLUMN invite_two TEXT;
ALTER TABLE games ADD COLUMN lobby BOOLEAN NOT NULL DEFAULT FALSE;

UPDATE games SET invite_one = token_one, token_one = NULL
    WHERE token_one IS NOT NULL AND name_one IS NULL;
UPDATE games SET invite_two = token_two, token_two = NULL
    WHERE token_two IS NOT NULL AND name_two IS NULL;
UPDATE games SET lobby = TRUE
    WHERE match_id IS NULL AND (settings::json ->> 'open') = 'true';

-- The lobby's listing: open seeks, newest change first.
CREATE INDEX games_in_lobby ON games (lobby, status, updated_ms DESC, id DESC);
