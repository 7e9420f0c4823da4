"""Unit tests of the pure domain rules (normalization, validators, matchers, routing, schema,
scoring)."""

from __future__ import annotations

from datetime import date

import pytest

from repro_assets.forms.acroform import match_acroform_field
from repro_assets.forms.models import (
    Candidate,
    CandidateScores,
    Evidence,
    FieldSpec,
    LayoutDoc,
    LayoutPageText,
    RunOptions,
    base_confidence,
    final_confidence,
)
from repro_assets.forms.normalize import (
    NormalizationError,
    find_dates,
    normalize_date,
    normalize_phone,
    normalize_value,
)
from repro_assets.forms.routing import field_query, route, similarity, tokenize
from repro_assets.forms.schema import resolve_schema
from repro_assets.forms.scoring import apply_agreement, select
from repro_assets.forms.validate import (
    anchor_match,
    evidence_supports,
    run_validators,
    validator_score,
)

TODAY = date(2025, 6, 1)


def ev(text: str, doc: str = "doc_001", page: int = 1) -> Evidence:
    return Evidence(doc_id=doc, page=page, quoted_text=text)


def cand(value: str, doc: str, anchor: float = 1.0, validator: float = 1.0,
         relevance: float = 0.2, rejected: list[str] | None = None,
         field: str = "dob") -> Candidate:
    return Candidate(field=field, raw_value=value, normalized_value=value,
                     evidence=[ev(f"DOB: {value}", doc)], from_method="heuristic",
                     rejected_reasons=rejected or [],
                     scores=CandidateScores(anchor_match=anchor, validator=validator,
                                            doc_relevance=relevance))


class TestNormalize:
    @pytest.mark.parametrize(("raw", "iso"), [
        ("04/12/1978", "1978-04-12"), ("1985-03-14", "1985-03-14"),
        ("March 14, 1985", "1985-03-14"), ("14 March 1985", "1985-03-14"),
        ("Mar. 3rd, 2001", "2001-03-03"),
    ])
    def test_dates(self, raw: str, iso: str) -> None:
        assert normalize_date(raw) == iso

    def test_not_a_date(self) -> None:
        with pytest.raises(NormalizationError):
            normalize_date("yesterday")

    def test_find_dates_in_text(self) -> None:
        text = "Seen on 2025-03-01. DOB: 04/12/1978, born March 14, 1985"
        assert [iso for _, iso in find_dates(text)] == ["2025-03-01", "1978-04-12",
                                                        "1985-03-14"]

    def test_phone_with_country(self) -> None:
        phone = normalize_phone("+44 20 7946 0958")
        assert phone.e164 == "+442079460958"
        assert not phone.default_country_assumed

    def test_phone_default_country(self) -> None:
        phone = normalize_phone("(217) 555-0143")
        assert phone.e164 == "+12175550143"
        assert phone.default_country_assumed
        assert normalize_value("phone", "(217) 555-0143") == ("+12175550143",
                                                               ["default_country_assumed"])

    def test_list_and_address(self) -> None:
        assert normalize_value("string_or_list", "- Lisinopril 10 mg\n- Metformin; Lisinopril 10 mg"
                               ) == ("Lisinopril 10 mg; Metformin", [])
        assert normalize_value("string", "12 Elm St\nSpringfield, IL 62704")[0] == \
            "12 Elm St, Springfield, IL 62704"


class TestValidators:
    def test_future_dob_fails(self) -> None:
        results = run_validators("dob", "date", "2031-01-01", "01/01/2031", TODAY)
        assert ("not_in_future", "fail") in [(r.name, r.outcome) for r in results]
        assert validator_score(results) == 0.0

    def test_age_limit(self) -> None:
        results = run_validators("dob", "date", "1890-01-01", "1890-01-01", TODAY)
        assert ("age_under_120", "fail") in [(r.name, r.outcome) for r in results]

    def test_phone_short_and_default_country(self) -> None:
        short = run_validators("phone", "phone", "+15550143", "555-0143", TODAY)
        assert ("min_10_digits", "fail") in [(r.name, r.outcome) for r in short]
        us = run_validators("phone", "phone", "+12175550143", "(217) 555-0143", TODAY)
        assert validator_score(us) == 0.6  # warn: country assumed (locked warn score)

    def test_name_rules(self) -> None:
        assert validator_score(run_validators("full_name", "string", "Jane Doe", "", TODAY)) == 1
        assert validator_score(run_validators("full_name", "string", "12345 6", "", TODAY)) == 0
        assert validator_score(run_validators("full_name", "string", "", "", TODAY)) == 0

    def test_member_id_length(self) -> None:
        assert validator_score(run_validators("insurance_member_id", "string", "AB1", "",
                                              TODAY)) == 0
        assert validator_score(run_validators("insurance_member_id", "string", "AB12", "",
                                              TODAY)) == 1


