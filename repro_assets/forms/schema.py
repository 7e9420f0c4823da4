"""Step resolve_schema: user schema -> fillable PDF (AcroForm) fields -> fallback v1 set.

A user schema is preferred whenever it is given: keys it does not know (``{"version": 2}``,
``{"key": "dob", "required": true}``) are ignored with a trace warning, never a reason to use
another source; a schema without a ``fields`` list is rejected at ingest (invalid_schema_json).

From a fillable target, the locked AcroForm matching (:mod:`repro_assets.forms.acroform`)
decides which v1 fields are present, for the form's subject only: a widget of another party
(the doctor's phone, the employer's address) does not make the field present.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from repro_assets.forms.acroform import WidgetRole, classify
from repro_assets.forms.models import (
    V1_FIELDS,
    V1_LABELS,
    FieldSpec,
    ResolvedSchema,
    RunOptions,
    UserSchema,
    UserSchemaField,
)
from repro_assets.forms.parties import is_subject
from repro_assets.forms.reading import DocumentRefused, target_widgets
from repro_assets.forms.runfolder import InvalidUserSchema

log = logging.getLogger(__name__)


@dataclass
class SchemaResolution:
    """The resolved schema plus the warnings and notes that go to the trace."""

    schema: ResolvedSchema
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def parse_user_schema(raw: Any) -> tuple[UserSchema, list[str]]:
    """Validate a ``schema_json`` upload, ignoring keys the UserSchema does not define.

    Returns:
        The schema and ``ignored_schema_keys:<keys>`` when some were ignored.

    Raises:
        InvalidUserSchema: when there is no ``fields`` list of objects with a ``key``.
    """
    if not isinstance(raw, dict) or not isinstance(raw.get("fields"), list):
        raise InvalidUserSchema('schema_json must be an object with a "fields" list')
    ignored = [k for k in raw if k not in UserSchema.model_fields]
    known = set(UserSchemaField.model_fields)
    items = []
    for n, item in enumerate(raw["fields"]):
        if not isinstance(item, dict):
            raise InvalidUserSchema(f"schema_json fields[{n}] is not an object")
        ignored += [f"fields[{n}].{k}" for k in item if k not in known]
        items.append({k: v for k, v in item.items() if k in known})
    try:
        schema = UserSchema.model_validate({"fields": items})
    except ValidationError as exc:
        raise InvalidUserSchema(f"schema_json is not a valid UserSchema: {exc}") from exc
    return schema, ([f"ignored_schema_keys:{','.join(ignored)}"] if ignored else [])


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
    roles: list[WidgetRole], options: RunOptions, warnings: list[str], notes: list[str]
) -> ResolvedSchema:
    """Precedence 2: text widgets of the form's subject determine which v1 fields are present.

    Widgets of another party are listed in ``unsupported_fields`` with a trace note
    (``party_field:<party>:<name>``); ambiguous names are a trace warning.
    """
    specs: list[FieldSpec] = []
    unsupported: list[str] = []
    for role in roles:
        name = role.widget.name
        if role.problem == "ambiguous":
            warnings.append(f"ambiguous_acroform_field:{name}")
        if role.key is None or role.widget.kind != "text":
            unsupported.append(name)
            continue
        if not is_subject(role.party):
            notes.append(f"party_field:{role.party}:{name}")
            unsupported.append(name)
            continue
        if any(s.key == role.key for s in specs):
            continue
        specs.append(FieldSpec(key=role.key, label=role.widget.label or name,
                               type=V1_FIELDS[role.key]))
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

    A target PDF that cannot be opened is a trace warning and resolution falls through to the
    next source (best effort). A user schema that is not a UserSchema at all raises (ingest
    rejects it first, so a run never silently switches to another source).

    Args:
        user_schema: parsed ``schema_json`` content, or None.
        target_pdfs: ``(doc_id, bytes)`` of the target documents.
        options: run options (``max_fields``).

    Raises:
        InvalidUserSchema: when ``user_schema`` has no valid ``fields`` list.
    """
    warnings: list[str] = []
    notes: list[str] = []
    if user_schema is not None:
        parsed, ignored = parse_user_schema(user_schema)
        warnings += ignored
        return SchemaResolution(from_user_schema(parsed, options, warnings), warnings, notes)
    roles: list[WidgetRole] = []
    for doc_id, data in target_pdfs:
        try:
            widgets = target_widgets(data)  # parsed in the limited worker
        except DocumentRefused as exc:
            warnings.append(f"target_doc_unreadable:{doc_id}")
            notes.append(f"refused:{doc_id}:{exc.code}")
            continue
        known = {r.widget.name for r in roles}
        roles += [classify(w) for w in widgets if w.name not in known]
    if roles:
        return SchemaResolution(from_acroform(roles, options, warnings, notes), warnings, notes)
    return SchemaResolution(fallback_v1(options, warnings), warnings, notes)
