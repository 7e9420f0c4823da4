"""Core commands: init, demo, ui, materialize, show, status, reembed."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from typing import TYPE_CHECKING, Any

from repro_assets import settings
from repro_assets.commands import defer
from repro_assets.settings import environment

if TYPE_CHECKING:
    import dagster as dg


def register(sub: argparse._SubParsersAction) -> None:
    """Add the core sub-commands."""
    init = sub.add_parser(
        "init", help="write .env (DAGSTER_HOME, REPRO_HOME) so plain dagster/dg commands run "
        "from the project root use the project's instance",
    )
    init.set_defaults(func=cmd_init)

    reembed = sub.add_parser(
        "reembed", help="re-embed every stored chunk with another embedding backend"
    )
    defer(reembed, _add_backend)
    reembed.set_defaults(func=cmd_reembed)

    demo = sub.add_parser("demo", help="materialize every sample partition and print a summary")
    demo.add_argument("--only", nargs="*", help="workflow modules to run (e.g. papers factory)")
    demo.set_defaults(func=cmd_demo)

    ui = sub.add_parser("ui", help="start the Dagster UI (dagster dev) on the project instance")
    ui.add_argument("--port", type=int, default=3000)
    ui.add_argument("--host", default="127.0.0.1")
    ui.set_defaults(func=cmd_ui)

    mat = sub.add_parser("materialize", help="materialize an asset or group (with upstream)")
    mat.add_argument("target", help="asset name or group name")
    mat.add_argument("--partition", default=None, help="partition key")
    mat.add_argument("--no-cache", action="store_true",
                     help="ask the LLM afresh: bypass its response cache for this run")
    mat.set_defaults(func=cmd_materialize)

    show = sub.add_parser("show", help="print an asset's latest stored value")
    show.add_argument("asset")
    show.add_argument("--partition", default=None)
    show.add_argument("--json", action="store_true", help="machine-readable JSON")
    show.set_defaults(func=cmd_show)

    status = sub.add_parser("status", help="database, partitions and row counts")
    status.set_defaults(func=cmd_status)


def _add_backend(reembed: argparse.ArgumentParser) -> None:
    from repro_assets.embeddings.base import BACKENDS

    reembed.add_argument("--backend", required=True, choices=BACKENDS)


def cmd_init(args: argparse.Namespace) -> int:
    """Write ``.env`` and DAGSTER_HOME/dagster.yaml, export the ONNX embedding model
    (``make setup`` runs this)."""
    from repro_assets.embeddings.export import ensure_exported
    from repro_assets.instance import write_dotenv
    from repro_assets.storage.embedder import (
        TORCH,
        configured_backend,
        configured_model,
        default_backend,
    )

    path = write_dotenv()
    print(f"wrote {path}: `dagster dev`, `dagster asset materialize`, `dg check defs` ... "
          "run from this folder now use the project's instance")
    backend = configured_backend() or default_backend()
    if backend != TORCH:
        folder = ensure_exported(configured_model(), backend)
        print(f"embedding model ({backend}): {folder}")
    return 0


def cmd_reembed(args: argparse.Namespace) -> int:
    """Re-embed the vector store with ``--backend`` (resumable; then the store records it)."""
    from repro_assets.storage.database import get_database
    from repro_assets.storage.embedder import configured_model, get_embedder
    from repro_assets.storage.vectorstore import VectorStore, VectorStoreError

    store = VectorStore(get_database(), get_embedder(configured_model(), args.backend))
    try:
        count = store.reembed()
    except VectorStoreError as exc:
        print(f"error {exc.code}: {exc}", file=sys.stderr)
        return 2
    print(f"re-embedded {count} chunks; the store now holds {args.backend} embeddings")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    """Run every workflow's demo on the project instance and print the summary table."""
    from repro_assets.demo import demo_succeeded, render_table, run_demo
    from repro_assets.instance import get_instance, prepare_in_process_runs

    instance = get_instance(hold_connections=True)
    prepare_in_process_runs(instance)  # the demo's runs carry their process (demo.py)
    rows = run_demo(instance, only=args.only)
    print()
    print(render_table(rows))
    print()
    home = settings.current().paths.dagster_home
    print(f"Dagster UI: `make ui` then http://127.0.0.1:3000 (DAGSTER_HOME={home})")
    ok = demo_succeeded(rows)
    print("demo: all partitions succeeded" if ok else "demo: FAILED (see rows marked FAILED)")
    return 0 if ok else 1


def cmd_ui(args: argparse.Namespace) -> int:
    """Run ``dagster dev`` on workspace.yaml with the project's instance and storage.

    Ctrl-C stops it within ``REPRO_UI_STOP_SECONDS`` (:mod:`repro_assets.ui_supervisor`); an
    embedded Postgres that this command started is then stopped cleanly too.
    """
    from repro_assets.instance import get_instance
    from repro_assets.storage.database import embedded_server_running, stop_embedded_server
    from repro_assets.ui_supervisor import DevSupervisor

    own_postgres = not settings.current().database.url and (
        not embedded_server_running()
    )
    instance = get_instance()  # storage, dagster.yaml and the LLM pool limits
    workspace = settings.project_home() / "workspace.yaml"
    dagster = shutil.which("dagster", path=os.path.dirname(sys.executable)) or "dagster"
    argv = [dagster, "dev", "-h", args.host, "-p", str(args.port)]
    argv += ["-w", str(workspace)] if workspace.exists() else ["-m", "repro_assets.definitions"]
    home = settings.current().paths.dagster_home
    print(f"Dagster UI on http://{args.host}:{args.port} (DAGSTER_HOME={home}); Ctrl-C stops it")
    sys.stdout.flush()
    try:
        return DevSupervisor(argv, instance).run()
    finally:
        instance.dispose()
        if own_postgres and stop_embedded_server():
            print("embedded Postgres stopped", file=sys.stderr)


