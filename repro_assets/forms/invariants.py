"""The invariants the forms asset checks verify on a run folder. Pure functions of the folder.

Each returns ``(passed, details)``; the asset checks turn that into check results.
"""

from __future__ import annotations

import hashlib
from typing import Any

from pydantic import ValidationError

from repro_assets.forms import pipeline
from repro_assets.forms.fill import read_back
from repro_assets.forms.models import ARTIFACT_ADAPTERS, FILLED_PDF, FinalResult, ReviewReport
from repro_assets.forms.runfolder import ArtifactNotFound, FormsError, RunFolder


def artifact_check(folder: RunFolder, name: str) -> tuple[bool, dict[str, Any]]:
    """The artifact exists and validates against its pydantic model.

    review.json exists only when a target form was fillable; its absence then passes.
    """
    if name == "review" and not folder.has_artifact(name):
        return True, {"artifact": "none (no fillable target form)"}
    try:
        ARTIFACT_ADAPTERS[name].validate_python(folder.read_artifact_raw(name))
    except (FormsError, ValidationError) as exc:
        return False, {"error": str(exc)[:500]}
    return True, {"artifact": folder.artifact_key(name)}


def evidence_violations(final: FinalResult) -> list[str]:
    """Fields whose value is not null but which lack a complete evidence item."""
    bad = []
    for key, item in final.fields.items():
        if item.value is None:
            continue
        if not any(e.doc_id and e.page >= 1 and e.quoted_text.strip() for e in item.evidence):
            bad.append(key)
    return bad


def evidence_check(folder: RunFolder) -> tuple[bool, dict[str, Any]]:
    """Invariant 1: no value without evidence."""
    bad = evidence_violations(folder.read_artifact("final"))
    return not bad, {"fields_without_evidence": ", ".join(bad) or "-"}


def trace_check(folder: RunFolder) -> tuple[bool, dict[str, Any]]:
    """Every required trace step appears at least once."""
    events = folder.read_trace()
    steps = {e.step for e in events}
    missing = [s for s in pipeline.REQUIRED_STEPS if s not in steps]
    return not missing, {"missing_steps": ", ".join(missing) or "-", "events": len(events)}


def filled_check(folder: RunFolder) -> tuple[bool, dict[str, Any]]:
    """filled.pdf holds exactly the written values, each the final value of a filled field,
    and the target form is byte-identical to what was uploaded."""
    if not folder.has_artifact("review"):
        return True, {"filled_pdf": "none (no fillable target form)"}
    report: ReviewReport = folder.read_artifact("review")
    final: FinalResult = folder.read_artifact("final")
    request = folder.read_request()
    problems: list[str] = []
    target = next(t for t in request.target_docs if t.doc_id == report.target_doc_id)
    if hashlib.sha256(folder.read_input(target.stored_as)).hexdigest() != target.sha256:
        problems.append("target_modified")
    try:
        values = read_back(folder.read_binary(FILLED_PDF))
    except ArtifactNotFound:
        return False, {"problems": "filled.pdf missing"}
    written = {w.widget: w for w in report.written}
    for name, text in values.items():
        item = written.get(name)
        if item is None or item.value != text:
            problems.append(f"unexpected_value:{name}")
        elif final.fields[item.field].status != "filled":
            problems.append(f"not_filled_field:{name}")
    problems += [f"value_not_written:{n}" for n in written if n not in values]
    return not problems, {"problems": ", ".join(problems) or "-",
                          "widgets_written": len(written)}
