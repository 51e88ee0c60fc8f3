-- Pauses: while paused no time runs; the time left on the turn is kept until resumed.
ALTER TABLE game_tables ADD COLUMN paused_at REAL;
ALTER TABLE game_tables ADD COLUMN paused_by INTEGER;
ALTER TABLE game_tables ADD COLUMN time_left REAL;
ALTER TABLE seats ADD COLUMN pauses_used INTEGER NOT NULL DEFAULT 0;
