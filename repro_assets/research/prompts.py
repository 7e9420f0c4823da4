"""Prompt constants of the research agent."""

CLARIFY_SYSTEM = (
    "You prepare a research task. Rewrite the user's query into one precise, searchable "
    "research question, pick the domain (medical, competitive_intelligence or academic) and list "
    "at most 2 clarifying questions ONLY if the query is genuinely ambiguous (otherwise none). "
    "Never answer the question itself."
)

EXTRACT_SYSTEM = (
    "You extract entities and facts from numbered search results for a research question. "
    "Use only what the results say. Every fact must be one self-contained declarative sentence, "
    "cite the indices of the results that state it in source_indices, and give a verbatim "
    "quote (a sentence copied from the first cited result). Entities are named people, "
    "organizations, products, methods, datasets or concepts, each with the index of a result "
    "that mentions it. Do not invent sources or facts."
)

SYNTHESIZE_SYSTEM = (
    "You write the summary of a research report from verified facts. Write 3-6 sentences that "
    "answer the research question using only the facts given, and list key points each citing "
    "the fact ids (F1, F2 ...) they rest on. Mention contradictions when there are any. Do not "
    "add facts that are not in the list. Every number you write must appear in a fact you "
    "cite. If no fact states what the question asks (the exact entity, dataset, metric or "
    "year), say plainly that the sources give insufficient evidence and give no number as "
    "the answer; never answer with a number of another model, dataset or size."
)
