-- PostgreSQL twin of ../002_turn_clock.sql.
ALTER TABLE game_tables ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 86400;
ALTER TABLE game_tables ADD COLUMN deadline DOUBLE PRECISION;  -- NULL: no clock running (lobby, finished)
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
