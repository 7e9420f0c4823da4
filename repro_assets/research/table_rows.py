"""A table row's answer: the asked column's cell, and whether the row's label names the asked
entity (never a guess between columns or between a row and its variants).
"""

from __future__ import annotations

import re

from repro_assets.research.passages import Passage, cell_values, split_header_line
from repro_assets.research.question_terms import (
    METRIC_WORDS,
    STOPWORDS,
    Anchor,
    QuestionTerms,
    asked_split,
    fold,
    long_metric,
    looks_like_model,
    squeeze,
    stemmed_words,
)
from repro_assets.research.row_names import asks_combination, combined_parts, is_own_row
from repro_assets.research.term_match import anchor_positions


def _side_words(side: str) -> set[str]:
    """Words of one side of an ``a / b`` pair: stems, squeezed, and hyphen parts."""
    words = set(stemmed_words(side)) | {squeeze(side)}
    return words | {p for w in list(words) for p in w.split("-") if len(p) > 2}


def _subvalue(cell: str, terms: QuestionTerms, context: str) -> str | None:
    """The asked number of a cell; ``a / b`` cells pick the side the question names."""
    values = cell_values(cell)
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    asked = set(terms.keywords) | {a.key for a in terms.anchors} | {
        part for k in terms.keywords for part in k.split("-") if len(part) > 2} | {
        squeeze(k) for k in terms.keywords}  # "10-crop" is the side "10-crop" ("10crop")
    context = re.sub(r"-[ \t]*\n\s*", "-", context)  # "10-" at a line end, "crop" on the next
    for m in re.finditer(r"([A-Za-z][\w\-]*)\s*/\s*([A-Za-z0-9][\w\-]*)", context):
        left, right = (_side_words(m.group(1)), _side_words(m.group(2)))
        left, right = left - right, right - left  # "single-view / 5-view": "view" is both
        if asked & left and not asked & right:
            return values[0]
        if asked & right and not asked & left:
            return values[1]
    return None


#: Headers of a table's label column (the row names), never of a value column.
_LABEL_HEADER = re.compile(r"^(models?|methods?|systems?|approach(es)?|architectures?|"
                           r"networks?|settings?|configurations?|datasets?|tasks?)$",
                           re.IGNORECASE)


_RANK_MARK = re.compile(r"^\d{1,3}[.)]$")


_GROUP_LABEL = re.compile(r"\bet al\b|\b(19|20)\d\d\b|^\s*(?:A|An)\s+[a-z]")  # "A single model"


def _column_headers(run: list[str], n: int) -> list[str]:
    """The header lines that name a row's ``n`` value columns (empty: cannot tell).

    The run above the first row may end with group labels (a cited work: "Smith et al.,
    2015", a phrase opened by an article: "A single model"), which are dropped; the last
    ``n`` lines of what remains name the columns (lines before them are the label column's
    header, a section heading or a table beside it).
    A line naming several columns on its own (each with its unit, "top-1 err. (%) top-5
    err. (%)") is read as those names.
    """
    run = list(run)
    while run and (_GROUP_LABEL.search(run[-1]) or _RANK_MARK.match(run[-1].strip())):
        run.pop()  # a group label, or the rank cell ("1.") before the row's label
    run = [name for line in run for name in split_header_line(line)]
    if len(run) == n and _LABEL_HEADER.match(run[0].strip()):
        return []  # the first name heads the label column: more cells than value columns
    return _spanned(run, n) if len(run) >= n else []


def _spanned(run: list[str], n: int) -> list[str]:
    """Two header levels: ``k`` group names over ``n`` sub-names that repeat once per group
    ("Dev", "Test" over "EM", "F1", "EM", "F1") are the ``n`` columns "Dev EM", "Dev F1",
    "Test EM", "Test F1". Any other run is returned as it is."""
    for k in range(2, 5):
        m = n // k
        if m < 2 or k * m != n or len(run) < k + n:
            continue
        groups, subs = run[-(k + n):-n], run[-n:]
        folded = [s.strip().lower() for s in subs]
        if any(folded[i] != folded[i % m] for i in range(n)) or len(set(folded[:m])) < m:
            continue
        if len({g.strip().lower() for g in groups}) < k or set(
                g.strip().lower() for g in groups) & set(folded):
            continue
        return [*run[:-(k + n)], *(f"{groups[i // m]} {subs[i]}" for i in range(n))]
    return run


