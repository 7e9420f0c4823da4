"""``repro-assets debate``: streamed output and interruption (offline, ephemeral instance)."""

from __future__ import annotations

import argparse
import io
import threading

import dagster as dg

from repro_assets.assets import debate as debate_assets
from repro_assets.commands.debate import EXIT_INTERRUPTED, register, run_debate_command
from repro_assets.debate.views import show_transcript
from repro_assets.resources.registry import default_resources
from repro_assets.scholarly.samples import SAMPLE_QUESTION
from repro_assets.storage.vectorstore import VectorStore


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
    stored = show_transcript("c-2")
    assert stored["terminal_state"] == "interrupted" and len(stored["turns"]) == 1


def test_question_is_required() -> None:
    from repro_assets.commands.debate import cmd_debate

    assert cmd_debate(_args("")) == 2


def test_debate_command_streams_model_tokens(corpus_store: VectorStore, no_network: None) -> None:
    from repro_assets.resources.llm import LLMResource
    from tests.debate.test_llm_debate import APPROVAL, PROPOSAL
    from tests.fakes.llm_wire import FAST_CLIENT_CONFIG, OpenAIWireFake

    def pieces(text: str) -> list[str]:
        return [text[i:i + 40] for i in range(0, len(text), 40)]

    resources = {**default_resources(),
                 "llm": LLMResource(provider="openai", openai_api_key="sk-test",
                                    **FAST_CLIENT_CONFIG)}
    defs = dg.Definitions(assets=[debate_assets.debate_transcript],
                          jobs=[debate_assets.debate_job], resources=resources)
    out, err = _Out(), io.StringIO()
    with OpenAIWireFake() as fake:
        fake.reply_stream_text(pieces(PROPOSAL)).reply_stream_text(pieces(APPROVAL))
        code = run_debate_command(_args(SAMPLE_QUESTION, "--live", "off", "--session", "c-3"),
                                  instance=dg.DagsterInstance.ephemeral(), defs=defs,
                                  out=out, err=err)
    assert code == 0, err.getvalue()
    assert all(request.json["stream"] is True for request in fake.requests)
    text = out.getvalue()
    assert PROPOSAL.strip() in text and "=== Viable Solution Reached ===" in text
    assert "[[STATUS]] Debate started (LLM openai)" in text


def test_real_ctrl_c_in_a_subprocess(corpus_store: VectorStore, seeded_corpus_url: str) -> None:
    """SIGINT to the real command: clean stop, transcript kept, exit code 130."""
    import os
    import signal
    import subprocess
    import sys
    import tempfile

    env = {**os.environ, "REPRO_DATABASE_URL": seeded_corpus_url}
    errors = tempfile.TemporaryFile(mode="w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "repro_assets.cli", "debate",
         "What is the boiling point of liquid helium on Mars?", "--max-turns", "40",
         "--session", "c-sigint"],
        stdout=subprocess.PIPE, stderr=errors, text=True, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if line.startswith("[[STATUS]] Research Scientist 1 Response"):
            proc.send_signal(signal.SIGINT)
        if line.startswith("[[STATUS]] Terminal state"):  # the command's last stdout line
            break
    # wait for the command itself, not for the end of its stdout: Dagster's log mirrors
    # (`tail -F` children of the command) can hold the pipe after the command has exited
    proc.wait(timeout=120)
    proc.stdout.close()
    errors.seek(0)
    err = errors.read()
    output = "".join(seen)
    assert proc.returncode == EXIT_INTERRUPTED, err[-2000:]
    assert "=== Debate Interrupted ===" in output and "Terminal state: Interrupted" in output
    stored = show_transcript("c-sigint")
    assert stored["terminal_state"] == "interrupted" and len(stored["turns"]) < 40
