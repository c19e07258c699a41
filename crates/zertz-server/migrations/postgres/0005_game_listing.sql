-- What a listing of games shows and searches without reading each game's log: the names in
-- the seats, the board and the rule set, and the turns played. Games stored before this get
-- them from their settings and events.

ALTER TABLE games ADD COLUMN name_one TEXT;
ALTER TABLE games ADD COLUMN name_two TEXT;
ALTER TABLE games ADD COLUMN board TEXT;
ALTER TABLE games ADD COLUMN rules TEXT;
ALTER TABLE games ADD COLUMN turns BIGINT NOT NULL DEFAULT 0;

UPDATE games SET
    board = split_part(settings::json ->> 'start', ' ', 1),
    rules = split_part(settings::json ->> 'start', ' ', 2),
    name_one = (SELECT e.payload::json ->> 'name' FROM game_events e
                WHERE e.game_id = games.id AND e.payload::json ->> 'type' = 'joined'
                  AND e.payload::json ->> 'seat' = '1'
                ORDER BY e.version DESC LIMIT 1),
    name_two = (SELECT e.payload::json ->> 'name' FROM game_events e
                WHERE e.game_id = games.id AND e.payload::json ->> 'type' = 'joined'
                  AND e.payload::json ->> 'seat' = '2'
                ORDER BY e.version DESC LIMIT 1),
    turns = (SELECT COUNT(*) FROM game_events e
             WHERE e.game_id = games.id AND e.payload::json ->> 'type' = 'moved');

-- Custom layouts are listed as `custom`, as new games are.
UPDATE games SET board = 'custom' WHERE board LIKE 'custom%';

-- Searching finished games by player: names compared in lower case.
CREATE INDEX games_by_name_one ON games (lower(name_one), updated_ms DESC, id DESC);
CREATE INDEX games_by_name_two ON games (lower(name_two), updated_ms DESC, id DESC);
