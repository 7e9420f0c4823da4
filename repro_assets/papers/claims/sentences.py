"""Candidate claims from sentences: "achieves 88.1 on SST-2", "a BLEU score of 41.8",
"error rate of 3.57%", "F1 of 93.2", "67 test errors", with or without a percent sign.

A number is a claim only when a metric is printed right next to it ("<metric> of|is|to N",
"N <metric>"); differences ("improves by 2.1", "a gain of 3 points"), shares of data and
hyper-parameters are not claims. The dataset is the one the sentence names (nearest after the
number, else before it), else the one of the results table the sentence points to ("see
Table 1") when that table gives the same metric on one dataset only, else the one the
preceding sentences of the same section name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from repro_assets.papers.claims.context import PaperContext
from repro_assets.papers.claims.datasets import (
    is_generic,
    name_phrases,
    normalize_key,
    split_from,
    without_split,
)
from repro_assets.papers.claims.metrics import (
    find_metric_mentions,
    implausible,
    is_percent_metric,
    lower_is_better,
    to_decimal,
)
from repro_assets.papers.claims.models import Candidate
from repro_assets.papers.claims.roles import role_of
from repro_assets.papers.claims.text import cite, section_at, section_index
from repro_assets.papers.models import PaperPages

_PLACE_ACRONYM = re.compile(r"\b(?:[Ii]n|[Oo]n|onto)\s+(?:the\s+)?([A-Z]{2,})(?![\w-])")
_NUM = r"(?<![\w.±+\-−])(\d+(?:\.\d+)?|\.\d+)(?:\s?(%))?(?![\w.]?\d)"
_LINK = (r"(?:\s+(?:score|rate|value)s?)?\s*(?:of|is|was|=|:|to|at|reaches|reached|of about|"
         r"of around)\s+")
_AFTER_DIFF = re.compile(
    r"^\s*%?\s*(?:(?:percent(?:age)?\s+)?points?|pp|absolute|relative|improvement|gain|"
    r"better|worse|lower|higher|reduction|increase|decrease|drop|margin|more|less|fewer|times|"
    r"x\b|×|of (?:the )?"
    r"(?:data|samples|training|examples|images|words|tokens|parameters))", re.IGNORECASE)
_BEFORE_DIFF = re.compile(
    r"(?:\bby|\bup to|\bof up to|\bat least|\bat most|\bmore than|\bless than|"
    r"\bgains? of|improvement of|gain of|drop of|\d\s*%?\s*(?:to|-|–)|"
    r"\banother|\ban (?:additional|extra)|increase of|reduction of|"
    r"decrease of|margin of|\+|\bfrom|\bwithin|\bover|\babout|\bapproximately|\bonly|"
    r"\bnearly|\balmost|\bunder|\bbelow|\babove)\s*$", re.IGNORECASE)
_NOT_EVALUATED_ON = re.compile(
    r"(?i)(?:\blike|such as|\bwith|pre-?trained on|trained on|e\.g\.,?)\s+(?:the\s+)?$")
_AFTER_METRIC_DIFF = re.compile(
    r"^\s*(?:points?|pp|improvement|gain|increase|decrease|drop|reduction|better|worse|"
    r"higher|lower|margin)\b", re.IGNORECASE)
_TABLE_POINTER = re.compile(r"\b(Table|Tab\.)\s*(\d+)")
_ERRORS_COUNT = re.compile(r"^\s*(?:test\s+)?errors\b", re.IGNORECASE)
_VERBS = re.compile(r"\b(achieves?|achieved|achieving|reach(?:es|ed)?|obtains?|obtained|"
                    r"attains?|yields?|gets?|scores?|gives?|records?|reports?|pushes|makes)\b",
                    re.IGNORECASE)


def _dataset_mentions(sentence: str, context: PaperContext) -> list[tuple[str, int]]:
    found = [(n, o) for n, o in name_phrases(sentence) if not context.is_own(n)]
    for key, name in context.dataset_names.items():
        if len(key) < 2:
            continue
        flags = 0 if len(key) <= 4 else re.IGNORECASE
        for match in re.finditer(rf"(?<![\w\-]){re.escape(name)}(?![\w\-])", sentence, flags):
            found.append((name, match.start()))
    out: list[tuple[str, int]] = []
    for name, offset in sorted(found, key=lambda f: (f[1], -len(f[0]))):
        name = without_split(name)
        if is_generic(name) or any(o <= offset < o + len(n) for n, o in out):
            continue
        if _NOT_EVALUATED_ON.search(sentence[max(0, offset - 24):offset]) and not re.match(
                r"\s*(?:data\s?set|dataset|benchmark)", sentence[offset + len(name):]):
            continue  # "datasets like X", "pre-trained with X": not what the result is on
        out.append((name, offset))
    return out


def _unknown(token: str, context: PaperContext) -> bool:
    return not (find_metric_mentions(token) or context.is_dataset(token)
                or context.is_own(token) or is_generic(token))


def _unknown_acronym(sentence: str, context: PaperContext) -> bool:
    """The sentence names something (an acronym) the paper never presents as a dataset."""
    return any(_unknown(token, context)
               for token in re.findall(r"(?<![\w-])[A-Z]{2,}(?![\w-])", sentence))


def _unknown_benchmark(sentence: str, context: PaperContext) -> bool:
    """The sentence puts its numbers in a place the paper never presents as a dataset ("in
    LVIS", "on QRS"), so a dataset it also mentions ("the X baseline") is not theirs."""
    return any(_unknown(token, context) for token in _PLACE_ACRONYM.findall(sentence))


def _numbers(sentence: str) -> Iterable[tuple[re.Match[str], str, int, int]]:
    """(number match, metric, metric start, metric end) pairs printed next to each other."""
    metrics = find_metric_mentions(sentence)
    numbers = list(re.finditer(_NUM, sentence))
    last: tuple[re.Match[str], str, int, int] | None = None
    for number in numbers:
        before = sentence[:number.start()]
        after = sentence[number.end():]
        # the cue ends at the number: searched from a short way back, not from the sentence's
        # start (a search of the whole prefix per number was quadratic on a long run)
        tail = max(0, len(before.rstrip()) - 64)
        if _AFTER_DIFF.match(after) or _BEFORE_DIFF.search(before, tail):
            continue
        if any(start <= number.start() < end for _, start, end in metrics):
            continue  # the cut-off of a metric's name ('acc.@1', 'R@10'), not a value
        if _ERRORS_COUNT.match(after) and "." not in number.group(1) and not number.group(2):
            yield number, "test_errors_count", number.end(), number.end()
            continue
        paired = _paired_topk(sentence, number)
        if paired:  # 'top-1/top-5 errors of 19.2%/4.1%': each number takes its own k
            last = (number, paired, number.start(), number.start())
            yield last
            continue
        whole = "." not in number.group(1) and not number.group(2)
        if number.group(1) in {"0", "100", "0.0", "100.0"}:
            continue  # degenerate (0% / 100%) values are not results worth a claim
        chosen = None
        for metric, start, end in metrics:
            gap = sentence[end:number.start()]
            if not whole and end <= number.start() and (
                    re.fullmatch(_LINK, gap, re.IGNORECASE) or (re.fullmatch(
                        r"\s*(?:\(\w+\))?\s*(?:of|:)?\s*", gap) and len(gap) <= 6)):
                chosen = (metric, start, end)
            elif start >= number.end() and re.fullmatch(
                    r"\s*%?\s*(?:(?:top-?[15]|test|dev|validation|overall|average|mean)\s+)?",
                    sentence[number.end():start]) and not _AFTER_METRIC_DIFF.match(
                        sentence[end:]):
                chosen = chosen or (metric, start, end)
        if chosen:
            last = (number, *chosen)
            yield last
        elif last is not None and _contrasted(sentence, last, number, metrics):
            # '71.3% accuracy here, while the baseline stays at 68.9%': the same measure
            yield number, last[1], number.end(), number.end()


#: Whose number it is, printed right after it: '... compared to 26.1% achieved by the runner-up'.
_BY_WHOM = re.compile(
    r"^\s*%?\s*(?:\w+\s+){0,3}?(?:achieved|obtained|reported|reached|attained|set)\s+by\s+"
    r"(?P<who>[^.,;()]{2,60})")


#: Two top-k figures named together before two numbers: 'top-1/top-5 errors'.
_PAIRED_TOPK = re.compile(
    r"(?i)\btop-?\s?([15])\s*/\s*top-?\s?([15])\s+(?:(err)(?:ors?|\.|or rates?)?|(acc)"
    r"(?:urac(?:y|ies)|\.)?)\b")


_PAIR_END = re.compile(r"\d%?\s*/\s*$")


@lru_cache(maxsize=4)
def _paired_names(sentence: str) -> tuple[re.Match[str], ...]:
    """The pairs of top-k names of ``sentence`` ('top-1/top-5 errors')."""
    return tuple(_PAIRED_TOPK.finditer(sentence))


def _paired_topk(sentence: str, number: re.Match[str]) -> str | None:
    """The metric of one of two numbers printed as a pair ('19.2%/4.1%') after a pair of
    top-k names ('top-1/top-5 errors of'): the first number takes the first k, the
    second the second."""
    first = re.match(r"\s*/\s*\d", sentence[number.end():])
    # from a short way back, and the pair names read once per sentence: per number over the
    # whole sentence, a long run of 'x/x/x/...' was quadratic
    second = _PAIR_END.search(sentence, max(0, number.start() - 64), number.start())
    if not (first or second):
        return None
    names = [m for m in _paired_names(sentence) if m.end() <= number.start()]
    if not names:
        return None
    name = names[-1]
    between = sentence[name.end():number.start()]
    if second:  # the pair's first number stands between them
        between = re.sub(r"\d+(?:\.\d+)?\s?%?\s*/\s*$", "", between)
    if re.search(r"\d", between):
        return None  # another number stands between the names and this pair
    k = name.group(1) if first else name.group(2)
    return f"top{k}_{'error' if name.group(3) else 'accuracy'}"


def _without(text: str, start: int, end: int) -> str:
    """``text`` without its part from ``start`` to ``end`` (the result's own metric)."""
    return text[:max(start, 0)] + text[max(end, 0):] if 0 <= start < len(text) else text


#: Words that set a second number against a result ('..., against 55.1 for the baseline').
_CONTRAST = re.compile(r"(?i)\b(?:against|while|whereas|versus|vs\.?|compared (?:with|to))\b")


#: Who the second number is for: a baseline, earlier or cited system (not other data).
_COMPARED = re.compile(r"(?i)\b(?:baselines?|previous|prior|earlier|strongest|best|competing|"
                       r"reference|state[- ]of[- ]the[- ]art|runners?[- ]up|(?:other|another)\s+"
                       r"teams?)\b|\[\d+\]")


def _contrasted(sentence: str, result: tuple[re.Match[str], str, int, int],
                number: re.Match[str], metrics: list[tuple[str, int, int]]) -> bool:
    """True when ``number`` follows the ``result`` (its number, metric and the metric's span)
    closely, after a contrast word and no other metric, number or name, is said of a baseline
    or an earlier system, and is printed alike (both percentages or both not)."""
    first = result[0]
    gap = sentence[first.end():number.start()]
    around = gap + sentence[number.end():number.end() + 40]
    return (len(gap) <= 70 and bool(_CONTRAST.search(gap)) and not re.search(r"\d", gap)
            and bool(_COMPARED.search(around)) and not re.search(r"\b[A-Z]", _without(
                gap, result[2] - first.end(), result[3] - first.end()))
            and not any(first.end() <= s < number.start() and s != result[2]
                        for _, s, _ in metrics)
            and (first.group(2) is None) == (number.group(2) is None)
            and ("." in first.group(1)) == ("." in number.group(1)))


#: A 'sentence' longer than this is a run without sentence ends (a flattened table or list,
#: junk text), not prose a result is read from: reading each of its numbers against the whole
#: run was quadratic (a 100k-character line took minutes).
MAX_SENTENCE_CHARS = 3000


def sentence_candidates(pages: PaperPages, context: PaperContext) -> list[Candidate]:
    """Candidates from sentences such as 'achieves 88.1% accuracy on SST-2'."""
    sections = section_index(pages)
    out: list[Candidate] = []
    # datasets of the two previous sentences of the same section and page
    recent: list[tuple[list[str], str | None, int]] = []
    for page_no, start, sentence in context.sentences:
        if len(sentence) > MAX_SENTENCE_CHARS:
            continue  # not a sentence: each number of it would be read against all of it
        section = section_at(sections, page_no, start)
        mentions = _dataset_mentions(sentence, context)
        pairs = list(_numbers(sentence))
        spans = [(n.start(), n.end()) for n, _, _, _ in pairs]
        for number, metric, m_start, m_end in pairs:
            dataset, confidence = _pick_dataset(mentions, number.start(), number.end(),
                                                sentence)
            source = "sentence"
            if dataset and not _tied(sentence, mentions, (number.start(), number.end()), spans):
                source = "context_ambiguous"  # several datasets, none printed beside it
            if dataset and confidence < 0.85 and _unknown_benchmark(sentence, context):
                dataset = None  # the numbers are about a benchmark the paper never calls data
            if dataset is None:
                dataset = _pointed_table_dataset(sentence, metric, context)
                confidence, source = 0.8, "pointed_table"
            if dataset is None and not _unknown_acronym(sentence, context):
                # the one dataset the preceding sentences of the page and section name (a
                # heading between them starts other data: the abstract is not section 6); the
                # nearest sentence that names one wins ('The Y corpus is harder. ... on it')
                named = [[n for n in names if context.is_dataset(n)]
                         for names, sec, page in recent[-4:] if page == page_no and sec == section]
                known = next((k for k in reversed(named) if k), [])
                keys = {normalize_key(n) for n in known}
                dataset = known[-1] if len(keys) == 1 else None
                source = "nearby_sentence"
                if not known and section:  # the section is about one dataset
                    titled = [n for n, _ in _dataset_mentions(section, context)
                              if context.is_dataset(n)]
                    dataset = titled[0] if len({normalize_key(n) for n in titled}) == 1 else None
                    source = "section"
                confidence = 0.7
            printed = number.group(1)
            percent = number.group(2) is not None
            value = float(printed)
            reason = None if dataset else "no dataset could be identified"
            reason = reason or implausible(metric, value, printed, percent)
            subject = _VERBS.split(sentence, maxsplit=1)[0] if _VERBS.search(sentence) else ""
            holder = _BY_WHOM.match(sentence[number.end():])
            if holder and role_of(holder.group("who"), "", context) == "baseline":
                subject = holder.group("who")  # '... 26.1% achieved by the runner-up'
            out.append(Candidate(
                dataset_name=dataset, split=split_from(sentence), metric_name=metric,
                metric_value=to_decimal(value, metric, percent), printed_value=printed,
                units="%" if percent or (is_percent_metric(metric) and value > 1) else None,
                lower_is_better=lower_is_better(metric),
                method_snippet=re.sub(r"\s+", " ", subject).strip()[:120] or None,
                role=role_of(subject, "", context) if subject else "unknown",
                source_citation=cite(sections, page_no, start), confidence=confidence,
                page=page_no, quoted_text=sentence.strip(), source="sentence", reason=reason,
                dataset_source=source, metric_source="sentence",
            ))
            del m_start, m_end
        recent.append(([d for d, _ in mentions], section, page_no))
    return out


def _pointed_table_dataset(sentence: str, metric: str, context: PaperContext) -> str | None:
    """The dataset of the one table the sentence points to, for ``metric`` (see
    :meth:`PaperContext.table_dataset`)."""
    tables = {f"Table {number}" for _, number in _TABLE_POINTER.findall(sentence)}
    return context.table_dataset(tables.pop(), metric) if len(tables) == 1 else None


def _tied(sentence: str, mentions: list[tuple[str, int]], span: tuple[int, int],
          results: list[tuple[int, int]]) -> bool:
    """True unless the sentence names several datasets and none is printed beside the number.

    'On X and Y we reach 81.2% and 79.1%' and 'we reach 81.2% and 79.1% on X and Y
    (respectively)' do not say which number is on which dataset; 'we reach 81.2% on X and 79.1%
    on Y' does: the dataset right after a number (no other number between them) is its own,
    when the result printed before it took a dataset of its own. ``results`` are the spans of
    the sentence's result numbers."""
    start, end = span
    if len({normalize_key(n) for n, _ in mentions}) < 2:
        return True
    if re.search(r"(?i)\brespectively\b", sentence):
        return False
    after = [o for _, o in mentions if o >= end]
    if not after:  # 'on Y it reaches 76.8%' after 'on X ... 81.3%': Y is its own
        before = [o for _, o in mentions if o < start]
        return bool(before) and not _result_between(results, before[-1], start) and (
            len(before) < 2 or _result_between(results, before[-2], before[-1]))
    gap = sentence[end:after[0]]
    if len(gap) > 40 or re.search(r"\d", gap):
        return False
    earlier = [e for _, e in results if e <= start]
    return not earlier or any(earlier[-1] <= o < start for _, o in mentions)


def _result_between(results: list[tuple[int, int]], first: int, last: int) -> bool:
    """True when a result number starts between the offsets ``first`` and ``last``."""
    return any(first <= start < last for start, _ in results)


#: A number printed in a sentence, with its percent sign.
_VALUE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?|\.\d+)(\s?%)?(?![\w.]?\d)")


