-- Events of committed steps not told in the channel yet (a step of a turn answered privately), as JSON
-- [[seat, code, params], ...]: the next board tells them, also after a restart.
ALTER TABLE game_tables ADD COLUMN held_events TEXT NOT NULL DEFAULT '[]';
