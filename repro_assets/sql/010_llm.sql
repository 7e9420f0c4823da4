-- LLM layer: response cache (keyed by a hash of provider, model, messages, schema, tools,
-- temperature) and one usage row per provider call or cache hit.
CREATE TABLE IF NOT EXISTS llm_response_cache (
    cache_key     text PRIMARY KEY,
    kind          text NOT NULL,               -- structured | text
    provider      text NOT NULL,
    model         text NOT NULL,
    role          text NOT NULL,
    payload       jsonb NOT NULL,              -- value, raw_text, tool_calls, reasked
    input_tokens  integer NOT NULL DEFAULT 0,
    output_tokens integer NOT NULL DEFAULT 0,
    cost_usd      double precision NOT NULL DEFAULT 0,
    hits          integer NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_hit_at   timestamptz
);

CREATE TABLE IF NOT EXISTS llm_usage (
    id            bigserial PRIMARY KEY,
    run_id        text,
    kind          text NOT NULL,               -- structured | text | stream
    provider      text NOT NULL,
    model         text NOT NULL,
    role          text NOT NULL,
    input_tokens  integer NOT NULL DEFAULT 0,
    output_tokens integer NOT NULL DEFAULT 0,
    latency_s     double precision NOT NULL DEFAULT 0,
    cost_usd      double precision NOT NULL DEFAULT 0,
    cache_hit     boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX IF NOT EXISTS llm_usage_run_idx ON llm_usage (run_id);
CREATE INDEX IF NOT EXISTS llm_usage_created_idx ON llm_usage (created_at);
