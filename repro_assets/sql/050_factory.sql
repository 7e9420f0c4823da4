-- Factory onboarding (seed 001): source texts, extracted configs (or their failure), schedules.
CREATE TABLE IF NOT EXISTS factory_texts (
    partition_key text PRIMARY KEY,
    file_name     text NOT NULL,
    sha256        text NOT NULL,
    byte_size     integer NOT NULL,
    blob_key      text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

-- One row per factory text: the FactoryConfig on success, the ExtractionError on failure.
CREATE TABLE IF NOT EXISTS factory_configs (
    partition_key text PRIMARY KEY REFERENCES factory_texts(partition_key) ON DELETE CASCADE,
    status        text NOT NULL CHECK (status IN ('ok', 'failed')),
    method        text NOT NULL,
    text_sha256   text NOT NULL,
    config        jsonb,
    coverage      jsonb,
    repairs       jsonb NOT NULL DEFAULT '[]'::jsonb,
    error         jsonb,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'ok') = (config IS NOT NULL))
);

-- One row per factory and dispatch rule.
CREATE TABLE IF NOT EXISTS factory_schedules (
    partition_key text NOT NULL REFERENCES factory_texts(partition_key) ON DELETE CASCADE,
    rule          text NOT NULL,
    start_hour    integer NOT NULL,
    makespan      integer NOT NULL,
    schedule      jsonb NOT NULL,
    gantt_key     text NOT NULL,
    updated_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (partition_key, rule)
);
