-- A game of the explorer found by its file name (a puzzle's source names the BoardSpace record
-- it comes from; the analysis board opens that game at the puzzle's move).
CREATE INDEX explorer_games_by_name ON explorer_games (source, name);
