-- What a listing of games shows and searches without reading each game's log: the names in
-- the seats, the board and the rule set, and the turns played. Games stored before this get
-- them from their settings and events.

ALTER TABLE games ADD COLUMN name_one TEXT;
ALTER TABLE games ADD COLUMN name_two TEXT;
ALTER TABLE games ADD COLUMN board TEXT;
ALTER TABLE games ADD COLUMN rules TEXT;
ALTER TABLE games ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;

UPDATE games SET
    board = substr(json_extract(settings, '$.start'), 1,
                   instr(json_extract(settings, '$.start'), ' ') - 1),
    rules = substr(substr(json_extract(settings, '$.start'),
                          instr(json_extract(settings, '$.start'), ' ') + 1), 1,
                   instr(substr(json_extract(settings, '$.start'),
                                instr(json_extract(settings, '$.start'), ' ') + 1), ' ') - 1),
    name_one = (SELECT json_extract(e.payload, '$.name') FROM game_events e
                WHERE e.game_id = games.id AND json_extract(e.payload, '$.type') = 'joined'
                  AND json_extract(e.payload, '$.seat') = 1
                ORDER BY e.version DESC LIMIT 1),
    name_two = (SELECT json_extract(e.payload, '$.name') FROM game_events e
                WHERE e.game_id = games.id AND json_extract(e.payload, '$.type') = 'joined'
                  AND json_extract(e.payload, '$.seat') = 2
                ORDER BY e.version DESC LIMIT 1),
    turns = (SELECT COUNT(*) FROM game_events e
             WHERE e.game_id = games.id AND json_extract(e.payload, '$.type') = 'moved');

-- Custom layouts are listed as `custom`, as new games are.
UPDATE games SET board = 'custom' WHERE board LIKE 'custom%';

-- Searching finished games by player: names compared in lower case.
CREATE INDEX games_by_name_one ON games (lower(name_one), updated_ms DESC, id DESC);
CREATE INDEX games_by_name_two ON games (lower(name_two), updated_ms DESC, id DESC);
