-- Who begins a knockout match's first game is chosen by one of its two players (the lower or the
-- higher seed, as the organiser set: docs/tournaments.md, "Knockout"); each entrant says what
-- they choose when it is theirs to: to begin (false, the default) or to let the opponent begin.
ALTER TABLE tournament_entries ADD COLUMN gives_first BOOLEAN NOT NULL DEFAULT FALSE;
