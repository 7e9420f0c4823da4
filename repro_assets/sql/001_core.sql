-- Core schema: papers and the shared pgvector corpus (sources -> documents -> sections -> chunks).
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE IF NOT EXISTS papers (
    id               text PRIMARY KEY,
    title            text,
    source_url       text,
    pdf_storage_path text NOT NULL,
    pdf_sha256       text NOT NULL UNIQUE,
    page_count       integer,
    byte_size        bigint,
    status           text NOT NULL DEFAULT 'ingested',
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now()
);

-- Where a document came from: a paper PDF, an arXiv entry, a Crossref work, a web page ...
CREATE TABLE IF NOT EXISTS sources (
    id          bigserial PRIMARY KEY,
    kind        text NOT NULL,
    external_id text NOT NULL,
    url         text,
    metadata    jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (kind, external_id)
);

CREATE TABLE IF NOT EXISTS documents (
    id         bigserial PRIMARY KEY,
    source_id  bigint NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    paper_id   text REFERENCES papers(id) ON DELETE CASCADE,
    title      text,
    authors    jsonb NOT NULL DEFAULT '[]'::jsonb,
    year       integer,
    venue      text,
    doi        text,
    url        text,
    metadata   jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (source_id)
);
CREATE INDEX IF NOT EXISTS documents_paper_id_idx ON documents (paper_id);

CREATE TABLE IF NOT EXISTS sections (
    id          bigserial PRIMARY KEY,
    document_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ordinal     integer NOT NULL,
    title       text NOT NULL,
    page_start  integer,
    UNIQUE (document_id, ordinal)
);

-- One row per embedded chunk. The embedding column is dimension-free; the store records the
-- model and dimension in vector_store_meta, refuses to mix them, and indexes
-- (embedding::vector(dim)) with HNSW cosine once the dimension is known.
CREATE TABLE IF NOT EXISTS chunks (
    id              bigserial PRIMARY KEY,
    document_id     bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    section_id      bigint REFERENCES sections(id) ON DELETE SET NULL,
    ordinal         integer NOT NULL,
    content         text NOT NULL,
    page_start      integer,
    page_end        integer,
    token_count     integer NOT NULL,
    content_hash    text NOT NULL UNIQUE,
    embedding       vector NOT NULL,
    embedding_model text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS chunks_document_idx ON chunks (document_id, ordinal);

CREATE TABLE IF NOT EXISTS vector_store_meta (
    key             text PRIMARY KEY,
    embedding_model text NOT NULL,
    embedding_dim   integer NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);

-- Page text of each paper (paper_pages asset): one row per page, 1-based page numbers.
CREATE TABLE IF NOT EXISTS paper_pages (
    paper_id       text NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    page_no        integer NOT NULL,
    text           text NOT NULL,
    blocks         jsonb NOT NULL DEFAULT '[]'::jsonb,
    section_titles jsonb NOT NULL DEFAULT '[]'::jsonb,
    has_text_layer boolean NOT NULL,
    PRIMARY KEY (paper_id, page_no)
);
