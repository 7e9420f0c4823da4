"""The HTTP API: one FastAPI app (:func:`repro_assets.api.app.create_app`).

Each module here that serves endpoints exposes ``router: fastapi.APIRouter``; ``app.py``
includes it with one line. Shared pieces: :mod:`repro_assets.api.services` (what handlers
use: blob store, LLM client, Dagster recording), :mod:`repro_assets.api.security` (API key,
body-size limit), :mod:`repro_assets.api.errors` (``ApiError`` -> ``{"error", "message"}``).
"""
