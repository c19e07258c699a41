-- What each client and address holds of the shared server (games against the engine, open
-- seeks, invitations not taken: games/quota.rs), kept in the database so that every node of a
-- cluster counts the same holds and a restart forgets none (docs/security.md, "Several nodes").
-- One row per place held: `key` names the quota and its holder ("seek account:…", "seek
-- everyone at:…"); `kind` is `request` while the place is taken and not yet held by anything
-- (it stops counting at `until_ms`, so a node that died then leaves nothing behind), then
-- `game` or `match`, `hold` naming it: it counts while that game or match does (read from its
-- status: while it is `open`, or with `counts` = `unfinished` until it is `finished`), and is
-- deleted once it no longer does.
CREATE TABLE quota_holds (
    key TEXT NOT NULL,
    hold TEXT NOT NULL,
    kind TEXT NOT NULL,
    counts TEXT NOT NULL,
    until_ms BIGINT NOT NULL,
    PRIMARY KEY (key, hold)
);

-- The started games each client and address aborted in the last hour (a growing wait before
-- the next seek after too many: games/quota.rs). Rows older than the hour are deleted.
CREATE TABLE quota_aborts (
    key TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX quota_aborts_by_key ON quota_aborts (key, at_ms);
