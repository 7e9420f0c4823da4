"""The debate web page in a real headless browser (Debian's chromium driven by Playwright).

Skipped, with the reason shown, where ``/usr/bin/chromium`` or the ``playwright`` package is
missing; ``.ci/run`` installs Debian's chromium, so CI always runs it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from repro_assets.scholarly.samples import SAMPLE_QUESTION
from tests.api.conftest import gated_openai

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM),
        reason=f"no Chromium at {CHROMIUM} (apt-get install chromium); browser test skipped"),
]
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="the playwright package is not installed")

WATCH_MUTATIONS = """() => {
  window.__mutations = 0;
  new MutationObserver((list) => { window.__mutations += list.length; })
    .observe(document.getElementById('messages'),
             {subtree: true, characterData: true, childList: true});
}"""
DISTANCE_FROM_BOTTOM = """() => { const m = document.getElementById('messages');
  return m.scrollHeight - m.scrollTop - m.clientHeight; }"""


def _wait_for(page, expression: str, timeout: float) -> None:  # noqa: ANN001
    """Poll ``expression`` with ``page.evaluate`` until it is true (``wait_for_function`` would
    build a function from the string in the page, which the page's CSP forbids: no eval)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        time.sleep(0.1)


def _statuses(page) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all("#statuslog li", "items => items.map(i => i.textContent)")


def test_ask_stream_status_and_interrupt(live_server, app, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch):
    with sync_api.sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, args=ARGS, headless=True,
            viewport={"width": 1000, "height": 640})
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(f"{live_server.url}/ui/")
            assert page.is_disabled("#interrupt") and page.is_enabled("#send")
            assert page.text_content("#status") == "Idle"

            # 1. an offline question: streamed text and status lines, consensus
            page.evaluate(WATCH_MUTATIONS)
            page.fill("#question", SAMPLE_QUESTION)
            page.press("#question", "Enter")
            _wait_for(page,
                      "document.body.dataset.streaming === 'false' && "
                      "document.getElementById('status').textContent.startsWith('Terminal state')",
                      timeout=300)  # hang guards, generous for a loaded machine
            assert page.text_content("#status").startswith("Terminal state: Consensus")
            statuses = _statuses(page)
            assert any(s.startswith("Research Scientist 1 Search Query: ") for s in statuses)
            assert any(s.startswith("Research Scientist 2 Retrieved chunks from vector DB")
                       for s in statuses)
            answer = page.text_content(".bubble.assistant")
            assert "### Research Scientist 1 (optimist), turn 1" in answer
            assert "=== Viable Solution Reached ===" in answer and "[[STATUS]]" not in answer
            assert page.text_content(".bubble.user") == SAMPLE_QUESTION
            assert page.evaluate("window.__mutations") > 5  # rendered piece by piece
            assert page.evaluate(DISTANCE_FROM_BOTTOM) <= 80  # followed while at the bottom

            # 2. a debate held at its first LLM call: scroll up, press Interrupt
            with gated_openai(monkeypatch) as gate:
                page.fill("#question", "Is this second question answered from evidence?")
                page.click("#send")
                _wait_for(page, "document.getElementById('status').textContent"
                          ".startsWith('Research Scientist 1 Response:')", timeout=180)
                assert page.is_enabled("#interrupt") and page.is_disabled("#send")
                page.evaluate("document.getElementById('messages').scrollTop = 0")
                page.click("#interrupt")
                manager = app.state.debate_manager
                deadline = time.monotonic() + 60
                while not manager.active.stop.is_set():
                    assert time.monotonic() < deadline, "the interrupt never reached the API"
                    time.sleep(0.05)
                gate.set()
                _wait_for(page, "document.body.dataset.streaming === 'false'", timeout=180)
            assert page.text_content("#status").startswith("Terminal state: Interrupted")
            assert "Interrupted by user" in _statuses(page)
            last = page.eval_on_selector_all(".bubble.assistant", "b => b.at(-1).textContent")
            assert "=== Debate Interrupted ===" in last and "Position: the" in last
            # the reader scrolled up: new text did not pull the view down
            assert page.evaluate("document.getElementById('messages').scrollTop") == 0
            assert page.is_visible("#jump")
            assert page.is_disabled("#interrupt") and page.is_enabled("#send")
        finally:
            context.close()
