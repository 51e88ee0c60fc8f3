-- PostgreSQL twin of ../003_pauses.sql.
ALTER TABLE game_tables ADD COLUMN paused_at DOUBLE PRECISION;
ALTER TABLE game_tables ADD COLUMN paused_by BIGINT;
ALTER TABLE game_tables ADD COLUMN time_left DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN pauses_used INTEGER NOT NULL DEFAULT 0;