def resolve_selection(defs: dg.Definitions, target: str) -> dg.AssetSelection:
    """An asset name, an asset key path (a/b) or a group name -> selection."""
    import dagster as dg

    graph = defs.resolve_asset_graph()
    groups = {graph.get(key).group_name for key in graph.get_all_asset_keys()}
    if target in groups:
        return dg.AssetSelection.groups(target)
    key = dg.AssetKey.from_user_string(target)
    if not graph.has(key):
        raise SystemExit(f"unknown asset or group: {target}")
    return dg.AssetSelection.assets(key)


def missing_upstream(
    instance: dg.DagsterInstance, defs: dg.Definitions, selection: dg.AssetSelection,
    partition: str | None,
) -> set[dg.AssetKey]:
    """Upstream assets of ``selection`` never materialized (for ``partition``)."""
    graph = defs.resolve_asset_graph()
    selected = selection.resolve(graph)
    missing = set()
    for key in selection.upstream().resolve(graph) - selected:
        node = graph.get(key)
        if not node.is_materializable:
            continue
        if node.partitions_def is not None and partition is not None:
            done = instance.get_materialized_partitions(key)
            if partition not in done:
                missing.add(key)
        elif node.partitions_def is None and instance.get_latest_materialization_event(key) is None:
            missing.add(key)
    return missing


def cmd_materialize(args: argparse.Namespace) -> int:
    """Materialize an asset or group (adding missing upstream) on the project instance."""
    import dagster as dg

    from repro_assets.definitions import defs
    from repro_assets.instance import get_instance, prepare_in_process_runs
    from repro_assets.resources.llm import CACHE_ENV

    if args.no_cache:
        environment.export(CACHE_ENV, "0")

    instance = get_instance(hold_connections=True)
    tags = prepare_in_process_runs(instance)  # a killed earlier command's runs: failed
    selection = resolve_selection(defs, args.target)
    extra = missing_upstream(instance, defs, selection, args.partition)
    if extra:
        print("also materializing missing upstream: "
              + ", ".join(sorted(k.to_user_string() for k in extra)))
        selection = selection | dg.AssetSelection.assets(*extra)
    assets = [a for a in [*(defs.assets or []), *(defs.asset_checks or [])]
              if isinstance(a, dg.AssetsDefinition | dg.AssetSpec | dg.SourceAsset)]
    result = dg.materialize(
        assets, selection=selection, partition_key=args.partition, instance=instance,
        resources=defs.resources, tags=tags, raise_on_error=False,
    )
    for event in result.get_asset_materialization_events():
        print(f"materialized {event.asset_key.to_user_string() if event.asset_key else '?'}"
              + (f" [{event.partition}]" if event.partition else ""))
    if not result.success:
        from repro_assets.runs import failure_message

        print(f"FAILED: {failure_message(result)}", file=sys.stderr)
        return 1
    return 0


def _show_handler(asset: str) -> Any:
    from repro_assets.debate import views as debate_views
    from repro_assets.factory import views as factory_views
    from repro_assets.forms import views as forms_views
    from repro_assets.papers import views as papers_views
    from repro_assets.research import views as research_views

    shows = {**papers_views.SHOWS, **factory_views.SHOWS, **forms_views.SHOWS,
             **debate_views.SHOWS, **research_views.SHOWS}
    return shows.get(asset)


def _metadata_value(value: Any) -> Any:
    inner = getattr(value, "value", value)
    if isinstance(inner, (str, int, float, bool, list, dict)) or inner is None:
        return inner
    return str(inner)


def cmd_show(args: argparse.Namespace) -> int:
    """Print an asset's full stored value (SHOWS handler) or its latest metadata."""
    import dagster as dg

    from repro_assets.instance import get_instance

    handler = _show_handler(args.asset)
    if handler is not None:
        get_instance()  # makes sure the database is up and env is set
        value = handler(args.partition)
    else:
        instance = get_instance()
        key = dg.AssetKey.from_user_string(args.asset)
        records = instance.fetch_materializations(
            dg.AssetRecordsFilter(
                asset_key=key, asset_partitions=[args.partition] if args.partition else None
            ),
            limit=1,
        ).records
        if not records:
            print(f"{args.asset} has no materialization"
                  + (f" for partition {args.partition}" if args.partition else ""), file=sys.stderr)
            return 1
        mat = records[0].asset_materialization
        if mat is None:
            print(f"{args.asset}: the latest event is no materialization", file=sys.stderr)
            return 1
        value = {
            "asset": args.asset,
            "partition": mat.partition,
            "metadata": {k: _metadata_value(v) for k, v in mat.metadata.items()},
        }
    if args.json:
        print(json.dumps(value, indent=2, default=str))
    elif isinstance(value, str):
        print(value)
    else:
        print(json.dumps(value, indent=2, default=str))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    """Print where data lives and how much there is."""
    from repro_assets.instance import get_instance
    from repro_assets.partitions import ALL_PARTITIONS
    from repro_assets.storage.database import get_database

    instance = get_instance()
    db = get_database()
    print(f"database:     {db.url}")
    print(f"blob store:   {settings.blob_root()}")
    print(f"inbox:        {settings.inbox_root()}")
    print(f"DAGSTER_HOME: {settings.current().paths.dagster_home}")
    for name in ALL_PARTITIONS:
        print(f"partitions {name}: {len(instance.get_dynamic_partitions(name))}")
    with db.connection() as conn:
        for table in ("papers", "documents", "chunks"):
            row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
            count = row[0] if row else 0
            print(f"rows {table}: {count}")
    return 0