def _asked_column(names: list[str], terms: QuestionTerms, column_anchors: list[Anchor],
                  paper: frozenset[str] = frozenset()) -> tuple[list[int], bool]:
    """Indexes of the columns the question asks for, and whether its own terms picked them.

    The columns a question's names (not found in the row label) name; among them, those of
    the asked split (a "Dev" / "Test" header is the split); among several left, the one
    header that is a word of the question ("Average"). A question naming no split where
    the columns differ by split is not narrowed (no guess).
    """
    columns = list(range(len(names)))
    picked = False
    hits = [sum(a.found_in(fold(name)) or (a.key in paper and is_own_row(name))
                for a in column_anchors) for name in names]
    if max(hits, default=0) > 0:
        columns = [i for i in columns if hits[i] == max(hits)]
        picked = True
    if picked and _named_elsewhere(names, columns, terms):
        return [], True  # the question's own words name another column ("Human"): no guess
    splits = [asked_split(names[i]) for i in columns]
    if terms.split and any(splits):
        columns = [i for i, split in zip(columns, splits, strict=True) if split == terms.split]
        picked = bool(columns)
    if len(columns) > 1:
        asked = set(terms.keywords) | {a.key for a in terms.anchors}
        spelled = frozenset(spelled_initials(terms.question))
        shared = {i: len(_header_words(names[i], asked, spelled)) for i in columns}
        worded = [i for i in columns if shared[i]]
        if len(worded) == 1:
            columns, picked = worded, True
        elif worded:
            # "Rand Error" against "Warping Error" for "what rand error": the one header
            # sharing the most of the question's words
            most = max(shared.values())
            best = [i for i in worded if shared[i] == most]
            if len(best) == 1 and most >= 2:
                columns, picked = best, True
    return columns, picked


def _header_words(name: str, asked: set[str], spelled: frozenset[str] = frozenset()
                  ) -> set[str]:
    """The asked words a column header names: as written, abbreviated ("#Params" for
    "parameters": a header word of 4 letters or more that begins an asked word), or the
    initials of a phrase of the question (``spelled``, "EM" for "exact match")."""
    words = set(stemmed_words(name)) | {squeeze(name)}
    out = words & asked
    out |= {k for k in asked for w in words if len(w) >= 4 and w.isalpha()
            and k.startswith(w) and len(k) > len(w)}
    # a long metric's short form ("acc" for "accuracy", also when typed "acuracy")
    out |= {k for k in asked for w in words if len(w) == 3 and w.isalpha()
            and (long_metric(k) or "").startswith(w)}
    return out | (words & spelled)


def spelled_initials(question: str) -> set[str]:
    """Initials of runs of two or three words of the question ("exact match" -> ``em``,
    "word error rate" -> ``wer``): a header may print the phrase so abbreviated."""
    words = [w for w in re.findall(r"[a-z]+", question.lower()) if w not in STOPWORDS]
    return {"".join(w[0] for w in words[i:i + k]) for k in (2, 3)
            for i in range(len(words) - k + 1)}


def _named_elsewhere(names: list[str], columns: list[int], terms: QuestionTerms) -> bool:
    """A header made only of the question's keywords ("Human" for "human transcribers")
    names a column the question's anchors did not pick: the anchors name the source
    ("in the X paper"), the keyword names the column. The two disagree."""
    keywords = set(terms.keywords)
    for i, name in enumerate(names):
        words = stemmed_words(name)
        if i not in columns and words and all(w in keywords for w in words) \
                and asked_split(name) is None:
            return True
    return False


def row_value(passage: Passage, terms: QuestionTerms, paper: frozenset[str] = frozenset()
               ) -> tuple[str, str | None] | None:
    """The asked cell of a table row: the one column the question's terms name, else the
    only value (never a guess between columns)."""
    cells = passage.values
    if not any(cell_values(c) for c in cells):
        return None
    label_fold = fold(passage.label)
    headers = _column_headers(passage.headers, len(cells))
    column_anchors = [a for a in terms.anchors if not a.found_in(label_fold)]
    if headers:
        names = headers[-len(cells):]
        columns, picked = _asked_column(names, terms, column_anchors, paper)
        if picked and len(columns) == 1:
            value = _subvalue(cells[columns[0]], terms, passage.context)
            return (value, names[columns[0]]) if value is not None else None
        if picked:
            return None  # the asked terms name several columns (or none left): no guess
    if column_anchors and any(a.found_in(fold(" ".join(passage.headers)))
                              for a in column_anchors):
        return None  # the asked column is named but cannot be aligned: no guess
    if terms.kind != "value":
        return None
    numeric = [c for c in cells if cell_values(c)]
    if len(numeric) > 1:
        return None  # several columns, none named by the question
    first = _subvalue(numeric[0], terms, passage.context)
    if first is not None and _YEAR_CELL.fullmatch(first):
        return None  # a lone year ("X 2011 2nd ..." cut short) is when, not how well
    return (first, None) if first is not None else None


#: A cell that reads as a year: a row's only number then dates it, it measures nothing.
_YEAR_CELL = re.compile(r"(?:19|20)\d\d")


def label_names(label: str, terms: QuestionTerms, paper: frozenset[str]) -> bool:
    """The row label names one of the question's anchors.

    As written ("Quillnet-24"), as the paper's own method in words ("Ours", "Proposed
    method") when the question names that method or the paper's authors, or as a combined
    label ("Quillnet-A+B") when the question asks for those parts together.
    """
    label_words = label.replace("(", " ").replace(")", " ").split()
    if _names_another_model(label_words, terms):
        return False  # "ShellMix GRU" for the asked "regularized GRU": another model's row
    if any(anchor_positions(a, label_words) for a in _most_specific(terms.anchors)):
        return True
    if paper and is_own_row(label):
        return True
    for word in label_words:
        parts = combined_parts(word)
        if parts and any(a.key == squeeze(parts[0]) for a in terms.anchors) and \
                asks_combination(terms.question, parts[1]):
            return True
    return False


