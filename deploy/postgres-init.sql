-- The Dagster instance's database beside the project's (REPRO_DAGSTER_PG_URL); the project's
-- migrations create the pgvector extension and tables in "repro" on first use.
CREATE DATABASE dagster;
