-- The table's version (the number of moves in its log) is kept with the table: a snapshot is now taken every
-- few moves and at the end, and a table's state is its latest snapshot with the moves logged after it.
ALTER TABLE game_tables ADD COLUMN version INTEGER;  -- NULL until the game starts
UPDATE game_tables SET version = (SELECT s.version FROM snapshots s WHERE s.table_id = game_tables.id);
