-- Papers stages 2-4: reproducibility verdicts, grounded claims (replace policy) and plans.

CREATE TABLE IF NOT EXISTS paper_verdicts (
    paper_id         text PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
    reproducible     boolean NOT NULL,
    reasoning        text NOT NULL,
    missing_elements jsonb NOT NULL DEFAULT '[]'::jsonb,
    checklist        jsonb NOT NULL DEFAULT '[]'::jsonb,
    method           text NOT NULL,
    llm_error        text,
    created_at       timestamptz NOT NULL DEFAULT now()
);

-- One row per grounded claim; re-extraction deletes a paper's rows first (replace policy).
CREATE TABLE IF NOT EXISTS claims (
    id                bigserial PRIMARY KEY,
    paper_id          text NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    ordinal           integer NOT NULL,
    dataset_name      text NOT NULL,
    split             text NOT NULL,
    metric_name       text NOT NULL,
    metric_value      double precision NOT NULL,
    units             text,
    method_snippet    text,
    source_citation   text NOT NULL,
    confidence        double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    evidence_page     integer NOT NULL,
    evidence_quote    text NOT NULL,
    extraction_method text NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now(),
    UNIQUE (paper_id, ordinal)
);
CREATE INDEX IF NOT EXISTS claims_paper_idx ON claims (paper_id);

-- Extraction runs: method, rejected candidates with reasons, LLM usage.
CREATE TABLE IF NOT EXISTS claim_extractions (
    paper_id     text PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
    method       text NOT NULL,
    claims_count integer NOT NULL,
    rejected     jsonb NOT NULL DEFAULT '[]'::jsonb,
    llm_usage    jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- Plans keep their history; the latest per paper is the current one.
CREATE TABLE IF NOT EXISTS plans (
    id              text PRIMARY KEY,
    paper_id        text NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    version         text NOT NULL,
    plan_json       jsonb NOT NULL,
    budget_minutes  integer NOT NULL,
    status          text NOT NULL DEFAULT 'planned',
    method          text NOT NULL,
    stage_path      text NOT NULL,
    warnings        jsonb NOT NULL DEFAULT '[]'::jsonb,
    data_resolution jsonb NOT NULL DEFAULT '{}'::jsonb,
    llm_usage       jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS plans_paper_idx ON plans (paper_id, created_at DESC);
