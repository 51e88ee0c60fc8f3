-- The turn clock: per-table turn time and the running deadline; per-seat missed deadlines.
ALTER TABLE game_tables ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 86400;
ALTER TABLE game_tables ADD COLUMN deadline REAL;          -- NULL: no clock running (lobby, finished)
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
