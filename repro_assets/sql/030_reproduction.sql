-- Papers stages 5-6: generated notebooks, notebook runs with their metrics, reports.

-- One row per generated notebook (the .ipynb and its parameters live in the blob store).
CREATE TABLE IF NOT EXISTS notebooks (
    id             text PRIMARY KEY,
    paper_id       text NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    plan_id        text,
    template       text NOT NULL,
    notebook_key   text NOT NULL,
    parameters_key text NOT NULL,
    parameters     jsonb NOT NULL,
    warnings       jsonb NOT NULL DEFAULT '[]'::jsonb,
    budget_minutes integer NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS notebooks_paper_idx ON notebooks (paper_id, created_at DESC);

-- One row per execution; results holds the notebook's metrics.json.
CREATE TABLE IF NOT EXISTS runs (
    id             text PRIMARY KEY,
    paper_id       text NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    plan_id        text,
    notebook_id    text REFERENCES notebooks(id) ON DELETE SET NULL,
    dagster_run_id text,
    template       text NOT NULL,
    status         text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
    budget_minutes integer NOT NULL,
    seconds        double precision,
    data_source    text,
    synthetic      boolean,
    output_prefix  text NOT NULL,
    executed_key   text,
    plots          jsonb NOT NULL DEFAULT '{}'::jsonb,
    results        jsonb NOT NULL DEFAULT '{}'::jsonb,
    error_code     text,
    error_message  text,
    error          jsonb,
    started_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz
);
CREATE INDEX IF NOT EXISTS runs_paper_idx ON runs (paper_id, started_at DESC);

-- One row per measured metric of a run (test split), the primary one flagged.
CREATE TABLE IF NOT EXISTS metrics (
    run_id     text NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    name       text NOT NULL,
    split      text NOT NULL DEFAULT 'test',
    value      double precision NOT NULL,
    is_primary boolean NOT NULL DEFAULT false,
    goal_value double precision,
    PRIMARY KEY (run_id, name, split)
);

-- Reports keep their history; the latest per paper feeds the leaderboard.
CREATE TABLE IF NOT EXISTS reproduction_reports (
    id           bigserial PRIMARY KEY,
    paper_id     text NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    run_id       text REFERENCES runs(id) ON DELETE SET NULL,
    plan_id      text,
    verdict      text NOT NULL
                 CHECK (verdict IN ('REPRODUCED', 'PARTIAL', 'NOT_REPRODUCED', 'NOT_RUN')),
    report       jsonb NOT NULL,
    markdown_key text,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS reproduction_reports_paper_idx
    ON reproduction_reports (paper_id, created_at DESC, id DESC);
