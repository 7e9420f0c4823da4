"""``repro-assets api [--host 127.0.0.1] [--port 8000]``: serve the HTTP API with uvicorn."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``api`` sub-command."""
    parser = sub.add_parser("api", help="serve the HTTP API (FastAPI + uvicorn, docs at /docs)")
    parser.add_argument("--host", default="127.0.0.1", help="bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.set_defaults(func=cmd_api)


def cmd_api(args: argparse.Namespace) -> int:
    """Start uvicorn on the app factory."""
    import uvicorn

    print(f"repro-assets API on http://{args.host}:{args.port} (docs: /docs)")
    uvicorn.run("repro_assets.api.app:create_app", factory=True, host=args.host,
                port=args.port, workers=args.workers, log_level="info")
    return 0