class TestHallucinationCheck:
    def test_string_substring(self) -> None:
        assert evidence_supports("string", "Maria Gonzalez", [ev("Patient: MARIA  gonzalez")])
        assert not evidence_supports("string", "Maria Lopez", [ev("Patient: Maria Gonzalez")])
        assert not evidence_supports("string", "Maria", [])

    def test_date_and_phone(self) -> None:
        assert evidence_supports("date", "1978-04-12", [ev("born April 12, 1978")])
        assert not evidence_supports("date", "1978-04-13", [ev("DOB 04/12/1978")])
        assert evidence_supports("phone", "+12175550143", [ev("tel 217.555.0143")])
        assert not evidence_supports("phone", "+12175550144", [ev("tel 217.555.0143")])

    def test_list_items(self) -> None:
        quote = [ev("Medications:\n- Lisinopril 10 mg\n- Metformin 500 mg")]
        assert evidence_supports("string_or_list", "Lisinopril 10 mg; Metformin 500 mg", quote)
        assert not evidence_supports("string_or_list", "Lisinopril 10 mg; Aspirin", quote)

    def test_anchor(self) -> None:
        assert anchor_match("string", "Maria Gonzalez", "Maria Gonzalez",
                            [ev("Name: Maria Gonzalez")]) == 1.0
        assert anchor_match("string", "maria gonzalez", "maria gonzalez",
                            [ev("Name: Maria Gonzalez")]) == 0.0
        assert anchor_match("date", "1978-04-12", "1978-04-12", [ev("DOB 04/12/1978")]) == 1.0


class TestRouting:
    def test_tokenize_and_score(self) -> None:
        assert tokenize("Date-of_Birth: a 12") == {"date", "of", "birth", "12"}
        assert similarity({"a1", "b1"}, {"a1"}) == 0.5
        assert similarity(set(), {"x"}) == 0.0

    def test_route_top_k_and_order(self) -> None:
        spec = FieldSpec(key="dob", label="Date of birth", type="date")
        assert tokenize(field_query(spec)) == {"dob", "date", "of", "birth", "birthdate"}
        docs = [LayoutDoc(doc_id=d, pages=[LayoutPageText(page=1, full_text=t)])
                for d, t in [("doc_001", "nothing here"), ("doc_002", "DOB: 1/2/1980"),
                             ("doc_003", "Date of birth 1/2/1980")]]
        entry = route([spec], docs, top_k=2)[0]
        assert entry.doc_ids == ["doc_003", "doc_002"]
        assert entry.scores == {"doc_001": 0.0, "doc_002": 0.2, "doc_003": 0.6}
        assert route([spec], [], top_k=3)[0].doc_ids == []


class TestSchema:
    @pytest.mark.parametrize(("name", "expected"), [
        ("dob", ("dob", None)), ("Patient_Name", ("full_name", None)),
        ("patient_name_dob", (None, "ambiguous")), ("Member-ID", ("insurance_member_id", None)),
        ("Street Address", ("address", None)), ("signature", (None, None)),
        ("surname", ("full_name", None)), ("mobile phone", ("phone", None)),
    ])
    def test_acroform_matching(self, name: str, expected: tuple) -> None:
        assert match_acroform_field(name) == expected

    def test_user_schema_unsupported_and_limit(self) -> None:
        schema = {"fields": [{"key": "dob", "label": "Birth", "type": "date"},
                             {"key": "ssn", "type": "string"},
                             {"key": "full_name", "type": "string"}]}
        out = resolve_schema(schema, [], RunOptions(max_fields=1))
        assert out.schema.schema_source == "user_schema"
        assert [f.key for f in out.schema.resolved_fields] == ["dob"]
        assert out.schema.unsupported_fields == ["ssn"]
        assert any(w.startswith("max_fields_exceeded") for w in out.warnings)

    def test_invalid_user_schema_is_refused(self) -> None:
        from repro_assets.forms.runfolder import InvalidUserSchema

        with pytest.raises(InvalidUserSchema):
            resolve_schema({"fieldz": []}, [], RunOptions())
        with pytest.raises(InvalidUserSchema):
            resolve_schema({"fields": [{"label": "no key"}]}, [], RunOptions())


