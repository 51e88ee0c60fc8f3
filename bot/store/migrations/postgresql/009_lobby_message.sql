-- PostgreSQL twin of ../009_lobby_message.sql.
ALTER TABLE game_tables ADD COLUMN lobby_message_id BIGINT;
