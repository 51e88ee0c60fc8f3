-- The level of a built-in AI seat (easy, normal, hard); NULL for a player's seat (and AI seats made before
-- levels, which play as normal).
ALTER TABLE seats ADD COLUMN ai_level TEXT;