class TestScoring:
    SPEC = FieldSpec(key="dob", label=None, type="date")

    def test_formula(self) -> None:
        scores = CandidateScores(anchor_match=1, validator=0.6, doc_relevance=0.4,
                                 cross_doc_agreement=0.1, contradiction_penalty=0.3)
        assert base_confidence(scores) == pytest.approx(0.45 + 0.18 + 0.10)
        assert final_confidence(scores) == pytest.approx(0.73 + 0.1 - 0.3)

    def test_agreement_across_docs_only(self) -> None:
        same_doc = apply_agreement([cand("1980-01-02", "doc_001"),
                                    cand("1980-01-02", "doc_001")])
        assert all(c.scores.cross_doc_agreement == 0 for c in same_doc)
        two_docs = apply_agreement([cand("1980-01-02", "doc_001"),
                                    cand("1980-01-02", "doc_002")])
        assert all(c.scores.cross_doc_agreement == 0.1 for c in two_docs)

    def test_contradiction(self) -> None:
        sel = select(self.SPEC, [cand("1980-01-02", "doc_001", relevance=0.6),
                                 cand("1981-01-02", "doc_002")])
        assert sel.final.status == "needs_review"
        assert sel.final.normalized_value == "1980-01-02"
        assert sel.final.confidence == pytest.approx(0.9 - 0.3)
        assert sel.final.alternatives[0].normalized_value == "1981-01-02"
        assert any(r.startswith("contradiction") for r in sel.final.rationale)
        again = select(self.SPEC, sel.candidates)  # idempotent on penalized input
        assert again.final.model_dump() == sel.final.model_dump()

    def test_weak_other_value_is_no_contradiction(self) -> None:
        sel = select(self.SPEC, [cand("1980-01-02", "doc_001"),
                                 cand("1981-01-02", "doc_002", anchor=0.0)])
        assert sel.final.status == "filled"

    def test_threshold_and_missing(self) -> None:
        low = select(self.SPEC, [cand("1980-01-02", "doc_001", validator=0.6)])
        assert low.final.status == "needs_review"  # 0.45+0.18+0.05 < 0.75
        rejected = select(self.SPEC, [cand("1980-01-02", "doc_001", rejected=["x"])])
        assert rejected.final.status == "missing"
        assert rejected.final.value is None
        assert rejected.final.alternatives[0].rejected_reasons == ["x"]
        assert select(self.SPEC, []).final.rationale == ["no_candidates"]

    def test_alternatives_max_two(self) -> None:
        cands = [cand("1980-01-02", f"doc_00{i}") for i in range(1, 5)]
        assert len(select(self.SPEC, apply_agreement(cands)).final.alternatives) == 2


class TestHeuristics:
    def page(self, text: str) -> LayoutDoc:
        return LayoutDoc(doc_id="doc_001", pages=[LayoutPageText(page=2, full_text=text)])

    def test_name_shapes(self) -> None:
        from repro_assets.forms.heuristics import scan_field

        doc = self.page("Patient: reports chest pain\nPatient Name: van der Berg, Anna\n"
                        "Emergency contact name: Bob Stone\nName: DOE, JANE    DOB: 01/02/1980")
        values = [h.raw_value for h in scan_field("full_name", [doc])]
        assert values == ["van der Berg, Anna", "DOE, JANE"]
        assert "reports chest pain" not in values and "Bob Stone" not in values
        hit = scan_field("dob", [doc])[0]
        assert hit.raw_value == "01/02/1980" and hit.evidence.page == 2
        assert hit.evidence.quoted_text == "Name: DOE, JANE    DOB: 01/02/1980"

    def test_member_id_and_phone_keywords(self) -> None:
        from repro_assets.forms.heuristics import scan_field

        doc = self.page("Member Services: 1-800-555-0123\nGroup ID: 40021\n"
                        "Policy #: AB-99812\nCell: +44 20 7946 0958")
        assert [h.raw_value for h in scan_field("insurance_member_id", [doc])] == ["AB-99812"]
        assert [h.raw_value for h in scan_field("phone", [doc])] == ["+44 20 7946 0958"]
