from tests.pg import pg_database, pg_url  # noqa: F401  (fixtures: PostgreSQL for the store suite)
