-- PostgreSQL twin of ../004_reminders.sql.
ALTER TABLE game_tables ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0;
