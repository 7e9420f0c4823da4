"""Offline scientists (no LLM): extractive evidence digests with rule-decided markers.

Each response quotes, for each cited chunk, its whole sentence closest to the question
(:mod:`repro_assets.debate.relevance`), cites it, and decides the markers with the explicit
rules below, so an offline debate runs end to end, deterministically, and says plainly that it
is in offline mode. A chunk *addresses* the question when that sentence reaches the calibrated
relevance floor; chunks that do not are never quoted as evidence.

* Scientist 1 (optimist): Viability VIABLE when at least one retrieved chunk addresses the
  question, else NOT_VIABLE ("insufficient evidence"); Validation N/A (the proposer validates
  nothing); Agreement AGREE when its verdict matches the reviewer's last one (or on turn 1).
* Scientist 2 (pessimist): Validation PASS when Scientist 1 cited at least one chunk, every
  citation is valid and every cited chunk addresses the question (there is no code to run
  offline, so the proposer's citations are what is validated); Viability VIABLE when the
  reviewer's own retrieval has addressing chunks and at least one of them comes from a document
  Scientist 1 cited (the evidence is found again); Agreement AGREE and Answer VERIFIED exactly
  when VIABLE and PASS.

Every response's "References (APA 7)" lists the document of every chunk its text cites.
"""

from __future__ import annotations

from typing import Any

from repro_assets.debate.evidence import references_for
from repro_assets.debate.markers import cited_indices
from repro_assets.debate.models import OFFLINE_LABEL, EvidenceChunk, Turn
from repro_assets.debate.relevance import addresses, assess

DIGEST_CHUNKS = 4


def supporting(evidence: list[EvidenceChunk], floor: float) -> list[EvidenceChunk]:
    """Chunks that address the question (their quoted sentence reaches ``floor``)."""
    return [c for c in evidence if addresses(c, floor)]


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


def _cite_line(chunk: EvidenceChunk) -> str:
    title = chunk.document_title or chunk.external_id
    year = f" ({chunk.year})" if chunk.year else ""
    return (f"- {title}{year}: \"{chunk.quote}\" [{chunk.index}] (similarity "
            f"{chunk.relevance:.3f})")


def _finish(lines: list[str], evidence: list[EvidenceChunk],
            markers: dict[str, str]) -> str:
    """The response: ``lines``, the references of every chunk they cite, the marker lines."""
    body = "\n".join(lines)
    cited = [n for n in cited_indices(body) if 1 <= n <= len(evidence)]
    refs = references_for(evidence, cited)
    lines = [*lines, "", "References (APA 7)"]
    lines += [f"- {ref}" for ref in refs] or ["- (no sources cited)"]
    lines.append("")
    lines += [f"{key}: {value}" for key, value in markers.items()]
    return "\n".join(lines)


def _insufficient(evidence: list[EvidenceChunk], floor: float) -> str:
    return (f"Insufficient evidence: {assess(evidence, floor).summary()}; nothing retrieved "
            "is quoted as evidence.")


def answer_line(answer: dict[str, Any]) -> str:
    """The answer as the scientists state it: the number, its source and its quote."""
    parts = answer.get("parts") or []
    if parts:  # a comparison: the difference, with each side's number and source
        sides = "; ".join(f"{p['value']}, stated in {p['title']}: \u201c{p['quote']}\u201d"
                          for p in parts)
        return f"Answer: a difference of {answer['value']} ({sides})"
    return (f"Answer: {answer['value']}, stated in {answer['title']}: "
            f"\u201c{answer['quote']}\u201d")


