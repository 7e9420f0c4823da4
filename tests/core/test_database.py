import psycopg

from repro_assets.storage.database import apply_migrations, migration_files


def test_migrations_are_ordered_and_idempotent(fresh_database: str) -> None:
    names = [name for name, _ in migration_files()]
    assert names == sorted(names)
    assert names[0].startswith("001_")
    with psycopg.connect(fresh_database) as conn:
        assert apply_migrations(conn) == []  # already applied by the fixture
        applied = {row[0] for row in conn.execute("SELECT name FROM schema_migrations")}
        assert applied == set(names)
        ext = conn.execute("SELECT extversion FROM pg_extension WHERE extname='vector'").fetchone()
        assert ext is not None


def test_pool_connection_commits_and_rolls_back(fresh_database: str) -> None:
    from repro_assets.storage.database import get_database

    db = get_database(fresh_database)
    with db.connection() as conn:
        conn.execute("CREATE TABLE t_commit (x int)")
        conn.execute("INSERT INTO t_commit VALUES (1)")
    try:
        with db.connection() as conn:
            conn.execute("INSERT INTO t_commit VALUES (2)")
            raise RuntimeError("boom")
    except RuntimeError:
        pass
    with db.connection() as conn:
        assert conn.execute("SELECT array_agg(x) FROM t_commit").fetchone()[0] == [1]
