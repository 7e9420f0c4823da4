"""The local corpus side of answer checking: which documents name the question's terms.

Embedding retrieval ranks chunks by topic; a table row or a sentence that states the asked
number often ranks low, and a near-topic document ranks high. :class:`CorpusLexicon` reads the
stored chunks once per process (folded text per chunk) and answers two questions exactly:
which documents name every anchor of a question, and which chunks (with their neighbours) of
those documents name the rarest one. :func:`check_corpus` hands those windows, plus the
vector search's nearest chunks, to :func:`repro_assets.research.answering.check_answer`.
"""

from __future__ import annotations

import datetime as _dt
import re
import threading
import unicodedata
from dataclasses import dataclass, field

from repro_assets.research.answer_models import AnswerCheck, GroundedAnswer, SourceText
from repro_assets.research.answering import SETTING_WORDS, comparison_sides, counted_nouns
from repro_assets.research.question_terms import (
    METRIC_WORDS,
    STOPWORDS,
    Anchor,
    QuestionTerms,
    fold,
    question_terms,
    squeeze,
    stemmed_words,
)
from repro_assets.research.term_match import (
    GENERIC_HEAD,
    initialisms,
    metric_anchor_in,
    paper_anchors,
)

#: Chunks on each side of a matching chunk that make its window (tables span chunk limits).
NEIGHBOURS = 1
#: Windows read per document, and documents read per question.
MAX_WINDOWS = 24
MAX_DOCUMENTS = 8
#: Nearest chunks by embedding that are read beside the lexical windows.
VECTOR_K = 12
#: Windows per document kept for the chunks naming an asked setting ("dropout").
SETTING_WINDOWS = 6
#: Opening chunks that name a document itself (title block, abstract).
IDENTITY_CHUNKS = 2
#: Longest run of a question's words looked up in the documents' titles.
MAX_TITLE_WORDS = 5
#: A question's words (letters, digits, inner hyphens).
_TOKEN_RE = re.compile(r"[a-z0-9][a-z0-9\-]*[a-z0-9]|[a-z]", re.IGNORECASE)
#: Documents whose extracted claims are read when no passage states the asked number.
CLAIM_DOCUMENTS = 4
#: Words of letters only, as the corpus writes them ("QuokkaNet", "TARN", "dropout").
_WORD_RE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]+(?![A-Za-z0-9])")
#: Shortest lower-case question word looked up as a name the corpus writes in capitals.
MIN_NAME_CHARS = 4


@dataclass
class _Document:
    document_id: int
    title: str
    key: str
    paper_id: str | None
    authors: str = ""
    chunks: list[tuple[int, str, str]] = field(default_factory=list)  # (chunk id, text, folded)
    folded: str = ""
    initials: set[str] | None = None  # word-run initials, read when a metric is looked up
    identity_words: tuple[str, frozenset[str]] | None = None  # opening text, read when ranked


def document_key(url: str | None, doi: str | None, kind: str, external_id: str) -> str:
    """The citable key of a stored document (as the local provider cites it)."""
    if url and url.startswith(("http://", "https://")):
        return url
    if doi:
        return f"https://doi.org/{doi}"
    return f"corpus://{kind}/{external_id}"


