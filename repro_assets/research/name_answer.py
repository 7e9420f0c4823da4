"""Questions that ask for a name ("Which optimizer was X trained with?"): the entity in the role.

A name question is answered only by a sentence that

* names every entity the question asks about (the paper's own method or its cited authors may
  be "we" / "our" in the paper's own text, never a sentence about another named model),
* names the asked role (the head noun: "optimizer", "dataset", "activation"),
* holds exactly one name standing in that role, right beside the head noun ("the Adagrad
  optimizer", "optimizer: Adagrad", "the optimizer is Adagrad").

Every sentence that qualifies must give the same name; two different names, or none, is no
answer. The name is quoted with its sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from repro_assets.research.answer_models import AnswerCheck, GroundedAnswer, SourceText
from repro_assets.research.passages import passages
from repro_assets.research.question_terms import QuestionTerms, fold, squeeze
from repro_assets.research.term_match import (
    MIN_COVERAGE,
    asks_head,
    keyword_coverage,
    paper_anchors,
)

#: A name: capitalised or spelled with digits ("Adagrad", "L-BFGS", "GELU", "ResNet50").
_NAME = r"(?P<name>[A-Z][\w\-.]*[A-Za-z0-9]|[A-Za-z]+\d[\w\-]*)"
#: Words that are capitalised without being names.
_NOT_A_NAME = frozenset({"the", "we", "our", "this", "that", "these", "table", "figure", "fig",
                         "section", "a", "an", "in", "on", "for", "with", "it", "its", "all",
                         "each", "both", "then", "thus", "here", "following", "same"})
_OWN_VOICE = re.compile(r"\b(we|our|ours)\b", re.IGNORECASE)
#: A list's joint: "," "and" "or" "&" "/".
_JOINT = r"(?:,\s*(?:and|or)\b|,|\band\b|\bor\b|&|/)"
#: A name joined to the text after it ("Casebook and " before "Statute-X datasets").
_LISTED_BEFORE = re.compile(rf"\b{_NAME}\s*{_JOINT}\s*$")
#: A name joined to the text before it (" and Statute-X" after "datasets: Casebook").
_LISTED_AFTER = re.compile(rf"^\s*{_JOINT}\s*(?:the\s+)?{_NAME}")


def _role_names(sentence: str, head: str) -> list[str]:
    """Names standing right beside the head noun: before it, or after it (with "is", ":")."""
    noun = re.escape(head) + r"\w*"
    patterns = (rf"{_NAME}\s+(?P<noun>{noun})\b",
                rf"\b{noun}\s*(?:is|was|:|=|,|called|named)?\s*(?:the\s+)?{_NAME}")
    found: list[str] = []
    for before_noun, pattern in zip((True, False), patterns, strict=True):
        for m in re.finditer(pattern, sentence, re.IGNORECASE):
            name = m.group("name").rstrip(".")
            written = m.groupdict().get("noun") or ""
            if written[:1].isupper():
                name = f"{name} {written}"  # the noun is part of the name: "Focal Loss"
            if name[:1].isupper() or any(ch.isdigit() for ch in name):
                if name.lower() not in _NOT_A_NAME:
                    found.append(name)
                    found += _listed_with(sentence, m.start("name"), m.end("name"),
                                          before_noun)
    return list(dict.fromkeys(found))


def _listed_with(sentence: str, start: int, end: int, before_noun: bool) -> list[str]:
    """The name listed together with the name at ``start:end``, on the side away from the
    noun ("the Casebook and Statute-X datasets", "datasets: Casebook, Statute-X"): the role
    holds both, so no one name answers."""
    joined = (_LISTED_BEFORE.search(sentence[:start]) if before_noun
              else _LISTED_AFTER.match(sentence[end:]))
    if joined is None or joined.group("name").lower() in _NOT_A_NAME:
        return []
    return [joined.group("name")]


_OTHERS = re.compile(r"\b(baselines?|competitors?|compared|prior|previous|their)\b",
                     re.IGNORECASE)


def _about_others(sentence: str, name: str, asked: set[str]) -> bool:
    """The sentence speaks of other methods: baselines, or a model name besides ``name``."""
    if _OTHERS.search(sentence):
        return True
    named = [w for w in re.findall(r"[A-Za-z][\w\-]*", sentence)
             if (any(ch.isdigit() for ch in w) or sum(ch.isupper() for ch in w) >= 2
                 or any(ch.isupper() for ch in w[1:]))
             and squeeze(w) not in asked and w not in name.split()]
    return bool(named)


def check_name(terms: QuestionTerms, sources: Sequence[SourceText], related: list[str]
               ) -> AnswerCheck:
    """Answer a name question from one sentence per source that states the name in its role.

    Args:
        terms: the question's terms (``kind == "entity"``).
        sources: candidate documents.
        related: keys of the sources read (kept for the report).
    """
    if not terms.head:
        return AnswerCheck(None, "the question asks for a name or detail whose role cannot "
                           "be told", terms, related=related)
    head = terms.head[-1]
    asked = {a.key for a in terms.anchors}
    answers: list[GroundedAnswer] = []
    for source in sources:
        paper = paper_anchors(terms, source)
        for window in source.windows:
            for passage in passages(window):
                if passage.table:
                    continue
                sentence = passage.text
                folded = fold(sentence)
                own_voice = bool(_OWN_VOICE.search(sentence))
                if not all(a.found_in(folded) or (a.key in paper and own_voice)
                           for a in terms.anchors):
                    continue
                if not asks_head(terms, sentence):
                    continue
                if terms.keywords and keyword_coverage(terms.keywords, sentence) < MIN_COVERAGE:
                    continue
                names = [n for n in _role_names(sentence, head) if squeeze(n) not in asked]
                if len(names) != 1:
                    continue  # no name in the role, or several: no guess
                voiced = [a for a in terms.anchors if not a.found_in(folded)]
                if voiced and _about_others(sentence, names[0], asked):
                    continue  # "we" speaks of baselines or another named model here
                answers.append(GroundedAnswer(value=names[0], quote=sentence,
                                              source=source.key, title=source.title,
                                              score=1.0))
    values = list(dict.fromkeys(a.value for a in answers))
    if len(values) == 1:
        return AnswerCheck(answers[0], f"a sentence names the asked {head}", terms,
                           best_score=1.0, related=related)
    if values:
        return AnswerCheck(None, f"sentences name different {head}s ({', '.join(values[:4])})"
                           ": no single answer", terms, related=related)
    return AnswerCheck(None, f"no sentence names the asked {head} with the question's terms",
                       terms, related=related)
