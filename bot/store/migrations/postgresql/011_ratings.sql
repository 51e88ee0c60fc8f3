-- PostgreSQL twin of ../011_ratings.sql: ratings per server and game (openskill Plackett-Luce: mu, sigma)
-- and every finished game's results. A player is "user:<id>" or "ai:<level>"; guild_id 0: outside a server.
CREATE TABLE ratings (
    guild_id  BIGINT           NOT NULL,
    game      TEXT             NOT NULL,
    player    TEXT             NOT NULL,
    mu        DOUBLE PRECISION NOT NULL,
    sigma     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, player)
);
-- One row per seat of a finished game; mu and sigma after the game when it was rated (NULL: not rated).
CREATE TABLE game_results (
    table_id     BIGINT           NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat         INTEGER          NOT NULL,
    guild_id     BIGINT           NOT NULL,
    game         TEXT             NOT NULL,
    player       TEXT             NOT NULL,
    display      TEXT             NOT NULL,
    place        INTEGER          NOT NULL,  -- 1 is best; tied seats share it
    score        INTEGER          NOT NULL,
    won          INTEGER          NOT NULL,  -- 1: first place among two or more seats (or a solo game won)
    mu           DOUBLE PRECISION,
    sigma        DOUBLE PRECISION,
    finished_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX game_results_by_player ON game_results (guild_id, game, player, finished_at);
-- A finished game whose results are recorded (rated or not): a retry or a restart records it once.
CREATE TABLE recorded_games (
    table_id  BIGINT  PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
    rated     INTEGER NOT NULL
);