def optimist_turn(evidence: list[EvidenceChunk], reviewer: Turn | None,
                  floor: float, answer: dict[str, Any] | None = None,
                  blocked: str | None = None) -> str:
    """Scientist 1's offline digest: position, evidence synthesis, critique, next step.

    With the answer check's ``answer`` (a source states the asked number) the proposal is
    that number with its quote; with ``blocked`` (no source can state it) it is NOT_VIABLE
    whatever the retrieved chunks' similarity.
    """
    if blocked:
        return _finish([
            f"Research Scientist 1 (optimist), {OFFLINE_LABEL}: extractive evidence digest.",
            "", f"Position: no evidence states the asked fact: {blocked}.", "",
            "Evidence synthesis:", "- (no retrieved quote states the asked fact; the nearest "
            "sources are related but do not answer)",
        ], evidence, {"Agreement": "AGREE" if reviewer is None or
                      reviewer.markers.viability == "NOT_VIABLE" else "DISAGREE",
                      "Viability": "NOT_VIABLE", "Validation": "N/A",
                      "Conclusion": f"NOT_VIABLE: no evidence states the asked fact ({blocked})."})
    if answer:
        return _finish([
            f"Research Scientist 1 (optimist), {OFFLINE_LABEL}: extractive evidence digest.",
            "", f"Position: a source states the asked fact. {answer_line(answer)}.", "",
            "Evidence synthesis:", f"- {answer['title']}: \u201c{answer['quote']}\u201d",
        ], evidence, {"Agreement": "AGREE", "Viability": "VIABLE", "Validation": "N/A",
                      "Conclusion": f"{answer_line(answer)}."})
    support = supporting(evidence, floor)
    cited_chunks = diverse(support, DIGEST_CHUNKS)
    docs = _documents(support)
    viable = bool(support)
    verdict = "VIABLE" if viable else "NOT_VIABLE"
    agree = reviewer is None or reviewer.markers.viability == verdict
    header = f"Research Scientist 1 (optimist), {OFFLINE_LABEL}: extractive evidence digest."
    position = (
        f"Position: {len(support)} of {len(evidence)} retrieved chunks, from {len(docs)} "
        f"document(s), address the question (a whole sentence with similarity of at least "
        f"{floor:.2f}); the answer below rests on them." if viable else
        f"Position: {_insufficient(evidence, floor)}"
    )
    lines = [header, "", position, "", "Evidence synthesis:"]
    lines += [_cite_line(chunk) for chunk in cited_chunks] or [
        "- (no retrieved chunk addresses the question)"]
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
    weakest = min(cited_chunks, key=lambda c: c.relevance or 0.0) if cited_chunks else None
    lines += ["", "Next verification step:"]
    lines.append(
        f"- Read the full text behind [{weakest.index}] (the weakest cited match, similarity "
        f"{weakest.relevance:.3f}) to confirm it answers the question." if weakest else
        "- Ingest sources about the question itself before proposing anything."
    )
    conclusion = (
        f"{len(docs)} retrieved document(s) address the question and support a cautious, "
        "evidence-based answer." if viable else
        "NOT_VIABLE: insufficient evidence, no retrieved source addresses the question."
    )
    return _finish(lines, evidence, {
        "Agreement": "AGREE" if agree else "DISAGREE",
        "Viability": verdict,
        "Validation": "N/A",
        "Conclusion": conclusion,
    })


