"""Prompts of the one LLM extraction call per field (constants only)."""

EXTRACT_SYSTEM = (
    "You extract one field for a patient intake form from document excerpts. "
    "Use only the excerpts. Never guess or combine values that are not written in them.\n"
    "Return ONE Candidate as JSON with: field (the field key), raw_value (the value exactly as "
    "written), normalized_value (your normalized form; it is recomputed by the caller), "
    "evidence (at least one item: doc_id and page of the excerpt, and quoted_text copied "
    "character for character from that excerpt, containing the value), from_method \"llm\", "
    "validators [], rejected_reasons [] and scores with every number 0.\n"
    "If the value is not in the excerpts return raw_value \"\", normalized_value \"\" and "
    "evidence []."
)

EXTRACT_USER = (
    "Field: {key} (label: {label}; type: {type})\n"
    "{hint}\n\n"
    "Excerpts (each begins with its doc_id and page):\n{excerpts}"
)

TYPE_HINTS = {
    "date": "A date: raw_value as written; normalized_value as YYYY-MM-DD.",
    "phone": "A phone number: raw_value as written; normalized_value in E.164 (+15551234567).",
    "string_or_list": "A list: raw_value as written; items separated by '; ' in "
                      "normalized_value. Quote every item.",
    "string": "A string: raw_value exactly as written.",
}
