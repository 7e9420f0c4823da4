"""Does a text name the question's terms? Keyword coverage, where anchors stand, the asked
attribute and metric, the numbers and split the question fixes, and the anchors that stand
for the source itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from repro_assets.research.answer_models import SourceText
from repro_assets.research.question_terms import (
    METRIC_WORDS,
    VALIDATION_RE,
    Anchor,
    QuestionTerms,
    asked_split,
    fold,
    squeeze,
    states_number,
    stemmed_words,
    symbol_name,
)
from repro_assets.research.row_names import own_method_keys


def keyword_coverage(keywords: Sequence[str], text: str) -> float:
    """The share of ``keywords`` that ``text`` names (as words, stems or squeezed)."""
    if not keywords:
        return 0.0
    words = set(stemmed_words(text))
    # a hyphenated word names its parts too ("two-pass" for the question's "two passes")
    words |= {_part(p) for w in words if "-" in w for p in w.split("-") if p}
    # a Greek letter is the name a user types for it ("beta" for the symbol)
    words |= {n for t in text.split() if (n := symbol_name(t))}
    folded = fold(text)

    def found(k: str) -> bool:
        if k in words or (len(k) > 5 and squeeze(k) in folded):
            return True
        return len(k) >= 4 and any(len(w) >= 4 and (w.startswith(k) or k.startswith(w))
                                   for w in words)

    return sum(1 for k in keywords if found(k)) / len(keywords)


def _part(word: str) -> str:
    """One part of a hyphenated word, stemmed as a word of its own."""
    return stemmed_words(word)[0] if stemmed_words(word) else word


def anchor_positions(anchor: Anchor, words: list[str]) -> list[int]:
    """Indexes of ``words`` where ``anchor`` (or a variant, or its plural) starts."""
    size = max(1, len(anchor.text.split()))
    found = []
    for i in range(len(words)):
        raw = " ".join(words[i: i + size])
        piece = squeeze(raw)
        # a plural "s" is written lower case right after the name ("Nets"), never "Net-S"
        plural = piece == anchor.key + "s" and re.search(r"[A-Za-z0-9]s\W*$", raw) is not None
        if piece and (piece == anchor.key or plural
                      or any(v == piece for v in anchor.variants)):
            found.append(i)
    return found


#: Characters of a document's text that hold its introduction ("We develop X, ...").
OPENING_CHARS = 12000


def variant_only(anchor: Anchor, text: str) -> bool:
    """The text names ``anchor`` only inside longer names: "Orca-11" or "Orca16" for "Orca",
    never "Orca" itself (a one-word anchor; a plural or possessive is the name itself)."""
    if len(anchor.text.split()) != 1:
        return False
    exact = variant = False
    for token in text.split():
        piece = squeeze(re.sub(r"['\u2019]s$", "", token.strip(".,;:()[]\"'")))
        if not piece.startswith(anchor.key):
            continue
        rest = piece[len(anchor.key):]
        if not rest or rest == "s" or any(piece == v for v in anchor.variants):
            exact = True
        elif re.fullmatch(r"\d+[a-z]?|[a-z]\d+", rest) and "-" in token or rest[:1].isdigit():
            variant = True
    return variant and not exact


def paper_anchors(terms: QuestionTerms, source: SourceText) -> frozenset[str]:
    """Keys of the question's anchors that stand for ``source`` itself.

    An author the question cites ("X et al.") whose name is in the paper's opening text, and
    the paper's own method (the name its title or abstract gives it): every sentence and row
    of the paper speaks for them.
    """
    identity = fold(source.identity or source.title)
    # the name the paper gives its method may first stand in its introduction ("We develop X")
    own = own_method_keys(source.title, (source.identity or source.title) + "\n"
                          + source.full_text[:OPENING_CHARS])
    raw = source.identity or source.title
    # a short surname ("He") is the author only as the capitalised word, never a pronoun
    out = {a.key for a in terms.anchors if a.key in terms.authors and a.found_in(identity)
           and (len(a.key) > 2 or re.search(rf"\b{re.escape(a.text)}\b", raw))}
    out |= {a.key for a in terms.anchors if a.key in own or any(v in own for v in a.variants)}
    return frozenset(out)


#: Settings a sentence names by their first word alone ("Dropout with p = 0.3" is the
#: dropout probability, "masking with 15%" the masking ratio).
_SETTING_NOUNS = frozenset({"dropout", "mask", "masking", "momentum", "sampling", "smoothing",
                            "warmup"})
#: Quantity nouns such a setting's name may end with.
_QUANTITY_NOUNS = frozenset({"probability", "rate", "ratio", "proportion", "fraction",
                             "coefficient", "value"})

#: Head words that name no attribute of their own ("what clipping value").
GENERIC_HEAD = frozenset({"value", "result", "performance", "number", "setting"})


def asks_head(terms: QuestionTerms, sentence: str) -> bool:
    """The sentence names the asked attribute ("batch size", "accuracy") of the question."""
    # a split word ("test-set error") is checked as the split (see :func:`qualified`)
    head = [w for w in terms.head if not any(w in stemmed_words(a.text) for a in terms.anchors)
            and w not in GENERIC_HEAD and asked_split(w) is None]
    words = set(stemmed_words(sentence))
    if len(head) > 1 and f" {''.join(w[0] for w in head)} " in fold(sentence):
        return True  # "phone error rate" written "PER"
    if len(head) == 2 and head[0] in _SETTING_NOUNS and head[1] in _QUANTITY_NOUNS:
        head = head[:1]  # "dropout probability": "Dropout with p = 0.3" names the setting
    return all(w in words or any(len(v) >= 4 and (v.startswith(w) or w.startswith(v))
                                 for v in words) for w in head)


#: A passage must cover this share of the question's keywords (beside its anchors).
MIN_COVERAGE = 0.34


def qualified(terms: QuestionTerms, evidence: str) -> bool:
    """The evidence (a sentence, or a row with its headers and caption) states every number
    the question fixes its fact with, and the asked split.

    A question for the validation split is not answered by a number that is not said to be
    one; a question for the test split is not answered by a number said to be a validation one.
    """
    if any(not states_number(q, evidence) for q in terms.qualifiers):
        return False
    # a split the question rules out ("test set (not validation)"): evidence naming it at
    # all may be reporting that split, however it also says "test"
    excluded = {asked_split(w) for w in terms.negated} - {None}
    if any(_names_split(split, evidence) for split in excluded):
        return False
    if terms.split == "validation":
        return bool(VALIDATION_RE.search(evidence))
    if terms.split == "test":
        return asked_split(evidence) != "validation"
    return True


def _names_split(split: str | None, text: str) -> bool:
    """``text`` names the split (``validation`` or ``test``), alone or beside the other."""
    if split == "validation":
        return bool(VALIDATION_RE.search(text))
    return split == "test" and asked_split(VALIDATION_RE.sub(" ", text)) == "test"


#: Metric words a sentence must name (or abbreviate) when the question asks for that metric.
METRIC_KEYWORDS = frozenset({"accuracy", "error", "exact-match", "precision", "recall",
                             "perplexity", "bleu", "rouge", "auc", "f1"})


def metric_named(terms: QuestionTerms, text: str) -> bool:
    """The question's metric words are in ``text``, or the initials of its metric phrase.

    "phone error rate" is also written "PER"; "exact-match" also "exact match" or "EM".
    """
    asked = [k for k in terms.keywords if k in METRIC_KEYWORDS]
    if not asked:
        return True
    words = set(stemmed_words(text))
    spaced = fold(text)
    for metric in asked:
        parts = metric.split("-")
        if metric in words or all(p in words for p in parts):
            continue
        initials = "".join(p[0] for p in parts)
        if len(parts) > 1 and f" {initials} " in spaced:
            continue
        phrase = [k for k in terms.keywords]
        at = phrase.index(metric)
        window = phrase[max(0, at - 1): at + 2]
        if len(window) >= 2 and f" {''.join(w[0] for w in window)} " in spaced:
            continue
        return False
    for metric in asked:
        modifier = _metric_modifier(terms, metric)
        if modifier and modifier not in words and not _initials_named(terms, metric, spaced):
            return False  # "character error rate" is not stated by "word error rate"
    return True


#: Words before a metric word that name a split or a cut, not a kind of metric.
_NOT_MODIFIERS = frozenset({"test", "testing", "validation", "val", "dev", "held-out", "top",
                            "overall", "average", "final", "best", "lowest", "highest", "the",
                            "its", "their", "what", "which", "same", "reported"})


def _metric_modifier(terms: QuestionTerms, metric: str) -> str | None:
    """The keyword written just before ``metric`` in the question ("character" of
    "character error rate"), when it names a kind of that metric."""
    words = stemmed_words(terms.question)
    if metric not in words:
        return None
    at = words.index(metric)
    before = words[at - 1] if at else ""
    if before in terms.keywords and before not in _NOT_MODIFIERS and before.isalpha():
        return before
    return None


def _initials_named(terms: QuestionTerms, metric: str, spaced: str) -> bool:
    """The question's metric phrase (modifier, metric, following keyword) is in ``spaced`` by
    its initials ("cer")."""
    words = stemmed_words(terms.question)
    at = words.index(metric)
    phrase = words[max(0, at - 1): at + 2]
    return f" {''.join(w[0] for w in phrase)} " in spaced


def names_a_metric(text: str) -> bool:
    """``text`` names a metric (accuracy, F1, BLEU ...)."""
    words = set(stemmed_words(text))
    spaced = fold(text)
    return bool(words & METRIC_KEYWORDS) or any(f" {m} " in spaced for m in METRIC_WORDS)


def initialisms(text: str) -> set[str]:
    """Initials of each run of 2 to 4 words of ``text`` ("mean opinion scores" -> ``mos``)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+", text)]
    return {"".join(w[0] for w in words[i: i + n])
            for n in range(2, 5) for i in range(len(words) - n + 1)}


