"""The one FastAPI app of the project (``repro-assets api``; OpenAPI docs at ``/docs``).

To add endpoints, create a module in this package exposing ``router = APIRouter(...)`` and add
one ``app.include_router(<module>.router, dependencies=protected)`` line in
:func:`create_app`. Handlers get shared dependencies from ``request.app.state.services``
(:class:`repro_assets.api.services.Services`) and raise
:class:`repro_assets.api.errors.ApiError` for coded errors.

Security: ``REPRO_API_KEY`` enables the ``X-API-Key`` header check on every included router;
without a key, cross-site requests are refused (``Host`` and ``Origin`` must name loopback or
``REPRO_API_ALLOWED_HOSTS``; :class:`repro_assets.api.security.SiteGuardMiddleware`);
CORS is closed unless ``REPRO_API_CORS_ORIGINS`` lists origins (comma-separated); request
bodies are limited to ``REPRO_API_MAX_BODY_MB`` (default 15 MiB) while streaming.
"""

from __future__ import annotations

from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles

from repro_assets import settings
from repro_assets.api import debate, errors, factory, forms, papers, research
from repro_assets.api.security import (
    BodySizeLimitMiddleware,
    BodyTooLarge,
    SecurityHeadersMiddleware,
    SiteGuardMiddleware,
    allowed_hosts_from_env,
    body_too_large_handler,
    configured_api_key,
    require_api_key,
)
from repro_assets.api.services import Services


def create_app(
    services: Services | None = None,
    *,
    api_key: str | None = None,
    cors_origins: list[str] | None = None,
    max_body_bytes: int | None = None,
    allowed_hosts: frozenset[str] | None = None,
) -> FastAPI:
    """Build the app.

    Args:
        services: shared dependencies (default: built from the environment).
        api_key: required ``X-API-Key`` value (default ``REPRO_API_KEY``; None/empty = open).
        cors_origins: allowed origins (default ``REPRO_API_CORS_ORIGINS``; empty = closed).
        max_body_bytes: request body limit (default ``REPRO_API_MAX_BODY_MB`` MiB, 15).
        allowed_hosts: host names the API answers to without a key (default: loopback names
            plus ``REPRO_API_ALLOWED_HOSTS`` and the CORS origins' hosts).
    """
    app = FastAPI(title="repro_assets API", version="1",
                  description="Documents to trustworthy, traceable data assets.")
    app.state.services = services or Services()
    app.state.api_key = api_key if api_key is not None else configured_api_key()
    errors.install(app)
    app.add_exception_handler(BodyTooLarge, body_too_large_handler)

    origins = cors_origins if cors_origins is not None else settings.split_list(
        settings.current().api.cors_origins)
    if origins:
        app.add_middleware(CORSMiddleware, allow_origins=origins, allow_methods=["*"],
                           allow_headers=["*"])
    limit = max_body_bytes or settings.env_int("REPRO_API_MAX_BODY_MB", 15) * 1024 * 1024
    app.add_middleware(BodySizeLimitMiddleware, max_bytes=limit)
    app.add_middleware(SecurityHeadersMiddleware)
    # outermost: a cross-site request is refused before anything reads it
    app.add_middleware(SiteGuardMiddleware, cors_origins=origins,
                       allowed_hosts=allowed_hosts if allowed_hosts is not None
                       else allowed_hosts_from_env(origins))

    @app.get("/healthz", tags=["meta"], summary="Liveness probe (never needs the API key)")
    async def healthz() -> dict[str, str]:
        # async: answered on the event loop, never queued behind busy worker threads
        return {"status": "ok"}

    protected = [Depends(require_api_key)]
    app.include_router(forms.router, dependencies=protected)
    app.include_router(papers.router, dependencies=protected)
    app.include_router(debate.router, dependencies=protected)
    app.include_router(research.router, dependencies=protected)
    app.include_router(factory.router, dependencies=protected)
    app.include_router(research.ws_router)
    app.mount("/ui", StaticFiles(packages=[("repro_assets.api", "web")], html=True), name="web")
    return app
