"""What a ``repro-assets`` command pays before its work (issue #29 item 2).

A shell loop of ``repro-assets ingest`` starts one process per PDF: building the parser must not
import the workflows (Dagster, PyMuPDF, the evaluators), and the ingest process must not import
PyMuPDF at all (every parse runs in the limited worker, which has its own).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from repro_assets.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("dagster", "dagster_postgres", "pymupdf", "onnxruntime", "numpy", "tokenizers", "httpx")


def _fresh(code: str) -> list[str]:
    """Run ``code`` in a new interpreter; the heavy top-level packages it loaded."""
    script = textwrap.dedent(code) + textwrap.dedent(f"""
        import json, sys
        print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r}))))
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_building_the_parser_imports_no_workflow() -> None:
    loaded = _fresh("""
        from repro_assets.cli import build_parser
        build_parser().parse_args(["ingest", "paper.pdf"])
    """)
    assert loaded == []


def test_the_ingest_process_never_imports_pymupdf() -> None:
    loaded = _fresh("""
        from repro_assets.commands.papers import _ingest_definitions
        from repro_assets.instance import get_instance
        _ingest_definitions(False).resolve_job_def("paper_ingest_job")
    """)
    assert "dagster" in loaded
    assert "pymupdf" not in loaded and "httpx" not in loaded  # no parse; no URL to fetch


def test_deferred_arguments_are_there_when_the_command_is_chosen() -> None:
    parser = build_parser()
    assert parser.parse_args(["reembed", "--backend", "onnx"]).backend == "onnx"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["reembed", "--backend", "no-such-backend"])
    args = build_parser().parse_args(["eval", "factory"])
    assert args.workflow == "factory" and callable(args.func)


def test_eval_help_lists_the_evaluators(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["eval", "--help"])
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert all(name in out for name in ("claims", "factory", "forms"))
