"""``repro-assets eval forms --cases DIR`` on labelled bundles the test writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repro_assets.cli import main
from repro_assets.forms.evaluation import CasesError, evaluate, field_outcome, totals

from .documents import EMPLOYEE, EVALUATION_FORM, fillable_form, injury_report, intake_form


def write_case(root: Path, name: str, docs: dict[str, bytes], expected: dict,
               targets: dict[str, bytes] | None = None) -> None:
    for sub, files in (("input_docs", docs), ("target_docs", targets or {})):
        for filename, data in files.items():
            (root / name / sub).mkdir(parents=True, exist_ok=True)
            (root / name / sub / filename).write_bytes(data)
    (root / name / "expected.json").write_text(json.dumps(expected))


@pytest.fixture()
def cases(tmp_path: Path) -> Path:
    root = tmp_path / "cases"
    write_case(root, "blank_intake", {"form.pdf": intake_form(False)},
               {"fields": {"full_name": None, "dob": None, "phone": None, "medications": None}})
    write_case(root, "filled_intake", {"form.pdf": intake_form(True)},
               {"fields": {"full_name": "Gonzalez, Maria L", "dob": "04/12/1978",
                           "phone": "(217) 555-0143", "medications": "Aspirin 81 mg"}})
    write_case(root, "injury", {"report.pdf": injury_report()},
               {"fields": {"full_name": EMPLOYEE["name"], "phone": EMPLOYEE["phone"]},
                "filled": {"4 Injured Employees Name First Middle Last": EMPLOYEE["name"],
                           "7 Employees Phone Number": "(512) 555-0147"}},
               targets={"form.pdf": fillable_form(EVALUATION_FORM)})
    return root


def test_scores_per_case_and_field(cases: Path) -> None:
    scores = {s.case: s for s in evaluate(cases)}
    assert {f.outcome for f in scores["blank_intake"].fields} == {"missing_right"}
    filled = {f.field: f.outcome for f in scores["filled_intake"].fields}
    assert filled == {"full_name": "filled_right", "dob": "filled_right",
                      "phone": "review_right", "medications": "filled_wrong"}
    injury = scores["injury"]
    assert injury.widgets_right == 2 and injury.widgets_expected == 2
    assert injury.widgets_wrong == ["8 Employees Address  Street or PO Box City State Zip"]
    t = totals(list(scores.values()))
    assert t["filled_wrong"] == 1 and t["filled_precision"] == pytest.approx(4 / 5)
    assert t["per_field"]["phone"]["review_right"] == 1


def test_command_prints_tables_and_exits_1_on_a_wrong_filled_value(
        cases: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "forms", "--cases", str(cases), "--verbose"]) == 1
    out = capsys.readouterr().out
    assert "| blank_intake | 0 | 0 | 0 | 0 | 0 | 4 |" in out
    assert "FILLED_WRONG filled_intake: medications" in out
    assert main(["eval", "forms", "--cases", str(cases), "--case", "blank", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["totals"]["missing_right"] == 4 and payload["totals"]["cases"] == 1


def test_bad_cases_are_a_coded_error(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CasesError):
        evaluate(tmp_path)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "expected.json").write_text('{"fields": {"ssn": "1"}}')
    assert main(["eval", "forms", "--cases", str(tmp_path)]) == 2
    assert "E_BAD_CASES" in capsys.readouterr().err


def test_outcomes() -> None:
    assert field_outcome("dob", "04/12/1978", "filled", "1978-04-12") == "filled_right"
    assert field_outcome("dob", None, "needs_review", "1978-04-12") == "review_wrong"
    assert field_outcome("phone", "608-555-0199", "missing", None) == "missed"


def test_list_fields_compare_as_sets_of_items() -> None:
    assert field_outcome("medications", "Metformin 500 mg; Aspirin 81 mg", "filled",
                         "aspirin 81 mg; METFORMIN 500 mg") == "filled_right"
    assert field_outcome("allergies", "latex; shellfish", "needs_review",
                         "Latex") == "review_wrong"  # a missing item is another list
    assert field_outcome("medications", "Aspirin 81 mg", "filled",
                         "Aspirin 81 mg daily") == "filled_wrong"  # dosing is not the item


def test_fold_selection_and_options(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    from repro_assets.folds import FoldError, in_fold, parse_fold
    from repro_assets.forms.evaluation import load_cases

    names = [f"case_{n}" for n in range(9)]
    for name in names:
        (tmp_path / name).mkdir()
        (tmp_path / name / "expected.json").write_text('{"fields": {"dob": null}}')
    held = {n for n in names if in_fold(n, (2, 3))}
    assert held and held != set(names)
    assert {c.name for c in load_cases(tmp_path, fold=(2, 3))} == held
    assert {c.name for c in load_cases(tmp_path, exclude_fold=(2, 3))} == set(names) - held
    with pytest.raises(FoldError):
        parse_fold("3/3")
    assert main(["eval", "forms", "--cases", str(tmp_path), "--fold", "x"]) == 2
    capsys.readouterr()


def test_per_widget_outcomes() -> None:
    from repro_assets.forms.evaluation import widget_scores

    got = {w.widget: w.outcome for w in widget_scores(
        {"A": "1", "B": "2", "C": "3"}, {"A": "1", "B": "9", "D": "x"})}
    assert got == {"A": "right", "B": "wrong", "C": "missed", "D": "unexpected"}
