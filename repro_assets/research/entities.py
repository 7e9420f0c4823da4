"""Entities from text: noun phrases found by a part-of-speech tagger and chunker.

The tagger and chunker are TextBlob's English parser (``textblob.en.parse``: a Brill tagger
with its lexicon and a rule-based chunker, shipped inside the ``textblob`` wheel, so it installs
from the package registry and runs offline with no model download). spaCy's English models and
GLiNER were evaluated and rejected: spaCy's models are published only as GitHub release assets
and on the Hugging Face hub (the PyPI names that exist are third-party re-uploads), and GLiNER
downloads its model from the hub at run time; see the README's research section.

An entity is a noun phrase, never an arbitrary run of capitalised words: determiners, pronouns
and generic modifiers ("first", "multiple", "several") are stripped, the phrase must end in a
noun, and coordinated phrases ("mutation testing and metamorphic testing") are split. Types:

* ``method``: an acronym defined in the text ("Time Delay Neural Network (TDNN)", named by its
  long form; later bare mentions of the acronym count for it) or a bare acronym;
* ``organization``: a proper-noun phrase headed by an organisational word (University ...);
* ``name``: another proper-noun phrase (a tool, a place, a product);
* ``concept``: a multi-word common-noun phrase ("metamorphic testing").

A title is lower-cased (acronyms kept) before tagging, because a tagger reads every capitalised
word of a title as a proper noun.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from repro_assets.research.text import split_sentences

ORG_HEADS = frozenset(
    "university institute college school hospital clinic laboratory lab labs center centre "
    "foundation association agency department ministry council consortium society inc corp "
    "corporation company ltd gmbh organization organisation".split()
)
STRIP_TAGS = frozenset({"DT", "PDT", "PRP", "PRP$", "WDT", "WP", "WP$", "EX", "CD", "POS",
                        "CC", "IN", "TO", "RB", "RBR", "RBS", "LS", "SYM", "JJR", "JJS"})
#: Modifiers that say nothing about what a phrase names.
GENERIC_MODIFIERS = frozenset(
    "first second third last multiple several various many more most much few other another "
    "such same different new recent current existing previous present certain specific "
    "particular general main major important large small high low good best great further "
    "additional overall novel key real whole entire common typical possible past wide own "
    "less higher lower greater potential significant".split()
)
NOUN_TAGS = ("NN", "NNS", "NNP", "NNPS")
HEAD_TAGS = (*NOUN_TAGS, "VBG")
ACRONYM = re.compile(r"^(?:[A-Z][a-z]?)?[A-Z]{2,}[A-Za-z0-9]*(?:-[A-Za-z0-9]+)*s?$")
WORD = re.compile(r"[A-Za-z]")
MAX_WORDS = 5


@dataclass
class FoundEntity:
    """An entity found in a text."""

    name: str
    entity_type: str
    aliases: list[str] = field(default_factory=list)


@lru_cache(maxsize=1)
def _parser():  # noqa: ANN202 - textblob's parse function
    from textblob.en import parse

    return parse


def _lower_title(sentence: str) -> str:
    return " ".join(w if ACRONYM.match(w.strip("():,;.")) else w.lower()
                    for w in sentence.split())


#: A 'sentence' is tagged in pieces of at most this many characters, cut at a space: the
#: chunker's time grows with the square of a sentence's tokens (a run of 50k numbers without a
#: sentence end took minutes). Prose sentences are far shorter, so they are read whole.
MAX_TAGGED_CHARS = 1500


def _pieces(sentence: str) -> list[str]:
    pieces = []
    while len(sentence) > MAX_TAGGED_CHARS:
        cut = sentence.rfind(" ", 0, MAX_TAGGED_CHARS)
        cut = cut if cut > 0 else MAX_TAGGED_CHARS
        pieces.append(sentence[:cut])
        sentence = sentence[cut:]
    return [*pieces, sentence]


def _tagged(sentence: str) -> list[tuple[str, str, str]]:
    """``(word, tag, chunk)`` triples of one sentence."""
    out: list[tuple[str, str, str]] = []
    for line in (line for piece in _pieces(sentence) for line in _parser()(
            piece, tokenize=True, tags=True, chunks=True, relations=False,
            lemmata=False).split("\n")):
        for token in line.split(" "):
            parts = token.rsplit("/", 3)
            if len(parts) >= 3:
                out.append((parts[0].replace("&slash;", "/"), parts[1], parts[2]))
    return out


def _noun_phrases(tokens: list[tuple[str, str, str]]) -> list[tuple[int, int]]:
    """Spans ``[start, end)`` of NP chunks, split at coordinating conjunctions."""
    spans: list[tuple[int, int]] = []
    start = None
    for i, (word, tag, chunk) in enumerate(tokens):
        inside = chunk.endswith("NP") and tag != "CC" and word not in ",;"
        if inside and chunk.startswith("B-") and start is not None:
            spans.append((start, i))
            start = None
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            spans.append((start, i))
            start = None
    if start is not None:
        spans.append((start, len(tokens)))
    return spans


def _clean(words: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Strip determiners, pronouns, generic modifiers and trailing non-nouns."""
    while words and (words[0][1] in STRIP_TAGS or words[0][0].lower() in GENERIC_MODIFIERS
                     or not WORD.search(words[0][0])):
        words = words[1:]
    while words and (words[-1][1] not in HEAD_TAGS or not WORD.search(words[-1][0])):
        words = words[:-1]
    if any(t in STRIP_TAGS and t != "CD" or not WORD.search(w) for w, t in words):
        return []
    return words