def _names_another_model(label_words: list[str], terms: QuestionTerms) -> bool:
    """A label word spelled as a model's name ("ShellMix", "Orca-11"; not a word in capitals
    such as "GRU", nor a metric) that no anchor of the question holds: the row is that
    model's."""
    keys = [k for a in terms.anchors for k in (a.key, *a.variants)]
    for word in label_words:
        core = word.strip(".,;:[]*\u2020\u2021")
        key = squeeze(core)
        if not key or not looks_like_model(core) or any(key.startswith(m) for m in METRIC_WORDS
                                                        if len(m) > 2):
            continue  # a metric ("BLEU-4", "top-5") is no model
        if not any(key in k or k in key for k in keys):
            return True
    return False


def _most_specific(anchors: tuple[Anchor, ...]) -> list[Anchor]:
    """The anchors less the names another anchor extends with a variant mark ("Orca" beside
    "Orca-1" or "Orca2"): a row labelled "Orca" is the sibling of the asked "Orca-1"."""
    return [a for a in anchors if not any(
        b.key != a.key and b.key.startswith(a.key)
        and re.fullmatch(r"\d+[a-z]?|[a-z]\d*", b.key[len(a.key):]) for b in anchors)]


#: Score taken off a row per label word the question does not ask for ("X (random splits)"
#: is a variant of the row "X"): the plainest row naming the asked entity wins.
ROW_VARIANT_PENALTY = 0.05


def unasked_label_words(label: str, terms: QuestionTerms) -> list[str]:
    """Words of a row label that are neither the question's names nor its keywords."""
    asked = _asked_words(terms)
    keys = {a.key for a in terms.anchors}
    # a short plural counts as its singular here ("2 nets" and "1 net" differ by no word)
    words = [w[:-1] if len(w) == 4 and w.endswith("s") and not w.endswith("ss") else w
             for w in stemmed_words(label)]
    return [w for w in words if w not in asked and squeeze(w) not in keys
            and w not in STOPWORDS and not any(squeeze(w) in k for k in keys)
            and not _abbreviates(w, terms.keywords) and not _parts_asked(w, asked)]


def _parts_asked(word: str, asked: set[str]) -> bool:
    """A hyphenated label word whose every part the question writes as a word of its own
    ("two-pass" for "with two passes")."""
    parts = [stemmed_words(p)[0] for p in word.split("-") if stemmed_words(p)]
    return "-" in word and len(parts) >= 2 and all(p in asked for p in parts)


def _abbreviates(word: str, keywords: tuple[str, ...]) -> bool:
    """A label word of 3 letters or more that begins a question keyword ("syn" of
    "synthetic", "eval" of "evaluation")."""
    return len(word) >= 3 and word.isalpha() and any(
        k.startswith(word) and len(k) > len(word) for k in keywords)


def _asked_words(terms: QuestionTerms) -> set[str]:
    """The question's keywords, the parts of its hyphenated ones ("dropout-regularized") and
    its names' words."""
    return set(terms.keywords) | {p for k in terms.keywords for p in k.split("-")
                                  if len(p) > 2} | {w for a in terms.anchors
                                                    for w in stemmed_words(a.text)}


#: A label word stating the opposite of the word it prefixes ("Non-regularized", "w/o dropout").
_NEGATING_RE = re.compile(r"\b(?:non|un|no|without|w/o)[\s\-]+([a-z][a-z\-]*)", re.IGNORECASE)


def label_negated(label: str, terms: QuestionTerms) -> bool:
    """The row label names a word the question rules out ("not quiet": "eval quiet"), or
    negates a word the question asks for ("Non-regularized X" for "the regularized X") while
    the question does not."""
    if any(w == n or (len(w) >= 3 and w.isalpha() and n.startswith(w))
           for w in stemmed_words(label) for n in terms.negated):
        return True
    asked = _asked_words(terms)
    for m in _NEGATING_RE.finditer(label):
        word = stemmed_words(m.group(1))[:1]
        if word and word[0] in asked and not re.search(
                rf"\b(?:non|un|no|not|without|w/o)[\s\-]+{re.escape(m.group(1))}",
                terms.question, re.IGNORECASE):
            return True
    # the question asks for the negated form ("the non-regularized X"): a row stating the
    # plain word ("Regularized X") is the other one
    for m in _NEGATING_RE.finditer(terms.question):
        plain = re.escape(m.group(1))
        if re.search(rf"\b{plain}\b", label, re.IGNORECASE) and not re.search(
                rf"\b(?:non|un|no|not|without|w/o)[\s\-]+{plain}", label, re.IGNORECASE):
            return True
    return False
