-- Saved studies: a named list of chapters owned by an account, each a tree of variations (the
-- tree JSON of docs/study.md, checked and written back by the server before it is stored).
-- Anyone with a study's id may read it; only its owner changes or deletes it.

CREATE TABLE studies (
    -- An unguessable id: the link that shares the study.
    id         TEXT    NOT NULL PRIMARY KEY,
    owner_id   TEXT    NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name       TEXT    NOT NULL,
    -- Kept with the study so that a profile's list needs no look at the chapters.
    chapters   INTEGER NOT NULL CHECK (chapters >= 1),
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
) STRICT;

CREATE INDEX studies_by_owner ON studies (owner_id, updated_ms DESC);

CREATE TABLE study_chapters (
    study_id TEXT    NOT NULL REFERENCES studies (id) ON DELETE CASCADE,
    -- Its place in the study, from 0.
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    name     TEXT    NOT NULL,
    -- The tree as JSON text.
    tree     TEXT    NOT NULL,
    PRIMARY KEY (study_id, seq)
) STRICT, WITHOUT ROWID;