class CorpusLexicon:
    """Folded chunk texts of the stored corpus, loaded once (reloaded when the corpus grows)."""

    _cache: dict[str, tuple[tuple[int, int], CorpusLexicon]] = {}
    _lock = threading.Lock()

    def __init__(self, documents: dict[int, _Document]) -> None:
        self.documents = documents
        self._forms: dict[str, tuple[int, int]] | None = None  # word -> (name-like, plain)

    @classmethod
    def load(cls, db: object) -> CorpusLexicon:
        """The lexicon of ``db``'s corpus (cached per database while its chunks are unchanged:
        same count, same newest chunk id)."""
        key = str(getattr(db, "url", id(db)))
        with db.connection() as conn:  # type: ignore[attr-defined]
            count = tuple(conn.execute(
                "SELECT count(*), coalesce(max(id), 0) FROM chunks").fetchone())
        with cls._lock:
            cached = cls._cache.get(key)
            if cached and cached[0] == count:
                return cached[1]
        documents: dict[int, _Document] = {}
        with db.connection() as conn:  # type: ignore[attr-defined]
            for row in conn.execute(
                "SELECT d.id, d.title, d.url, d.doi, src.kind, src.external_id, d.paper_id, "
                "d.authors "
                "FROM documents d JOIN sources src ON src.id = d.source_id"
            ).fetchall():
                documents[row[0]] = _Document(
                    document_id=row[0], title=row[1] or row[5],
                    key=document_key(row[2], row[3], row[4], row[5]), paper_id=row[6],
                    authors=" ".join(row[7] or []))
            for doc_id, chunk_id, content in conn.execute(
                "SELECT document_id, id, content FROM chunks ORDER BY document_id, ordinal"
            ).fetchall():
                if doc_id in documents:
                    documents[doc_id].chunks.append((chunk_id, content, fold(content)))
        for doc in documents.values():
            doc.folded = fold(doc.title) + "".join(c[2] for c in doc.chunks)
        lexicon = cls(documents)
        with cls._lock:
            cls._cache[key] = (count, lexicon)
        return lexicon

    def title_names(self, question: str) -> frozenset[str]:
        """Runs of the question's words that are one document's name: its whole title, or the
        title's head before a colon ("dual supervised learning" of a paper so titled), typed
        in lower case, or capitalised at both ends with lower-case words between ("Pebble in
        Pebble": the lower-case word and the generic capitalised ones break the run of
        capitalised words that is otherwise one name). A run that names several documents
        names none."""
        tokens = _TOKEN_RE.findall(question)
        out: list[str] = []
        i = 0
        while i < len(tokens):
            for n in range(min(MAX_TITLE_WORDS, len(tokens) - i), 1, -1):
                run = tokens[i:i + n]
                if not (all(t.islower() for t in run) or _capitalised_ends(run)) or \
                        run[0] in STOPWORDS or run[-1] in STOPWORDS:
                    continue
                phrase = " ".join(run).lower()
                if sum(phrase == self._title_name(d) for d in self.documents.values()) == 1:
                    out.append(phrase)
                    i += n - 1
                    break
            i += 1
        return frozenset(out)

    def written_names(self, question: str) -> frozenset[str]:
        """Lower-case words of the question the corpus writes only as names: with an inner
        capital or in capitals ("quokkanet" for "QuokkaNet", "tarn" for "TARN"), at least
        twice, and (beyond a capital opening a sentence) never in lower case. A user typing a
        model's name in lower case still names that model, and a passage must name it too."""
        forms = self._word_forms()
        out = []
        for token in _TOKEN_RE.findall(question):
            if not token.isalpha() or not token.islower() or len(token) < MIN_NAME_CHARS or \
                    token in STOPWORDS:
                continue
            named, plain = forms.get(token, (0, 0))
            if named >= 2 and plain == 0:
                out.append(token)
        return frozenset(out)

    def _word_forms(self) -> dict[str, tuple[int, int]]:
        """Lower-cased word -> how often the corpus writes it as a name (an inner capital, or
        all capitals) and how often in lower case (a capital first letter counts as neither)."""
        if self._forms is None:
            counts: dict[str, list[int]] = {}
            for doc in self.documents.values():
                for text in (doc.title, *(c[1] for c in doc.chunks)):
                    for word in _WORD_RE.findall(text):
                        entry = counts.setdefault(word.lower(), [0, 0])
                        if word.islower():
                            entry[1] += 1
                        elif any(ch.isupper() for ch in word[1:]):
                            entry[0] += 1
            self._forms = {w: (c[0], c[1]) for w, c in counts.items()}
        return self._forms

    @staticmethod
    def _title_name(doc: _Document) -> str:
        # NFKC: a ligature of the PDF's title ("\ufb01") is the letters a user types ("fi")
        head = re.split(r":|\s[-\u2013\u2014]\s", unicodedata.normalize("NFKC", doc.title),
                        maxsplit=1)[0]
        return " ".join(re.findall(r"[a-z0-9]+", head.lower()))

    def identity(self, doc: _Document) -> str:
        """What names the document itself: title, authors and its opening chunks."""
        return "\n".join([doc.title, doc.authors, *(c[1] for c in doc.chunks[:IDENTITY_CHUNKS])])

    def text(self, doc: _Document) -> str:
        """The document's whole stored text, chunks in reading order (each block once)."""
        return join_chunks([c[1] for c in doc.chunks])

    def window(self, doc: _Document, position: int) -> str:
        """The chunk at ``position`` of ``doc`` with its neighbours, in reading order (each
        block once)."""
        lo, hi = max(0, position - NEIGHBOURS), min(len(doc.chunks), position + NEIGHBOURS + 1)
        return join_chunks([c[1] for c in doc.chunks[lo:hi]])