def _next_sibling(sentence: str, start: int, end: int, stop: int) -> int:
    """Where the first sibling value after the number (``start``-``end``) and before ``stop``
    starts, else the sentence's end: a number printed alike (both percentages or both not, both
    with decimals or both whole), set apart from the first by words with a name. In '0.9% error
    for A, and 3.5% for B' the name B is the second number's, not the first's, even when A is a
    name the reader does not know as a dataset; a pair printed together ('19.2%/4.1% on B',
    '71.2 (0.3) on B'), values apart by a setting ('71.3% for 256px input and 74.0% for 448px
    input on B') share the name, and a difference ('by 3.7%', 'by 2.1%, 0.4% and 3.5%') is no
    sibling."""
    number = _VALUE.match(sentence, start)
    if number is None:
        return len(sentence)
    worded, seen = False, end  # words stand between the number and the part read so far
    difference = False  # the value read before was a difference
    for other in _VALUE.finditer(sentence, end, stop):
        joined = not re.search(r"[A-Za-z]{2,}", re.sub(
            r"(?i)\b(?:and|or)\b", "", sentence[seen:other.start()]))
        # words with a name of their own ('for A', not 'for 300x300 input'): the first
        # number's own slot holds another name, so a name past the sibling is the sibling's
        worded = worded or (not joined and bool(re.search(
            r"(?<![\w-])[A-Z][\w-]*", sentence[seen:other.start()])))
        seen = other.end()
        # the cue ends at the value: searched from a short way back (linear per number); a
        # value listed right after a difference is one too ('by 12.4%, 1.5% and 3.5%')
        difference = (difference and joined) or bool(
            _BEFORE_DIFF.search(sentence, max(0, other.start() - 80), other.start())
            or _AFTER_DIFF.match(sentence[other.end():other.end() + 80]))
        if difference:
            continue  # a difference ('beats it by 3.7%') is no value of its own
        if (worded and ("." in other.group(1)) == ("." in number.group(1))
                and (other.group(2) is None) == (number.group(2) is None)):
            return other.start()
    return len(sentence)


def _pick_dataset(mentions: list[tuple[str, int]], start: int, end: int, sentence: str = ""
                  ) -> tuple[str | None, float]:
    """The dataset the number is printed in parentheses after ('on X (3.9% err.), Y'),
    else the one named right after the number ('on X'), else the nearest before it."""
    opened = sentence.rfind("(", 0, start)
    if opened >= 0 and ")" not in sentence[opened:start] and len(sentence[opened:start]) <= 24:
        owner = [m for m in mentions if m[1] + len(m[0]) <= opened
                 and not sentence[m[1] + len(m[0]):opened].strip()]
        if owner:
            return owner[-1][0], 0.85
    after = [m for m in mentions if m[1] >= end]
    if sentence and after:  # a name past a sibling value is that value's
        limit = _next_sibling(sentence, start, end, after[-1][1])
        after = [m for m in after if m[1] < limit]
    before = [m for m in mentions if m[1] < start]
    if after and (not before or after[0][1] - end <= 60):
        return after[0][0], 0.85
    if before:
        return before[-1][0], 0.8
    return None, 0.0
