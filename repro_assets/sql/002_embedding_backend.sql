-- The vector store records the embedding backend beside the model (torch, onnx, onnx-int8), per
-- store and per chunk, so a store is never silently mixed and can be re-embedded explicitly
-- (`repro-assets reembed`). Everything embedded before this migration was embedded with torch.
ALTER TABLE vector_store_meta
    ADD COLUMN IF NOT EXISTS embedding_backend text NOT NULL DEFAULT 'torch';
ALTER TABLE chunks
    ADD COLUMN IF NOT EXISTS embedding_backend text NOT NULL DEFAULT 'torch';
