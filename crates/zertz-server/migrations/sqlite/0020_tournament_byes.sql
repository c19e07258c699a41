-- Byes players asked for (docs/tournaments.md, "Requested byes"): a round of a Swiss the
-- player sits out for half a point (`half`) or for none (`zero`), asked before the round is
-- paired. The pairing reads them; the round's stored pairings then hold the bye itself.

CREATE TABLE tournament_byes (
    tournament_id TEXT    NOT NULL REFERENCES tournaments (id),
    account_id    TEXT    NOT NULL REFERENCES accounts (id),
    round         INTEGER NOT NULL,
    -- `half` or `zero`.
    points        TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, account_id, round)
) STRICT;
