-- Lessons done by each account (docs/learning.md, "Lessons and the rules page"). A guest's
-- progress stays in the browser; an account's is kept here so that it follows the player. A
-- row means the lesson was completed once; `lesson` is a lesson id such as `chain-capture`.

CREATE TABLE lesson_progress (
    account_id  TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    lesson      TEXT    NOT NULL,
    -- When it was first completed.
    done_ms     INTEGER NOT NULL,
    PRIMARY KEY (account_id, lesson)
) STRICT;
