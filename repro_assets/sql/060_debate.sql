-- Scholarly debate (seed 002): one row per debate session, one row per scientist turn.
CREATE TABLE IF NOT EXISTS debate_sessions (
    id             text PRIMARY KEY,
    question       text NOT NULL,
    settings       jsonb NOT NULL DEFAULT '{}'::jsonb,
    mode           text NOT NULL,
    provider       text NOT NULL,
    terminal_state text NOT NULL DEFAULT 'running',
    conclusion     text,
    error_code     text,
    turns          integer NOT NULL DEFAULT 0,
    transcript_key text,
    markdown_key   text,
    llm_usage      jsonb NOT NULL DEFAULT '{}'::jsonb,
    started_at     timestamptz NOT NULL,
    finished_at    timestamptz,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS debate_turns (
    session_id         text NOT NULL REFERENCES debate_sessions(id) ON DELETE CASCADE,
    turn_no            integer NOT NULL,
    scientist          integer NOT NULL,
    role               text NOT NULL,
    query              text NOT NULL,
    ingestion          jsonb NOT NULL DEFAULT '{}'::jsonb,
    retrieved_chunk_ids bigint[] NOT NULL DEFAULT '{}',
    response           text NOT NULL,
    markers            jsonb NOT NULL DEFAULT '{}'::jsonb,
    citations          integer[] NOT NULL DEFAULT '{}',
    invalid_citations  integer[] NOT NULL DEFAULT '{}',
    "references"       jsonb NOT NULL DEFAULT '[]'::jsonb,
    method             text NOT NULL,
    model              text,
    complete           boolean NOT NULL DEFAULT true,
    started_at         timestamptz NOT NULL,
    finished_at        timestamptz,
    PRIMARY KEY (session_id, turn_no)
);