#: The shortest repeated run (in characters) taken for a chunk's carried-over opening.
MIN_OVERLAP_CHARS = 12


def join_chunks(texts: list[str]) -> str:
    """Consecutive chunks joined in reading order, each block once.

    A chunk opens with the trailing blocks of the one before it (the chunker's overlap):
    joined as they are, those blocks stand twice, and a table's rows carried over follow
    the heading after the table ("5.2 Results" / "41.3%"), making rows no page holds. The
    longest run of whole lines that ends one chunk and opens the next is kept once.
    """
    lines: list[str] = []
    for text in texts:
        new = text.split("\n")
        lines += new[_overlap(lines, new):]
    return "\n".join(lines)


def _overlap(before: list[str], after: list[str]) -> int:
    """How many opening lines of ``after`` repeat the closing lines of ``before``."""
    for k in range(min(len(before), len(after)), 0, -1):
        if before[-k:] == after[:k] and sum(len(x) for x in after[:k]) >= MIN_OVERLAP_CHARS:
            return k
    return 0


def _capitalised_ends(run: list[str]) -> bool:
    """A run of words opening and closing with a capitalised word ("Pebble in Pebble"), at
    least one of them not the question's first word's plain capital (checked by the caller
    against the documents' titles)."""
    return all(t[:1].isupper() and t[1:].islower() and t.isalpha() for t in (run[0], run[-1]))


def _identity_match(lexicon: CorpusLexicon, doc: _Document, terms: QuestionTerms) -> int:
    """How many of the question's anchors and keywords the document's opening text names."""
    if doc.identity_words is None:
        identity = lexicon.identity(doc)
        doc.identity_words = (fold(identity), frozenset(stemmed_words(identity)))
    folded, words = doc.identity_words
    return sum(a.found_in(folded) for a in terms.anchors) + sum(
        k in words for k in terms.keywords if len(k) >= 4)


def _names(anchor: Anchor, doc: _Document) -> bool:
    """The document names ``anchor``: as written, or (a metric) spelled out in words."""
    if anchor.found_in(doc.folded):
        return True
    if anchor.key not in METRIC_WORDS or not anchor.key.isalpha():
        return False
    if doc.initials is None:
        doc.initials = initialisms(" ".join(c[1] for c in doc.chunks))
    return anchor.key in doc.initials


