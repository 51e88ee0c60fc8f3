-- PostgreSQL twin of ../008_meta.sql.
CREATE TABLE meta (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
