-- PostgreSQL twin of ../006_held_events.sql.
ALTER TABLE game_tables ADD COLUMN held_events TEXT NOT NULL DEFAULT '[]';
