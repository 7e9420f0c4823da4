"""Step resolve_schema: user schema -> fillable PDF (AcroForm) fields -> fallback v1 set.

AcroForm matching (locked): the field name is lowercased with ``_``/``-`` turned into spaces;
a name containing a supported key is a direct match; otherwise a name containing aliases of
exactly one key maps to that key; a name matching aliases of several keys (the seed's example
``patient_name_dob``) is ambiguous and skipped with a trace warning; no match is skipped.
Matches are whole words, so ``name`` does not match ``surname``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import pymupdf
from pydantic import ValidationError

from repro_assets.forms.models import (
    ALIASES,
    V1_FIELDS,
    V1_LABELS,
    FieldSpec,
    ResolvedSchema,
    RunOptions,
    UserSchema,
)

log = logging.getLogger(__name__)


@dataclass
class SchemaResolution:
    """The resolved schema plus the warnings that go to the trace."""

    schema: ResolvedSchema
    warnings: list[str] = field(default_factory=list)


def normalize_acroform_name(name: str) -> str:
    """Locked step 1: lowercase, ``_`` and ``-`` to spaces (whitespace collapsed)."""
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def _contains_words(haystack: str, needle: str) -> bool:
    return f" {normalize_acroform_name(needle)} " in f" {haystack} "


def match_acroform_field(name: str) -> tuple[str | None, str | None]:
    """Map one AcroForm field name to a v1 key.

    Returns:
        ``(key, None)`` on a match, ``(None, "ambiguous")`` when aliases of several keys
        match, ``(None, None)`` when nothing matches.
    """
    normalized = normalize_acroform_name(name)
    direct = [key for key in V1_FIELDS if _contains_words(normalized, key)]
    by_alias = [
        key for key, aliases in ALIASES.items()
        if any(_contains_words(normalized, alias) for alias in aliases)
    ]
    keys = set(direct) | set(by_alias)
    if len(keys) > 1:
        return None, "ambiguous"
    if direct:
        return direct[0], None
    if by_alias:
        return by_alias[0], None
    return None, None


def acroform_fields(pdf_bytes: bytes) -> list[tuple[str, str | None]]:
    """Return ``(field_name, field_label)`` of every AcroForm widget, in page order.

    Raises:
        ValueError: when the bytes are not a readable PDF.
    """
    try:
        doc = pymupdf.open(stream=pdf_bytes, filetype="pdf")
    except Exception as exc:  # pymupdf raises several types for broken files
        raise ValueError(f"cannot open target PDF: {exc}") from exc
    seen: list[tuple[str, str | None]] = []
    with doc:
        if not doc.is_form_pdf:
            return []
        for page in doc:
            for widget in page.widgets() or []:
                name = widget.field_name or ""
                if name and name not in {n for n, _ in seen}:
                    seen.append((name, widget.field_label or None))
    return seen


def _limit(specs: list[FieldSpec], options: RunOptions, warnings: list[str]) -> list[FieldSpec]:
    if len(specs) > options.max_fields:
        dropped = [s.key for s in specs[options.max_fields:]]
        warnings.append(f"max_fields_exceeded:{','.join(dropped)}")
    return specs[: options.max_fields]


def from_user_schema(
    schema: UserSchema, options: RunOptions, warnings: list[str]
) -> ResolvedSchema:
    """Precedence 1: only v1 keys are resolved; other keys go to ``unsupported_fields``."""
    specs: list[FieldSpec] = []
    unsupported: list[str] = []
    for item in schema.fields:
        if item.key not in V1_FIELDS:
            if item.key not in unsupported:
                unsupported.append(item.key)
            continue
        if any(s.key == item.key for s in specs):
            warnings.append(f"duplicate_field:{item.key}")
            continue
        if item.type and item.type != V1_FIELDS[item.key]:
            warnings.append(f"type_overridden:{item.key}:{item.type}->{V1_FIELDS[item.key]}")
        specs.append(FieldSpec(key=item.key, label=item.label, type=V1_FIELDS[item.key]))
    return ResolvedSchema(
        schema_source="user_schema",
        resolved_fields=_limit(specs, options, warnings),
        unsupported_fields=unsupported,
    )


def from_acroform(
    names: list[tuple[str, str | None]], options: RunOptions, warnings: list[str]
) -> ResolvedSchema:
    """Precedence 2: AcroForm field names determine which v1 fields are present."""
    specs: list[FieldSpec] = []
    unsupported: list[str] = []
    for name, label in names:
        key, problem = match_acroform_field(name)
        if problem == "ambiguous":
            warnings.append(f"ambiguous_acroform_field:{name}")
        if key is None:
            unsupported.append(name)
            continue
        if any(s.key == key for s in specs):
            continue
        specs.append(FieldSpec(key=key, label=label or name, type=V1_FIELDS[key]))
    return ResolvedSchema(
        schema_source="fillable_pdf",
        resolved_fields=_limit(specs, options, warnings),
        unsupported_fields=unsupported,
    )


def fallback_v1(options: RunOptions, warnings: list[str]) -> ResolvedSchema:
    """Precedence 3: the v1 default field set."""
    specs = [FieldSpec(key=k, label=V1_LABELS[k], type=t) for k, t in V1_FIELDS.items()]
    return ResolvedSchema(schema_source="fallback_v1", resolved_fields=_limit(specs, options,
                                                                               warnings))


def resolve_schema(
    user_schema: dict | None,
    target_pdfs: list[tuple[str, bytes]],
    options: RunOptions,
) -> SchemaResolution:
    """Resolve the run's fields following the seed's precedence.

    A user schema that does not validate, or a target PDF that cannot be opened, is a trace
    warning and resolution falls through to the next source (best effort, never a run failure).

    Args:
        user_schema: parsed ``schema_json`` content, or None.
        target_pdfs: ``(doc_id, bytes)`` of the target documents.
        options: run options (``max_fields``).
    """
    warnings: list[str] = []
    if user_schema is not None:
        try:
            parsed = UserSchema.model_validate(user_schema)
        except ValidationError as exc:
            warnings.append(f"invalid_user_schema:{exc.error_count()}_errors")
        else:
            return SchemaResolution(from_user_schema(parsed, options, warnings), warnings)
    names: list[tuple[str, str | None]] = []
    for doc_id, data in target_pdfs:
        try:
            names.extend(n for n in acroform_fields(data) if n[0] not in {m for m, _ in names})
        except ValueError:
            warnings.append(f"target_doc_unreadable:{doc_id}")
    if names:
        return SchemaResolution(from_acroform(names, options, warnings), warnings)
    return SchemaResolution(fallback_v1(options, warnings), warnings)
