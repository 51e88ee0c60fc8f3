-- PostgreSQL twin of ../007_board_due.sql.
ALTER TABLE game_tables ADD COLUMN board_due BOOLEAN NOT NULL DEFAULT FALSE;
