-- How many of the current turn's reminders were already sent (reset with every new deadline).
ALTER TABLE game_tables ADD COLUMN reminders_sent INTEGER NOT NULL DEFAULT 0;
