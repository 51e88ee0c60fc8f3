-- A table's clock settings other than the turn time (reminders, timeout policy, AI replacing
-- eliminated players, resume wait) as JSON; '{}' means the defaults.
ALTER TABLE game_tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
