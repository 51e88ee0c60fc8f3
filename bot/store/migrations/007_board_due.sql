-- 1 while a table's latest board could not be posted (Discord trouble): it is posted again later, also
-- after a restart.
ALTER TABLE game_tables ADD COLUMN board_due INTEGER NOT NULL DEFAULT 0;
