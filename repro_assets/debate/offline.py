"""Offline scientists (no LLM): extractive evidence digests with rule-decided markers.

Each response quotes the sentence of each top chunk that best matches the question, cites it,
and decides the markers with the explicit rules below, so an offline debate runs end to end,
deterministically, and says plainly that it is in offline mode.

Rules (a chunk *supports* when its cosine distance is at most ``SUPPORT_DISTANCE``):

* Scientist 1 (optimist): Viability VIABLE when its supporting chunks come from at least
  ``MIN_DOCUMENTS`` distinct documents; Validation N/A (the proposer validates nothing);
  Agreement AGREE on turn 1 or when the reviewer's last verdict was VIABLE, else DISAGREE.
* Scientist 2 (pessimist): Validation PASS when Scientist 1's citations are all valid, come from
  at least ``MIN_DOCUMENTS`` documents, and every cited chunk supports (there is no code to run
  offline, so the proposer's citations are what is validated); Viability VIABLE when the
  reviewer's own retrieval has supporting chunks from at least ``MIN_DOCUMENTS`` documents and
  at least one of them is a document Scientist 1 cited (corroboration); Agreement AGREE exactly
  when VIABLE and PASS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repro_assets.debate.evidence import references_for
from repro_assets.debate.models import OFFLINE_LABEL, EvidenceChunk, Turn
from repro_assets.scholarly.ingest import split_sentences

SUPPORT_DISTANCE = 0.62
MIN_DOCUMENTS = 2
DIGEST_CHUNKS = 4
_WORD_RE = re.compile(r"[a-z][a-z0-9\-]{2,}")
_URL_RE = re.compile(r"https?://|www\.", re.IGNORECASE)
_STOP = frozenset(
    "the and for are with that this from have has been were was which what when where how why "
    "who can could should would will into than then them they their there these those such "
    "used using use based about over under between within without also not but our its".split()
)


def _terms(text: str) -> set[str]:
    return {w for w in _WORD_RE.findall(text.lower()) if w not in _STOP}


def best_sentence(chunk: EvidenceChunk, query: str) -> str:
    """The chunk sentence sharing the most terms with ``query`` (first one on ties)."""
    body = chunk.content
    if chunk.document_title and body.startswith(chunk.document_title):
        body = body[len(chunk.document_title):]
    sentences = split_sentences(body) or [chunk.document_title or body]
    # sentences that are mostly links or boilerplate ("code is hosted at https://...") go last
    prose = [s for s in sentences if not _URL_RE.search(s) and len(s.split()) >= 6] or sentences
    wanted = _terms(query)
    return max(prose, key=lambda s: (len(_terms(s) & wanted), -prose.index(s))).strip()


def supporting(evidence: list[EvidenceChunk]) -> list[EvidenceChunk]:
    """Chunks within the support distance."""
    return [chunk for chunk in evidence if chunk.distance <= SUPPORT_DISTANCE]


def _documents(chunks: list[EvidenceChunk]) -> set[int]:
    return {chunk.document_id for chunk in chunks}


def diverse(chunks: list[EvidenceChunk], n: int) -> list[EvidenceChunk]:
    """Up to ``n`` chunks, the best of each distinct document first, in rank order."""
    firsts: list[EvidenceChunk] = []
    seen: set[int] = set()
    for chunk in chunks:
        if chunk.document_id not in seen:
            seen.add(chunk.document_id)
            firsts.append(chunk)
    rest = [chunk for chunk in chunks if chunk not in firsts]
    return sorted((firsts + rest)[:n], key=lambda c: c.index)


def _cite_line(chunk: EvidenceChunk, query: str) -> str:
    title = chunk.document_title or chunk.external_id
    return f"- {title} ({chunk.year or 'n.d.'}): \"{best_sentence(chunk, query)}\" [{chunk.index}]"


@dataclass(frozen=True)
class OfflineDraft:
    """An offline response before parsing (the text carries the markers)."""

    text: str
    cited: list[int]


def _finish(lines: list[str], evidence: list[EvidenceChunk], cited: list[int],
            markers: dict[str, str]) -> OfflineDraft:
    refs = references_for(evidence, cited)
    lines += ["", "References (APA 7)"]
    lines += [f"- {ref}" for ref in refs] or ["- (no sources cited)"]
    lines.append("")
    lines += [f"{key}: {value}" for key, value in markers.items()]
    return OfflineDraft(text="\n".join(lines), cited=cited)


def optimist_turn(question: str, turn_number: int, evidence: list[EvidenceChunk],
                  reviewer: Turn | None) -> OfflineDraft:
    """Scientist 1's offline digest: position, evidence synthesis, critique, next step."""
    support = supporting(evidence)
    cited_chunks = diverse(support or evidence, DIGEST_CHUNKS)
    cited = [chunk.index for chunk in cited_chunks]
    docs = _documents(support)
    viable = len(docs) >= MIN_DOCUMENTS
    agree = reviewer is None or reviewer.markers.viability == "VIABLE"
    header = f"Research Scientist 1 (optimist), {OFFLINE_LABEL}: extractive evidence digest."
    position = (
        f"Position: {len(support)} of {len(evidence)} retrieved chunks, from {len(docs)} "
        f"documents, lie within the support distance ({SUPPORT_DISTANCE}); "
        + ("that is enough to propose an evidence-based answer." if viable else
           "that is too little to propose an answer with confidence.")
    )
    lines = [header, "", position, "", "Evidence synthesis:"]
    lines += [_cite_line(chunk, question) for chunk in cited_chunks] or ["- (nothing retrieved)"]
    lines += ["", "Critique:"]
    if reviewer is None:
        lines.append("- No previous response to critique yet (first turn). No code is proposed "
                     "in offline mode; the proposal is the evidence digest above.")
    else:
        lines.append(
            f"- The reviewer (turn {reviewer.number}) answered Viability "
            f"{reviewer.markers.viability or 'missing'}, Validation "
            f"{reviewer.markers.validation or 'missing'}: {reviewer.markers.conclusion or ''}"
        )
        previous = _documents([c for c in reviewer.evidence if c.index in reviewer.citations])
        new_docs = [c.index for c in cited_chunks if c.document_id not in previous]
        lines.append(
            f"- This revision widens the evidence window to {len(evidence)} chunks; "
            f"{len(new_docs)} of the cited chunks come from documents the reviewer did not cite"
            + (f" ({', '.join(f'[{n}]' for n in new_docs)})." if new_docs else ".")
        )
    weakest = max(cited_chunks, key=lambda c: c.distance) if cited_chunks else None
    lines += ["", "Next verification step:"]
    lines.append(
        f"- Read the full text behind [{weakest.index}] (the weakest cited match, distance "
        f"{weakest.distance:.3f}) to confirm it addresses the question." if weakest else
        "- Ingest more sources on the question before proposing anything."
    )
    conclusion = (
        f"The retrieved literature ({len(docs)} supporting documents) supports a cautious, "
        "evidence-based answer to the question." if viable else
        f"Only {len(docs)} supporting document(s) were retrieved, too few for a viable answer."
    )
    return _finish(lines, evidence, cited, {
        "Agreement": "AGREE" if agree else "DISAGREE",
        "Viability": "VIABLE" if viable else "NOT_VIABLE",
        "Validation": "N/A",
        "Conclusion": conclusion,
    })


