-- The public game room: the lines said in the chat of each game and match (its room is
-- `game:ID` or `match:ID`), the accounts its players muted, and the lines reported to the
-- operator.

CREATE TABLE chat_lines (
    room       TEXT    NOT NULL,
    seq        BIGINT  NOT NULL CHECK (seq >= 1),
    at_ms      BIGINT  NOT NULL,
    -- player, spectator, or room (the room's own answers: moves refused, coordinates).
    kind       TEXT    NOT NULL,
    -- The speaker's seat (1 or 2) in a game, or place in a match; none for spectators.
    seat       BIGINT,
    account_id TEXT,
    name       TEXT    NOT NULL,
    guest      BOOLEAN NOT NULL,
    text       TEXT    NOT NULL,
    -- A line that was played as a move: the move in official notation.
    played     TEXT,
    -- Turns played in the game when it was said (so that the archive shows it with the moves).
    turn       BIGINT  NOT NULL,
    PRIMARY KEY (room, seq)
);

CREATE TABLE chat_mutes (
    room       TEXT    NOT NULL,
    account_id TEXT    NOT NULL,
    by_account TEXT,
    at_ms      BIGINT  NOT NULL,
    PRIMARY KEY (room, account_id)
);

CREATE TABLE chat_reports (
    room        TEXT    NOT NULL,
    seq         BIGINT  NOT NULL,
    -- Who reported: an account's id, or a guest's `guest:NAME`.
    reporter    TEXT    NOT NULL,
    at_ms       BIGINT  NOT NULL,
    PRIMARY KEY (room, seq, reporter)
);

CREATE INDEX chat_reports_by_time ON chat_reports (at_ms DESC);
