-- The lobby message of a table, edited as the table lives: open, started, finished or closed.
ALTER TABLE game_tables ADD COLUMN lobby_message_id INTEGER;
