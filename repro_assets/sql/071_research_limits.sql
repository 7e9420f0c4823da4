-- Research agent limits that hold across sessions and processes (issue #16).

-- Shared rate limits: one row per limited key (a provider name, or "host:<name>" for page
-- fetches). ``next_at`` is the earliest moment the next request may start; a caller reserves
-- its slot with one atomic UPDATE (see repro_assets/research/ratelimit.py).
CREATE TABLE IF NOT EXISTS research_rate_slots (
    key     text PRIMARY KEY,
    next_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- Liveness of running sessions: the agent beats while it runs; the reaper marks a session
-- whose process died (no beat for a while, or its pid is gone on this host) as failed.
ALTER TABLE research_sessions ADD COLUMN IF NOT EXISTS heartbeat_at timestamptz;
ALTER TABLE research_sessions ADD COLUMN IF NOT EXISTS owner text;
-- Arguments a resume must match (the query, privacy mode, domain and max_cycles are columns).
ALTER TABLE research_sessions ADD COLUMN IF NOT EXISTS max_provider_calls integer;
