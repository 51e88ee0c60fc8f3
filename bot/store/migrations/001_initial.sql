-- Tables (one active per channel or thread), seats, the append-only move log and the latest snapshot.
CREATE TABLE game_tables (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER,
    channel_id   INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    options      TEXT    NOT NULL,          -- JSON
    status       TEXT    NOT NULL,          -- lobby | playing | finished | aborted
    host_id      INTEGER NOT NULL,
    seed         INTEGER NOT NULL,
    created_at   REAL    NOT NULL,
    finished_at  REAL
);
-- At most one active table per channel; finished tables stay readable.
CREATE UNIQUE INDEX one_active_table_per_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE seats (
    table_id    INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,           -- seat number in the game
    user_id     INTEGER,                    -- NULL for an AI seat
    display     TEXT    NOT NULL,
    color       TEXT,
    eliminated  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, position)
);

CREATE TABLE moves (
    table_id    INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    action      TEXT    NOT NULL,           -- the game's notation
    created_at  REAL    NOT NULL,
    PRIMARY KEY (table_id, seq)
);

CREATE TABLE snapshots (
    table_id    INTEGER PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,           -- equals the number of moves applied
    state       TEXT    NOT NULL            -- the engine's JSON
);