def metric_anchor_in(anchor: Anchor, text: str) -> bool:
    """A metric anchor (``MOS``, ``WER``) is in ``text``: as written, or spelled out in words
    whose initials it is ("mean opinion score", "word error rate"). Any other all-capitals
    name (``NMT``) is spelled out only by capitalised words ("Neural Machine Translation")."""
    if anchor.found_in(fold(text)):
        return True
    if anchor.key in METRIC_WORDS and anchor.key.isalpha():
        return anchor.key in initialisms(text)
    return anchor.text.isalpha() and anchor.text.isupper() and 2 <= len(anchor.text) <= 4 \
        and anchor.key in _capitalised_initials(text)


def _capitalised_initials(text: str) -> set[str]:
    """Initials of each run of 2 to 4 capitalised words ("Neural Machine Translation")."""
    out: set[str] = set()
    for run in re.findall(r"(?:\b[A-Z][a-z]+(?:[ \-]+|$)){2,4}", text):
        words = re.findall(r"[A-Z][a-z]+", run)
        out |= {"".join(w[0] for w in words[i: i + n]).lower()
                for n in range(2, len(words) + 1) for i in range(len(words) - n + 1)}
    return out


#: Characters on each side of a table row read for the metric of a table whose own caption
#: and header name none (the sentence or caption just before or after the table).
ROW_SURROUNDINGS = 500


def row_surroundings(context: str, row_text: str, values: Sequence[str]) -> str:
    """The text just around a table row in its context (empty when the row is not found)."""
    first = next((v for v in values if re.search(r"\d", v)), "")
    at = context.find(first) if first else -1
    if at < 0:
        at = context.find(row_text.split(" ")[0])
    if at < 0:
        return ""
    return context[max(0, at - ROW_SURROUNDINGS): at + ROW_SURROUNDINGS]
