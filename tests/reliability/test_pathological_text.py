"""Pathological text never pins a reader (``benchmarks/pathological_inputs.py``'s findings).

Each case feeds one reader the input that made it quadratic (a regular expression whose every
start scanned a long run to its end, a loop reading the whole sentence or table per number or
cell). At the size used here the old code took minutes, the fixed code well under a second:
the reader runs in a subprocess killed after a generous guard, and the test asserts only that
it finished (it fails on a hang, never on a slow machine's normal speed).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
#: Seconds the reader may take before it counts as hung (the fixed code needs about one).
GUARD_S = 60

_PAGES = """
from repro_assets.papers.models import PageText, PaperPages

def pages(text):
    return PaperPages(paper_id="p", title="A study",
                      pages=[PageText(page_no=1, text=text, has_text_layer=True)])
"""


def _finishes(code: str) -> None:
    """Run ``code`` in a fresh interpreter; fail when it is still running after the guard."""
    try:
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                              capture_output=True, text=True, timeout=GUARD_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the reader was still running after {GUARD_S} s")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "done" in done.stdout


def test_a_long_run_of_dotted_digits_in_dataset_names() -> None:
    _finishes("""
        from repro_assets.papers.claims.datasets import name_phrases
        for unit in ("1.", "1+", "1'"):
            name_phrases(unit * 50000)
        print("done")
    """)


def test_a_long_run_of_one_digit_in_a_metric_sentence() -> None:
    _finishes(_PAGES + """
from repro_assets.papers.claims.extract import heuristic_candidates
heuristic_candidates(pages("1" * 100000), [])
print("done")
""")


def test_a_page_long_line_without_a_sentence_end() -> None:
    _finishes(_PAGES + """
from repro_assets.papers.claims.extract import heuristic_candidates
unit = "the model reaches 91.2 accuracy and BLEU 27.3 on the Test set with 3.5 points and "
heuristic_candidates(pages(unit * 1200), [])
print("done")
""")


def test_every_number_of_a_long_sentence_is_read_once() -> None:
    _finishes("""
        from repro_assets.papers.claims.sentences import _numbers
        for unit in ("a\\u200b1\\u200d", "1/", "by 1 "):
            list(_numbers(unit * 25000))
        print("done")
    """)


def test_a_caption_of_one_long_word() -> None:
    _finishes("""
        from repro_assets.papers.claims.context import caption_aliases
        for unit in ("a", "A", "a1"):
            caption_aliases(unit * 100000)
        print("done")
    """)


def test_a_long_and_a_wide_table() -> None:
    _finishes(_PAGES + """
from repro_assets.papers.claims.extract import heuristic_candidates
from repro_assets.papers.tables.model import ParsedTable

def table(header, rows):
    return ParsedTable(page_no=1, number="1", caption="Table 1: Accuracy of the methods.",
                       header=[header], rows=rows, method="given")

long = table(["Method", "Accuracy"], [[f"Model{r}", f"{r % 90}.{r % 10}"] for r in range(6000)])
wide = table(["Method", *[f"C{c}" for c in range(500)]],
             [[f"Model{r}", *[f"{(c * 7) % 100}.{c % 10}" for c in range(500)]]
              for r in range(20)])
text = "Abstract. We evaluate on the Alpha dataset.\\nTable 1: Accuracy of the methods."
heuristic_candidates(pages(text), [long])
heuristic_candidates(pages(text), [wide])
print("done")
""")


def test_a_form_line_of_spaces() -> None:
    _finishes("""
        from repro_assets.forms.heuristics import ADDRESS_LABEL, NAME_LABEL, line_parties
        from repro_assets.forms.models import LayoutDoc, LayoutPageText
        line = "Patient" + " " * 100000 + "x"
        NAME_LABEL.search(line)
        ADDRESS_LABEL.search(line)
        line_parties(LayoutDoc(doc_id="d", pages=[LayoutPageText(page=1, full_text=line)]))
        print("done")
    """)


def test_a_research_text_of_numbers_without_a_sentence_end() -> None:
    _finishes("""
        from repro_assets.research.entities import extract_entities
        extract_entities("1 " * 50000, "A probe")
        print("done")
    """)


def test_a_factory_text_of_one_long_clause() -> None:
    _finishes("""
        from repro_assets.factory.reading import read_factory_text
        read_factory_text("1" * 100000)
        read_factory_text(("e" + "\\u0301" * 49) * 2000)  # one clause of 100k characters
        print("done")
    """)


def test_a_long_word_in_a_factory_text_and_spaces_in_a_question() -> None:
    _finishes("""
        from repro_assets.factory.reading import read_factory_text
        from repro_assets.research.question_terms import question_terms
        read_factory_text("a" * 100000)
        question_terms("Which" + " " * 100000 + "paper?")
        print("done")
    """)