def check_corpus(question: str, db: object, vector_hits: list[tuple[int, int]] | None = None,
                 today: _dt.date | None = None) -> tuple[AnswerCheck, dict[str, str]]:
    """Check the stored corpus for a passage stating the asked fact.

    Args:
        question: the question.
        db: the project database holding the corpus.
        vector_hits: ``(document_id, chunk id)`` of the nearest chunks by embedding.
        today: the current date (tests fix it).

    Returns:
        The check, and the titles of the documents it read (key -> title).
    """
    lexicon = CorpusLexicon.load(db)
    names = lexicon.title_names(question) | lexicon.written_names(question)
    terms = question_terms(question, today, names)
    anchors = list(terms.anchors)
    per_anchor = {a.key: [d for d in lexicon.documents.values() if _names(a, d)]
                  for a in anchors}
    sides = comparison_sides(question, terms) if terms.compare else None
    # a comparison's two sides are stated in different documents: each is looked up alone
    groups = [list(side.anchors) for side in sides] if sides else [anchors]
    windows: dict[int, list[str]] = {}
    lexical: set[int] = set()
    docs: list[_Document] = []
    for group in groups:
        found = [d for d in lexicon.documents.values()
                 if group and all(_names(a, d) for a in group)]
        docs += [d for d in found if d not in docs]
        if not found:
            continue
        if len(found) > MAX_DOCUMENTS:
            # many documents name the anchors: read first those whose own opening (title,
            # abstract) names the question's terms (sort is stable: ties keep corpus order)
            found.sort(key=lambda d: -_identity_match(lexicon, d, terms))
        for doc in found[:MAX_DOCUMENTS]:
            lexical.add(doc.document_id)
            # a name the document's opening holds (its authors, its method) holds for all
            # of it: its sentences are found by the rarest of the other names
            _identity_match(lexicon, doc, terms)
            own = doc.identity_words[0] if doc.identity_words else ""
            others = [a for a in group if not a.found_in(own)]
            rarest = min(others or group, key=lambda a: len(per_anchor[a.key]))
            hits = [i for i, c in enumerate(doc.chunks) if rarest.found_in(c[2])
                    or (rarest.key in METRIC_WORDS and metric_anchor_in(rarest, c[1]))
                    or (i == 0 and rarest.found_in(fold(doc.title)))]
            # the asked attribute: the head words, or what "how many ..." counts
            attribute = [w for w in terms.head or counted_nouns(terms)
                         if w not in GENERIC_HEAD and len(w) >= 4]
            if not others and attribute:
                # every name stands for the document itself ("X et al."): its sentences on
                # the asked attribute ("clipping", "batch size") are read first (the whole
                # phrase, then its last word), then the chunks naming the document's name
                phrase = squeeze("".join(attribute))
                named = [i for i, c in enumerate(doc.chunks) if phrase in c[2]]
                named += [i for i, c in enumerate(doc.chunks)
                          if squeeze(attribute[-1]) in c[2] and i not in named]
                hits = named + [i for i in hits if i not in named]
            elif attribute:
                # a setting ("dropout probability", "batch size") is stated in a chunk of its
                # own, which need not repeat the document's name: read those chunks too
                phrase = squeeze("".join(attribute))
                first = squeeze(attribute[0]) if attribute[0] in SETTING_WORDS else phrase
                setting = [i for i, c in enumerate(doc.chunks)
                           if (phrase in c[2] or first in c[2]) and i not in hits]
                hits = hits[:MAX_WINDOWS - SETTING_WINDOWS] + setting[:SETTING_WINDOWS]
            windows.setdefault(doc.document_id, []).extend(
                lexicon.window(doc, i) for i in hits[:MAX_WINDOWS])
    for doc_id, chunk_id in vector_hits or []:
        hit_doc = lexicon.documents.get(doc_id)
        if hit_doc is None:
            continue
        positions = [i for i, c in enumerate(hit_doc.chunks) if c[0] == chunk_id]
        if positions:
            windows.setdefault(doc_id, []).append(lexicon.window(hit_doc, positions[0]))
    sources = [SourceText(key=lexicon.documents[d].key, title=lexicon.documents[d].title,
                          windows=tuple(dict.fromkeys(w)),
                          identity=lexicon.identity(lexicon.documents[d]),
                          full_text=lexicon.text(lexicon.documents[d]) if d in lexical else "")
               for d, w in windows.items()]
    from repro_assets.research.answering import check_answer

    check = check_answer(question, sources, today,
                         fallback=lambda t: _claims_answer(lexicon, db, t), names=names)
    absent = [a.text for a in anchors if not per_anchor[a.key]]
    if absent and not check.answered:
        check.missing_anchors = absent
        if not terms.future_years:  # a forecast is the first reason
            check.reason = f"no source in the corpus names {', '.join(absent)}"
    elif anchors and not docs and not check.answered and not terms.future_years and not sides:
        check.reason = ("no single source names all of " + ", ".join(a.text for a in anchors))
    titles = {lexicon.documents[d].key: lexicon.documents[d].title for d in windows}
    return check, titles


def _claims_answer(lexicon: CorpusLexicon, db: object, terms: QuestionTerms
                   ) -> GroundedAnswer | None:
    """The answer the extracted claims of the documents naming every anchor give, if one."""
    from repro_assets.research.claim_answer import ClaimSource, asked_metrics, claim_answer
    from repro_assets.research.paper_claims import paper_claims

    if terms.kind != "value" or not terms.anchors or not asked_metrics(terms.question):
        return None  # claims hold metric values only: nothing to read them for
    found = [d for d in lexicon.documents.values()
             if d.paper_id and all(_names(a, d) for a in terms.anchors)]
    if len(found) > CLAIM_DOCUMENTS:
        found.sort(key=lambda d: -_identity_match(lexicon, d, terms))
    sources = []
    for doc in found[:CLAIM_DOCUMENTS]:
        identity = lexicon.identity(doc)
        text = SourceText(key=doc.key, title=doc.title, windows=(), identity=identity,
                          full_text=lexicon.text(doc)[:20000])
        claims = paper_claims(db, doc.paper_id or "")
        sources.append(ClaimSource(
            key=doc.key, title=doc.title, paper=paper_anchors(terms, text),
            claims=tuple((c, c.evidence.quoted_text) for c in claims)))
    return claim_answer(terms, sources)


def paper_ids(db: object) -> dict[str, str | None]:
    """Citable key -> paper id of every stored document (for evaluators)."""
    lexicon = CorpusLexicon.load(db)
    return {d.key: d.paper_id for d in lexicon.documents.values()}
