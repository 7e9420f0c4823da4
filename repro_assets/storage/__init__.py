"""Plain storage classes every layer shares: Postgres (:mod:`.database`), the blob store
(:mod:`.blobstore`), drop folders (:mod:`.dropfolder`), the pgvector store
(:mod:`.vectorstore`) and the embedding model it embeds with (:mod:`.embedder`).

No Dagster here: the Dagster resources in :mod:`repro_assets.resources` wrap these classes,
and domain packages import them directly.
"""
