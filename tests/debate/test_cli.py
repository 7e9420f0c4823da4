"""``repro-assets debate``: streamed output and interruption (offline, ephemeral instance)."""

from __future__ import annotations

import argparse
import io
import threading

import dagster as dg

from repro_assets.assets import debate as debate_assets
from repro_assets.commands.debate import EXIT_INTERRUPTED, register, run_debate_command
from repro_assets.resources.registry import default_resources
from repro_assets.resources.vectorstore import VectorStore
from repro_assets.scholarly.samples import SAMPLE_QUESTION


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["debate", *argv])


def _defs() -> dg.Definitions:
    return dg.Definitions(assets=[debate_assets.scholarly_corpus,
                                  debate_assets.debate_transcript],
                          jobs=[debate_assets.debate_job], resources=default_resources())


class _Out(io.StringIO):
    """Captures output and sets ``stop`` when a marker text is written (a user's Ctrl-C)."""

    def __init__(self, stop: threading.Event | None = None, at: str = "") -> None:
        super().__init__()
        self.stop, self.at = stop, at

    def write(self, text: str) -> int:
        if self.stop is not None and self.at and self.at in text:
            self.stop.set()
        return super().write(text)


def test_debate_command_streams_status_and_text(corpus_store: VectorStore,
                                                no_network: None) -> None:
    out, err = _Out(), io.StringIO()
    code = run_debate_command(_args(SAMPLE_QUESTION, "--max-turns", "2", "--session", "c-1"),
                              instance=dg.DagsterInstance.ephemeral(), defs=_defs(),
                              out=out, err=err)
    assert code == 0, err.getvalue()
    text = out.getvalue()
    assert text.startswith("[[STATUS]] Debate started (offline mode)")
    assert "### Research Scientist 1 (optimist), turn 1" in text
    assert "References (APA 7)" in text and "=== Viable Solution Reached ===" in text
    assert "terminal state: consensus" in err.getvalue()


def test_ctrl_c_interrupts_cleanly_and_keeps_the_transcript(corpus_store: VectorStore,
                                                            no_network: None) -> None:
    stop = threading.Event()
    out, err = _Out(stop, "Research Scientist 1 Markers"), io.StringIO()
    code = run_debate_command(_args(SAMPLE_QUESTION, "--session", "c-2"),
                              instance=dg.DagsterInstance.ephemeral(), defs=_defs(),
                              out=out, err=err, stop=stop)
    assert code == EXIT_INTERRUPTED
    assert "=== Debate Interrupted ===" in out.getvalue()
    assert "Research Scientist 2 Response" not in out.getvalue()
    stored = debate_assets.show_transcript("c-2")
    assert stored["terminal_state"] == "interrupted" and len(stored["turns"]) == 1


def test_question_is_required() -> None:
    from repro_assets.commands.debate import cmd_debate

    assert cmd_debate(_args("")) == 2