def pessimist_turn(evidence: list[EvidenceChunk], proposal: Turn,
                   floor: float, answer: dict[str, Any] | None = None,
                   blocked: str | None = None) -> str:
    """Scientist 2's offline review of Scientist 1's latest proposal.

    With the answer check's ``answer`` the review verifies that the proposal gives the number
    its quote states; with ``blocked`` it rejects any proposal (no source states the fact).
    """
    if blocked or answer:
        return _answer_review(evidence, proposal, answer, blocked)
    proposer_cited = [c for c in proposal.evidence if c.index in proposal.citations]
    proposer_docs = _documents(proposer_cited)
    weak = [c for c in proposer_cited if not addresses(c, floor)]
    passed = bool(proposer_cited) and not proposal.invalid_citations and not weak
    support = supporting(evidence, floor)
    corroborating = [c for c in support if c.document_id in proposer_docs]
    viable = bool(support) and bool(corroborating)
    verified = viable and passed
    first = diverse(corroborating, DIGEST_CHUNKS)
    cited_chunks = sorted(
        first + diverse([c for c in support if c not in first], DIGEST_CHUNKS - len(first)),
        key=lambda c: c.index,
    )
    header = f"Research Scientist 2 (pessimist), {OFFLINE_LABEL}: rule-based review."
    position = (
        f"Position: the proposal of turn {proposal.number} is "
        + ("supported: its sources address the question and are found again." if verified
           else "not established.")
    )
    if not support:
        position += f" {_insufficient(evidence, floor)}"
    lines = [header, "", position, "", "Evidence synthesis:"]
    lines += [_cite_line(chunk) for chunk in cited_chunks] or [
        "- (no retrieved chunk addresses the question)"]
    lines += ["", "Critique:"]
    lines.append(
        f"- Scientist 1 cited {len(proposal.citations)} chunk(s) from {len(proposer_docs)} "
        f"document(s); invalid citations: {proposal.invalid_citations or 'none'}; cited chunks "
        f"that do not address the question: {len(weak)}."
    )
    found_again = [c for c in cited_chunks if c in corroborating]
    lines.append(
        f"- This review's own retrieval finds {len(_documents(corroborating))} of the "
        f"proposer's documents again"
        + (f" ({', '.join(f'[{c.index}]' for c in found_again)})." if found_again else ".")
    )
    lines += ["", "Next verification step:"]
    lines.append(
        "- Check the cited sources' full texts for the settings they were tested in."
        if verified else
        "- Retrieve sources that address the question and confirm the proposer's evidence."
    )
    if verified:
        reason = (f"{len(proposer_docs)} cited document(s) address the question, all "
                  f"{len(proposal.citations)} citation(s) are valid and this review found "
                  f"{len(_documents(corroborating))} of them again")
    elif not support:
        reason = "insufficient evidence: no retrieved source addresses the question"
    elif not passed:
        reason = ("the proposal's citations fail the check" if proposer_cited else
                  "the proposal cites no evidence")
    else:
        reason = "this review's retrieval does not find the proposer's sources again"
    conclusion = (f"The proposal is viable: {reason}." if verified else
                  f"The proposal is not viable: {reason}.")
    return _finish(lines, evidence, {
        "Agreement": "AGREE" if verified else "DISAGREE",
        "Viability": "VIABLE" if viable else "NOT_VIABLE",
        "Validation": "PASS" if passed else "FAIL",
        "Conclusion": conclusion,
        "Answer": "VERIFIED" if verified else "UNVERIFIED",
        "Verification Reason": reason[0].upper() + reason[1:] + ".",
    })


def _answer_review(evidence: list[EvidenceChunk], proposal: Turn,
                   answer: dict[str, Any] | None, blocked: str | None) -> str:
    """Scientist 2's offline review against the answer check (see :func:`pessimist_turn`)."""
    from repro_assets.research.stated_numbers import answer_given, number_in_quotes

    header = f"Research Scientist 2 (pessimist), {OFFLINE_LABEL}: rule-based review."
    proposed = proposal.markers.conclusion or ""
    if blocked or answer is None:
        reason = f"no evidence states the asked fact: {blocked}"
        return _finish([header, "", f"Position: not established; {reason}.", "",
                        "Critique:", "- The nearest sources are related but none states the "
                        "asked fact; nothing is offered as an answer."], evidence, {
            "Agreement": "AGREE" if proposal.markers.viability == "NOT_VIABLE" else "DISAGREE",
            "Viability": "NOT_VIABLE", "Validation": "FAIL",
            "Conclusion": f"NOT_VIABLE: {reason}.", "Answer": "UNVERIFIED",
            "Verification Reason": reason[0].upper() + reason[1:] + "."})
    parts = answer.get("parts") or []
    stated = answer_given(answer["value"], proposed) and (all(
        number_in_quotes(p["value"], [p["quote"]]) and number_in_quotes(p["value"], [proposed])
        for p in parts) if parts else answer_given(answer["value"], answer["quote"]))
    reason = ("the proposal gives the answer its quoted source states" if stated else
              "the proposal does not give the answer its quoted source states")
    return _finish([header, "", f"Position: {reason}.", "", "Evidence synthesis:",
                    f"- {answer['title']}: \u201c{answer['quote']}\u201d"], evidence, {
        "Agreement": "AGREE" if stated else "DISAGREE",
        "Viability": "VIABLE" if stated else "NOT_VIABLE",
        "Validation": "PASS" if stated else "FAIL",
        "Conclusion": f"{answer_line(answer)}." if stated else f"Not viable: {reason}.",
        "Answer": "VERIFIED" if stated else "UNVERIFIED",
        "Verification Reason": reason[0].upper() + reason[1:] + "."})
