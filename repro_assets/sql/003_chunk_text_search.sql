-- Full-text search over chunk text: the lexical leg of hybrid retrieval (storage/lexical.py).
-- The English tsvector of each chunk is stored (its ranking reads term frequencies of every
-- candidate, which an expression index alone would recompute per query) and GIN-indexed.
-- Idempotent: an existing store gets the column filled and the index built on first open.
ALTER TABLE chunks
    ADD COLUMN IF NOT EXISTS content_tsv tsvector
    GENERATED ALWAYS AS (to_tsvector('english', content)) STORED;
CREATE INDEX IF NOT EXISTS chunks_content_tsv_gin ON chunks USING gin (content_tsv);
