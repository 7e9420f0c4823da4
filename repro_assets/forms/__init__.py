"""Evidence-grounded form filling (seed 003, slice 1): pure domain logic.

models (pydantic types and artifacts) -> schema (resolve_schema) -> extract (index_docs,
extract_text) -> routing (route_docs) -> heuristics + candidates (extract_candidates, at most
one LLM call per field) -> validate (validators, hallucination check) -> scoring
(score_select, winner/status) -> pipeline (run folder steps + trace) -> runfolder (the
``runs/<run_id>/`` filesystem contract). bundles reads drop-folder bundles; samples generates
the sample bundles.
"""