def _acronym_of(acronym: str, words: list[str]) -> bool:
    """True when ``acronym``'s letters are the initials of ``words`` (in order)."""
    letters = [c.lower() for c in acronym.rstrip("s") if c.isalpha()]
    initials = [w[0].lower() for w in words if w]
    if len(letters) < 2:
        return False
    i = 0
    for initial in initials:
        if i < len(letters) and initial == letters[i]:
            i += 1
    return i == len(letters) and letters[0] == initials[0]


def _classify(words: list[tuple[str, str]]) -> str | None:
    names = [w for w, _ in words]
    if len(names) == 1:
        if ACRONYM.match(names[0]):
            return "method"
        return "name" if words[0][1] in ("NNP", "NNPS") else None
    if any(t in ("NNP", "NNPS") for _, t in words):
        return "organization" if names[-1].lower().strip(".") in ORG_HEADS else "name"
    return "concept"


def extract_entities(text: str, title: str = "") -> list[FoundEntity]:
    """Entities of a text (each once, in order of first mention).

    Args:
        text: an abstract, snippet, page text or sentence.
        title: the document's title, if any (lower-cased before tagging).
    """
    found: dict[str, FoundEntity] = {}
    aliases: dict[str, str] = {}
    sentences = [_lower_title(title)] if title.strip() else []
    for sentence in [*sentences, *split_sentences(text)]:
        tokens = _tagged(sentence)
        for start, end in _noun_phrases(tokens):
            words = _clean([(w, t) for w, t, _ in tokens[start:end]])
            if not words or len(words) > MAX_WORDS:
                continue
            kind = _classify(words)
            if kind is None:
                continue
            name = " ".join(w for w, _ in words)
            after = [w for w, _, _ in tokens[end:end + 3]]
            defined = (len(after) == 3 and after[0] == "(" and after[2] == ")"
                       and ACRONYM.match(after[1]) and len(words) >= 2
                       and _acronym_of(after[1], [w for w, _ in words]))
            if defined:
                kind = "method"
                aliases[after[1].lower()] = name.lower()
            if kind == "method" and len(words) == 1 and name.lower() in aliases:
                continue  # a bare acronym counts for its long form
            key = name.lower()
            entity = found.get(key)
            if entity is None:
                found[key] = FoundEntity(name=name, entity_type=kind,
                                         aliases=[after[1]] if defined else [])
            elif defined:
                entity.entity_type = "method"
                entity.aliases = sorted({*entity.aliases, after[1]})
    for acronym in aliases:
        found.pop(acronym, None)  # a bare mention before the definition
    return list(found.values())
