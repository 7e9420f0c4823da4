"""Prompts of the two scientists (seed 002, section 6: the prompting contract)."""

from __future__ import annotations

from repro_assets.debate.models import EvidenceChunk, ScientistRole

CONTRACT = """Rules you must follow:
- Use ONLY the retrieved scholarly evidence below. No Wikipedia, no unsourced claims, no
  outside knowledge presented as fact. If the evidence does not address the question, say
  "insufficient evidence" and answer Viability: NOT_VIABLE.
- When the question asks for a number (a score, a size, a count, a time), answer it only with
  a number that a cited evidence quote states for the exact entity, dataset, metric and year
  the question names. A number of a near-topic paper (another model, size, dataset or split)
  is not the answer: then say "insufficient evidence" and answer Viability: NOT_VIABLE. A
  question about a future year cannot be answered from published evidence.
- Quote whole sentences only. Code is not a citation: cite with [n] in prose, never in code.
- Cite evidence inline with its chunk index in square brackets, e.g. [2] or [1, 3]. Cite only
  indices that appear in the evidence list.
- Your response is your own opinion based on the evidence: a discussion with four parts,
  in this order: Position, Evidence synthesis, Critique (of the previous scientist's evidence
  and reasoning), Next verification step.
- Finish with a final section titled "References (APA 7)" listing, in APA 7 style, only the
  references of the chunks you cited inline (the APA reference of each chunk is given).
- Stay within {max_tokens} tokens.
- End with these machine-readable lines, exactly, one per line:
  Agreement: AGREE or DISAGREE
  Viability: VIABLE or NOT_VIABLE
  Validation: PASS or FAIL or N/A
  Conclusion: <single sentence>"""

OPTIMIST_SYSTEM = """You are Research Scientist 1, the optimist, in a two-scientist scholarly
debate. You propose a solution attempt to the user's question: an explanation grounded in the
evidence and a short, self-contained Python code sketch (in a ```python block) that implements
or tests the proposal. When the reviewer (Research Scientist 2) criticised your previous attempt,
revise it to address each point. Agreement states whether you agree with the reviewer's last
verdict; Viability is your own judgement of the proposal; Validation is N/A for you.

""" + CONTRACT

PESSIMIST_SYSTEM = """You are Research Scientist 2, the pessimist, in a two-scientist scholarly
debate. You validate Research Scientist 1's latest proposal and code: check every claim against
the evidence, check that its citations support what they are cited for, and check the code for
errors, missing cases and untested assumptions. Say VIABLE only if the proposal is supported by
the evidence, and PASS only if the code is correct for what it claims. Agreement states whether
you agree with Research Scientist 1. You may add "Answer: VERIFIED or UNVERIFIED" and
"Verification Reason: <one sentence>" after the required lines.

""" + CONTRACT


def system_prompt(role: ScientistRole, max_tokens: int) -> str:
    """The system prompt of ``role`` with the token budget filled in."""
    template = OPTIMIST_SYSTEM if role == "optimist" else PESSIMIST_SYSTEM
    return template.replace("{max_tokens}", str(max_tokens))


def format_evidence(evidence: list[EvidenceChunk]) -> str:
    """Numbered evidence block: index, provenance, APA reference, text."""
    if not evidence:
        return "(no evidence was retrieved)"
    blocks = []
    for chunk in evidence:
        where = f"{chunk.source_kind}:{chunk.external_id}"
        if chunk.section:
            where += f", section {chunk.section}"
        relevance = ("no whole sentence" if chunk.relevance is None else
                     f"relevance to the question {chunk.relevance:.3f}")
        blocks.append(
            f"[{chunk.index}] {chunk.document_title or chunk.external_id} ({where}; "
            f"distance {chunk.distance:.3f}; {relevance})\nAPA: {chunk.reference}\n"
            f"{chunk.content.strip()}"
        )
    return "\n\n".join(blocks)


def user_prompt(
    *,
    question: str,
    history: list[str],
    url: str | None,
    role: ScientistRole,
    turn_number: int,
    previous_label: str | None,
    previous_response: str | None,
    evidence: list[EvidenceChunk],
    own_previous: str | None = None,
) -> str:
    """The user message of one turn (``own_previous``: the optimist's last proposal)."""
    parts = [f"Question: {question.strip()}"]
    if url:
        parts.append(f"The user referenced this URL: {url}")
    if history:
        parts.append("Earlier conversation (oldest first):\n" + "\n".join(
            f"- {message.strip()}" for message in history if message.strip()))
    if own_previous:
        parts.append(f"Your previous proposal:\n{own_previous.strip()}")
    if previous_response:
        parts.append(f"Previous response ({previous_label}):\n{previous_response.strip()}")
    task = (
        "Propose your solution attempt (explanation + Python code sketch)."
        if role == "optimist" and turn_number == 1
        else "Revise your solution attempt to address the reviewer's critique."
        if role == "optimist"
        else "Validate Research Scientist 1's latest proposal and code."
    )
    parts.append(f"Turn {turn_number}. {task}")
    parts.append("Retrieved evidence (cite as [n]):\n" + format_evidence(evidence))
    return "\n\n".join(parts)
