"""Probe every offline reader with adversarial text at growing sizes, under a CPU limit.

Users drop arbitrary PDFs and texts, and the offline readers are rule engines built from
regular expressions: one pattern with catastrophic backtracking, one quadratic loop over lines
or cells or one recursion on nesting turns a single odd document into a worker pinned at 100%
CPU. For each reader's public entry point this script feeds families of pathological input
(long runs of one character, one 100k-character line, 10k short lines, deep nesting in
JSON/XML/YAML, a table of 500 columns, a PDF page of 20k tiny spans, unusual unicode) at
1k, 10k and 100k characters, each case in a forked child under ``RLIMIT_CPU`` (and a wall
timeout), so the probe itself never hangs.

It prints one line per (reader, family, size) with the CPU seconds (``>N`` when the limit
killed it), flags a finding when a case takes over ``--finding-s`` seconds or grows much
faster than n log n, and ends with one machine-readable line::

    pathological: worst_reader=<reader>/<family>/<size> worst_s=<s> families=<N> findings=<K>

    .venv/bin/python benchmarks/pathological_inputs.py [--sizes 1000,10000,100000]
        [--readers factory,claims_text] [--families ones,parens] [--cpu-limit 20]
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: A family makes an input of about ``n`` characters.
Family = Callable[[int], str]


def _repeat(unit: str) -> Family:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def _nested(opening: str, inner: str, closing: str) -> Family:
    def make(n: int) -> str:
        depth = max(1, (n - len(inner)) // (len(opening) + len(closing)))
        return opening * depth + inner + closing * depth
    return make


def _short_lines(n: int) -> str:
    lines = [f"Step {i % 97}: m{i % 7}" for i in range(n // 10 + 1)]
    return "\n".join(lines)[:n]


def _single_line(n: int) -> str:
    unit = ("the press M1 runs job J2 for 3.5 hours, then the lathe (L1) takes 2 h and "
            "accuracy is 91.2 on the Test set with BLEU 27.3 and ")
    return _repeat(unit)(n)


def _table500(n: int) -> str:
    header = " | ".join(f"C{c}" for c in range(500))
    row = " | ".join(f"{(c * 7) % 100}.{c % 10}" for c in range(500))
    lines = ["Table 1: Results of the methods on the benchmark.", "Method | " + header]
    k = 0
    while sum(len(x) + 1 for x in lines) < n:
        lines.append(f"Model{k} | " + row)
        k += 1
    return "\n".join(lines)[: max(n, len(lines[0]) + len(lines[1]) + 2)]


def _yaml_nested(n: int) -> str:
    depth = max(1, int(math.sqrt(n)) // 2)
    lines = [("  " * d) + f"k{d}:" for d in range(depth)]
    lines.append("  " * depth + "1")
    out = "\n".join(lines)
    return out if len(out) >= n else out + "\n" + _repeat("- - - ")(n - len(out) - 1) + "1"


FAMILIES: dict[str, Family] = {
    "ones": _repeat("1"),
    "dots": _repeat("."),
    "spaces": lambda n: " " * (n - 1) + "x",
    "m1_runs": _repeat("M1 "),
    "j1_commas": _repeat("J1, "),
    "open_parens": _repeat("("),
    "pipes": _repeat("|"),
    "dotted_digits": _repeat("1."),
    "slashed_digits": _repeat("1/"),
    "digits_spaces": _repeat("1 "),
    "dashes": _repeat("-"),
    "letters": _repeat("a"),
    "capitalised": _repeat("Ab "),
    "single_line": _single_line,
    "short_lines": _short_lines,
    "json_nested": _nested("[", "1", "]"),
    "json_objects": _nested('{"a": ', "1", "}"),
    "xml_nested": _nested("<a>", "x", "</a>"),
    "yaml_nested": _yaml_nested,
    "table_500_cols": _table500,
    "combining": lambda n: ("e" + "\u0301" * 49) * (n // 50 + 1),
    "rtl": _repeat("\u05d0\u05d1\u05d2 \u0661\u0662 "),
    "zero_width": _repeat("a\u200b1\u200d"),
    "pdf_spans": _repeat("1.2 "),  # as a PDF: one page of n/5 tiny spans (PDF readers)
}


# ---------------------------------------------------------------- PDFs made from a family


def _pdf_from_text(text: str) -> bytes:
    """``text`` as a PDF: lines wrapped at 120 characters, 80 small lines a page."""
    import pymupdf

    lines: list[str] = []
    for line in text.split("\n"):
        lines.extend(line[i:i + 120] for i in range(0, max(len(line), 1), 120))
    doc = pymupdf.open()
    for start in range(0, len(lines), 80):
        page = doc.new_page()
        writer = pymupdf.TextWriter(page.rect)
        for k, line in enumerate(lines[start:start + 80]):
            if line.strip():
                writer.append((20, 20 + k * 9.5), line, fontsize=6)
        writer.write_text(page)
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def _pdf_spans(n: int) -> bytes:
    """One page of ``n // 5`` tiny spans on a grid (20k spans at 100k characters)."""
    import pymupdf

    spans = max(1, n // 5)
    cols = 100
    rows = spans // cols + 1
    doc = pymupdf.open()
    page = doc.new_page(width=cols * 8 + 40, height=rows * 4 + 40)
    writer = pymupdf.TextWriter(page.rect)
    for k in range(spans):
        writer.append((20 + (k % cols) * 8, 22 + (k // cols) * 4), f"{k % 10}.{k % 7}",
                      fontsize=2)
    writer.write_text(page)
    data = doc.tobytes(garbage=3, deflate=True)
    doc.close()
    return data


def _pdf_of(family: str, n: int) -> bytes:
    return _pdf_spans(n) if family == "pdf_spans" else _pdf_from_text(FAMILIES[family](n))


# ---------------------------------------------------------------- readers


def _factory(text: str) -> Callable[[], object]:
    from repro_assets.factory.reading import read_factory_text

    return lambda: read_factory_text(text)


def _pages(text: str):  # noqa: ANN202
    from repro_assets.papers.models import PageText, PaperPages

    return PaperPages(paper_id="probe", title="A probe",
                      pages=[PageText(page_no=1, text=text, has_text_layer=True)])


def _claims_text(text: str) -> Callable[[], object]:
    from repro_assets.papers.claims.extract import heuristic_candidates

    pages = _pages(text)
    return lambda: heuristic_candidates(pages, [])


def _claims_table(text: str) -> Callable[[], object]:
    from repro_assets.papers.claims.extract import heuristic_candidates
    from repro_assets.papers.tables.model import ParsedTable

    lines = [line for line in text.split("\n") if line] or [text]
    cells = [line.split(" | ") if " | " in line else [line[:40], line] for line in lines[:2000]]
    width = max(len(row) for row in cells)
    grid = [row + [""] * (width - len(row)) for row in cells]
    table = ParsedTable(page_no=1, number="1", caption="Table 1: " + lines[0],
                        header=[grid[0]], rows=grid[1:] or [grid[0]], method="given")
    pages = _pages("Table 1: results.\n" + text[:2000])
    return lambda: heuristic_candidates(pages, [table])


def _claims_pdf(family: str, n: int) -> Callable[[], object]:
    from repro_assets.papers.claims.extract import heuristic_candidates
    from repro_assets.papers.pages import extract_pages_here
    from repro_assets.papers.tables.reader import extract_tables_here

    data = _pdf_of(family, n)

    def run() -> object:
        pages = extract_pages_here(data, "probe")
        return heuristic_candidates(pages, extract_tables_here(data))
    return run


def _doc(text: str):  # noqa: ANN202
    from repro_assets.forms.models import LayoutDoc, LayoutPageText

    return LayoutDoc(doc_id="probe", pages=[LayoutPageText(page=1, full_text=text)])


def _scan_all(doc) -> object:  # noqa: ANN001
    from repro_assets.forms.heuristics import SCANNERS, scan_field

    contexts: dict = {}
    return [scan_field(field, [doc], contexts, include_rejected=True) for field in SCANNERS]


def _forms_fields(text: str) -> Callable[[], object]:
    doc = _doc(text)
    return lambda: _scan_all(doc)


def _forms_labels(text: str) -> Callable[[], object]:
    from repro_assets.forms.heuristics import join_label_lines, line_parties
    from repro_assets.forms.label_rows import row_pairs
    from repro_assets.forms.text_cues import form_labels

    lines = text.split("\n")
    doc = _doc(text)
    return lambda: (row_pairs(lines), form_labels(lines), join_label_lines(lines),
                    line_parties(doc))


def _forms_pdf(family: str, n: int) -> Callable[[], object]:
    from repro_assets.forms.extract import extract_layout

    data = _pdf_of(family, n)
    return lambda: _scan_all(extract_layout("probe", data))


def _research_question(text: str) -> Callable[[], object]:
    import datetime as dt

    from repro_assets.research.asked_task import asked_tasks
    from repro_assets.research.question_terms import head_words, question_terms

    day = dt.date(2024, 1, 1)
    return lambda: (question_terms(text, day), head_words(text, True), asked_tasks(text))


def _research_facts(text: str) -> Callable[[], object]:
    from repro_assets.research.entities import extract_entities
    from repro_assets.research.extraction import heuristic_extract
    from repro_assets.research.models import SourceResult
    from repro_assets.research.stated_numbers import numbers_in

    result = SourceResult(url="https://example.org/p", title="Probe", source_name="probe",
                          full_content=text)
    return lambda: (heuristic_extract([result], "accuracy of the model"),
                    extract_entities(text, "Probe"), numbers_in(text))


def _research_passages(text: str) -> Callable[[], object]:
    from repro_assets.research.passages import caption_style, passages, table_captions

    lines = text.split("\n")
    return lambda: (passages(text, caption_style(lines)), table_captions(text))


#: reader -> (takes a PDF?, maker). A text maker gets the family's text, a PDF maker the
#: family's name and size; both return the call to time.
READERS: dict[str, tuple[bool, Callable[..., Callable[[], object]]]] = {
    "factory": (False, _factory),
    "claims_text": (False, _claims_text),
    "claims_table": (False, _claims_table),
    "claims_pdf": (True, _claims_pdf),
    "forms_fields": (False, _forms_fields),
    "forms_labels": (False, _forms_labels),
    "forms_pdf": (True, _forms_pdf),
    "research_question": (False, _research_question),
    "research_facts": (False, _research_facts),
    "research_passages": (False, _research_passages),
}


# ---------------------------------------------------------------- running one case


def _child(reader: str, family: str, size: int, cpu_limit: int, out) -> None:  # noqa: ANN001
    import faulthandler

    used = resource.getrusage(resource.RUSAGE_SELF)
    start = int(used.ru_utime + used.ru_stime) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (start + cpu_limit, start + cpu_limit + 5))
    if os.environ.get("PATHOLOGICAL_TRACE"):
        faulthandler.dump_traceback_later(float(os.environ["PATHOLOGICAL_TRACE"]), exit=True)
    pdf, maker = READERS[reader]
    try:
        call = maker(family, size) if pdf else maker(FAMILIES[family](size))
    except Exception as exc:  # the probe's own input could not be made
        out.send((0.0, f"setup {type(exc).__name__}: {str(exc)[:60]}"))
        return
    before = time.process_time()
    try:
        call()
        error = ""
    except Exception as exc:  # a coded refusal is an answer, not a hang
        error = f"{type(exc).__name__}: {str(exc)[:60]}"
    out.send((time.process_time() - before, error))
    out.close()


def warm_up(reader: str) -> None:
    """Run ``reader`` once on a short ordinary text in this process, so that the forked cases
    time the reading, not the first imports and pattern compilations."""
    pdf, maker = READERS[reader]
    text = "Table 1: Accuracy of M1 on the Test set is 91.2.\nName: Ann Lee\nPhone: 555 0100"
    try:
        (maker("short_lines", 200) if pdf else maker(text))()
    except Exception as exc:  # noqa: BLE001 - a warm-up failure shows in the cases
        print(f"warm-up of {reader} failed: {exc}", file=sys.stderr)


def run_case(reader: str, family: str, size: int, cpu_limit: int) -> tuple[float | None, str]:
    """CPU seconds of one case (None when the limit killed it) and any error it raised."""
    context = mp.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(reader, family, size, cpu_limit, send))
    process.start()
    send.close()
    deadline = time.monotonic() + cpu_limit * 3 + 60
    result: tuple[float | None, str] = (None, "killed by the CPU limit")
    while time.monotonic() < deadline:
        if receive.poll(0.2):
            try:
                result = receive.recv()
            except EOFError:
                pass
            break
        if not process.is_alive():
            if receive.poll(0):
                result = receive.recv()
            break
    else:
        process.kill()
        result = (None, "killed by the wall timeout")
    process.join(5)
    if process.is_alive():
        process.kill()
        process.join()
    return result


def _grows_too_fast(times: dict[int, float]) -> bool:
    """True when the largest size costs much more than n log n extrapolated from a smaller."""
    sizes = sorted(times)
    for small, large in zip(sizes, sizes[1:], strict=False):
        base = max(times[small], 0.02)
        expected = base * (large * math.log(large)) / (small * math.log(small))
        if times[large] > 0.5 and times[large] > 4 * expected:
            return True
    return False


def main(argv: list[str] | None = None) -> int:
    """Run the probe and print its table and summary line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--readers", default=",".join(READERS))
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--cpu-limit", type=int, default=20, help="CPU seconds per case")
    parser.add_argument("--finding-s", type=float, default=5.0,
                        help="a case over this many CPU seconds is a finding")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    readers = [r for r in args.readers.split(",") if r]
    families = [f for f in args.families.split(",") if f]
    for name in readers + families:
        if name not in READERS and name not in FAMILIES:
            parser.error(f"unknown reader or family: {name}")
    worst = ("none", 0.0)
    findings: list[str] = []
    print(f"{'reader':<18} {'family':<15} {'size':>7} {'cpu_s':>8}  note", flush=True)
    for reader in readers:
        warm_up(reader)
        for family in families:
            if family == "pdf_spans" and not READERS[reader][0]:
                continue
            times: dict[int, float] = {}
            for size in sizes:
                seconds, error = run_case(reader, family, size, args.cpu_limit)
                shown = f">{args.cpu_limit}" if seconds is None else f"{seconds:.2f}"
                print(f"{reader:<18} {family:<15} {size:>7} {shown:>8}  {error}", flush=True)
                cost = float(args.cpu_limit) if seconds is None else seconds
                if cost > worst[1]:
                    worst = (f"{reader}/{family}/{size}", cost)
                if seconds is None or seconds > args.finding_s:
                    findings.append(f"{reader}/{family}/{size}")
                    break  # the larger sizes only take longer
                times[size] = seconds
            if _grows_too_fast(times) and f"{reader}/{family}" not in " ".join(findings):
                findings.append(f"{reader}/{family} (growth)")
    for finding in findings:
        print(f"finding: {finding}")
    print(f"pathological: worst_reader={worst[0]} worst_s={worst[1]:.2f} "
          f"families={len(families)} findings={len(findings)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
