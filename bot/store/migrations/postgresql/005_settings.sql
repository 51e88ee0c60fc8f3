-- PostgreSQL twin of ../005_settings.sql: clock settings other than the turn time, as JSON text.
ALTER TABLE game_tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
