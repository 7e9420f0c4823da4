-- Research agent (seed 004): sessions, per-cycle checkpoints, access failures, source memory.

CREATE TABLE IF NOT EXISTS research_sessions (
    session_id     text PRIMARY KEY,
    query          text NOT NULL,
    privacy_mode   text NOT NULL,
    domain         text NOT NULL DEFAULT 'auto',
    max_cycles     integer NOT NULL,
    status         text NOT NULL DEFAULT 'running',  -- running, completed, stopped, failed
    status_line    text NOT NULL DEFAULT '',
    current_phase  text NOT NULL DEFAULT 'starting',
    cycles         integer NOT NULL DEFAULT 0,
    stop_requested boolean NOT NULL DEFAULT false,
    stop_reason    text,
    report_key     text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz
);

-- The whole ResearchState after every completed cycle; a killed run resumes from the last one.
CREATE TABLE IF NOT EXISTS research_checkpoints (
    session_id text NOT NULL REFERENCES research_sessions(session_id) ON DELETE CASCADE,
    cycle      integer NOT NULL,
    phase      text NOT NULL,
    state      jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, cycle)
);

-- Every source that could not be used and what the obstacle handler did (never silent).
CREATE TABLE IF NOT EXISTS research_access_failures (
    id            bigserial PRIMARY KEY,
    session_id    text NOT NULL,
    cycle         integer NOT NULL DEFAULT 0,
    source_name   text NOT NULL,
    url           text NOT NULL,
    error_type    text NOT NULL,
    error_message text NOT NULL,
    action        text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS research_access_failures_session_idx
    ON research_access_failures (session_id, id);

-- Past quality of each source per domain, updated after every session (plan ranks by it).
CREATE TABLE IF NOT EXISTS research_source_memory (
    domain        text NOT NULL,
    source_name   text NOT NULL,
    sessions      integer NOT NULL DEFAULT 0,
    calls         integer NOT NULL DEFAULT 0,
    failures      integer NOT NULL DEFAULT 0,
    results       integer NOT NULL DEFAULT 0,
    useful        integer NOT NULL DEFAULT 0,
    quality_score double precision NOT NULL DEFAULT 0.5,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (domain, source_name)
);