def pessimist_turn(question: str, turn_number: int, evidence: list[EvidenceChunk],
                   proposal: Turn) -> OfflineDraft:
    """Scientist 2's offline review of Scientist 1's latest proposal."""
    proposer_cited = [c for c in proposal.evidence if c.index in proposal.citations]
    proposer_docs = _documents(proposer_cited)
    weak = [c for c in proposer_cited if c.distance > SUPPORT_DISTANCE]
    passed = (not proposal.invalid_citations and len(proposer_docs) >= MIN_DOCUMENTS
              and not weak)
    support = supporting(evidence)
    docs = _documents(support)
    corroborating = [c for c in support if c.document_id in proposer_docs]
    viable = len(docs) >= MIN_DOCUMENTS and bool(corroborating)
    cited_chunks = diverse(corroborating, DIGEST_CHUNKS // 2) if corroborating else []
    cited_chunks = sorted(
        cited_chunks + diverse([c for c in support if c not in cited_chunks],
                               DIGEST_CHUNKS - len(cited_chunks)),
        key=lambda c: c.index,
    ) or diverse(evidence, DIGEST_CHUNKS)
    cited = sorted(chunk.index for chunk in cited_chunks)
    header = f"Research Scientist 2 (pessimist), {OFFLINE_LABEL}: rule-based review."
    lines = [
        header, "",
        f"Position: the proposal of turn {proposal.number} is "
        + ("supported and corroborated." if viable and passed else "not yet established."),
        "", "Evidence synthesis:",
    ]
    lines += [_cite_line(chunk, question) for chunk in cited_chunks] or ["- (nothing retrieved)"]
    lines += ["", "Critique:"]
    lines.append(
        f"- Scientist 1 cited {len(proposal.citations)} chunks from {len(proposer_docs)} "
        f"documents; invalid citations: {proposal.invalid_citations or 'none'}; cited chunks "
        f"beyond the support distance: {len(weak)}."
    )
    lines.append(
        f"- This review's own retrieval corroborates {len(_documents(corroborating))} of the "
        f"proposer's documents"
        + (f" ({', '.join(f'[{c.index}]' for c in corroborating)})." if corroborating else ".")
    )
    lines += ["", "Next verification step:"]
    lines.append(
        "- Check the corroborated sources' full texts for the settings they were tested in."
        if viable and passed else
        "- Retrieve sources that independently confirm the proposer's cited evidence."
    )
    reason = (
        f"{len(_documents(corroborating))} cited document(s) corroborated and all "
        f"{len(proposal.citations)} citations valid and supporting"
        if viable and passed else
        ("citations fail the check" if not passed else "no independent corroboration")
    )
    conclusion = (
        "The proposal is viable: its evidence is valid and independently corroborated."
        if viable and passed else
        f"The proposal is not yet viable: {reason}."
    )
    return _finish(lines, evidence, cited, {
        "Agreement": "AGREE" if viable and passed else "DISAGREE",
        "Viability": "VIABLE" if viable else "NOT_VIABLE",
        "Validation": "PASS" if passed else "FAIL",
        "Conclusion": conclusion,
        "Answer": "VERIFIED" if viable and passed else "UNVERIFIED",
        "Verification Reason": reason[0].upper() + reason[1:] + ".",
    })
