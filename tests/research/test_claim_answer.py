"""A paper's extracted claims as candidate answers (issue #26): every term of the question must
have its place in the claim (metric, split, dataset, the row's method or the paper itself), and
one value must remain. Each answered case has an unanswerable look-alike beside it.

Every claim, name and number here is made up by the test.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer
from repro_assets.research.claim_answer import ClaimSource, asked_metrics, claim_answer
from repro_assets.research.question_terms import question_terms
from tests.research.fake_claims import FakeClaim as _Claim

TODAY = dt.date(2026, 6, 1)



def _source(*claims: tuple[_Claim, str], key: str = "corpus://pdf/a",
            title: str = "Learning to tally pebbles", paper: frozenset[str] = frozenset()
            ) -> ClaimSource:
    return ClaimSource(key=key, title=title, paper=paper, claims=tuple(claims))


ROWS = _source(
    (_Claim("Pebblecount", "f1", "71.25", "Quillnet-24"), "Quillnet-24 71.25 64.10"),
    (_Claim("Pebblecount", "exact_match", "64.10", "Quillnet-24"), "Quillnet-24 71.25 64.10"),
    (_Claim("Pebblecount", "f1", "69.80", "Marlowe tagger"), "Marlowe tagger 69.80 60.05"),
    (_Claim("Pebblecount", "f1", "73.40", "Quillnet-24 (ensemble)"),
     "Quillnet-24 (ensemble) 73.40 66.00"),
)


def _answer(question: str, *sources: ClaimSource) -> str | None:
    found = claim_answer(question_terms(question, TODAY), list(sources))
    return found.value if found else None


def test_a_row_naming_the_entity_dataset_and_metric_answers() -> None:
    assert _answer("What F1 does Quillnet-24 reach on Pebblecount?", ROWS) == "71.25"
    assert _answer("What exact-match does Quillnet-24 obtain on Pebblecount?", ROWS) == "64.10"


def test_look_alikes_abstain() -> None:
    # another dataset, a variant never reported, a metric no claim holds, a future year
    assert _answer("What F1 does Quillnet-24 reach on Shellcount?", ROWS) is None
    assert _answer("What F1 does Quillnet-48 reach on Pebblecount?", ROWS) is None
    assert _answer("What BLEU does Quillnet-24 reach on Pebblecount?", ROWS) is None
    assert _answer("What F1 will Quillnet-24 reach on Pebblecount in 2031?", ROWS) is None
    # the question asks for the validation split; the claims are of the test split
    assert _answer("What validation F1 does Quillnet-24 reach on Pebblecount?", ROWS) is None


def test_a_question_without_a_metric_is_not_read_from_claims() -> None:
    assert asked_metrics("How many pebbles does Pebblecount hold?") == set()
    assert _answer("What does Quillnet-24 reach on Pebblecount?", ROWS) is None


def test_how_accurate_asks_for_accuracy() -> None:
    rows = _source((_Claim("Pebblecount", "accuracy", "88.5", "Quillnet-24"),
                    "Quillnet-24 88.5"))
    assert asked_metrics("How accurate is Quillnet-24 on Pebblecount?") == {"accuracy"}
    assert _answer("How accurate is Quillnet-24 on Pebblecount?", rows) == "88.5"


def test_rows_that_fit_equally_with_different_values_give_no_answer() -> None:
    rows = _source(
        (_Claim("Pebblecount", "f1", "71.25", "Quillnet-24 (small)"), "Quillnet-24 (small) 71.25"),
        (_Claim("Pebblecount", "f1", "75.00", "Quillnet-24 (large)"), "Quillnet-24 (large) 75.00"),
    )
    assert _answer("What F1 does Quillnet-24 reach on Pebblecount?", rows) is None


def test_a_weak_dataset_guess_needs_the_row_to_name_it() -> None:
    weak = _source((_Claim("Pebblecount", "f1", "71.25", "Quillnet-24", confidence=0.5),
                    "Quillnet-24 71.25"))
    assert _answer("What F1 does Quillnet-24 reach on Pebblecount?", weak) is None


def test_the_papers_own_row_answers_for_its_method() -> None:
    own = _source((_Claim("Pebblecount", "f1", "77.7", "Ours", role="headline"), "Ours 77.7"),
                  (_Claim("Pebblecount", "f1", "70.1", "Marlowe tagger"),
                   "Marlowe tagger 70.1"),
                  title="Quillnet: tallying pebbles", paper=frozenset({"quillnet"}))
    assert _answer("What F1 does Quillnet reach on Pebblecount?", own) == "77.7"
    # the same question about a method this paper is not, and no row names
    assert _answer("What F1 does Brindle reach on Pebblecount?", own) is None


def test_check_answer_reads_claims_only_when_no_passage_states_the_number() -> None:
    source = SourceText(key="corpus://pdf/a", title="Learning to tally pebbles",
                        windows=("We study pebble tallying with Quillnet-24 on Pebblecount.",))
    calls: list[str] = []

    def fallback(terms):  # type: ignore[no-untyped-def]
        calls.append(terms.question)
        return claim_answer(terms, [ROWS])

    check = check_answer("What F1 does Quillnet-24 reach on Pebblecount?", [source], TODAY,
                         fallback=fallback)
    assert check.answered and check.answer is not None and check.answer.value == "71.25"
    assert "claim" in check.reason
    stated = SourceText(key="corpus://pdf/a", title="Learning to tally pebbles", windows=(
        "On Pebblecount, Quillnet-24 reaches an F1 of 72.00 in our runs.",))
    calls.clear()
    check = check_answer("What F1 does Quillnet-24 reach on Pebblecount?", [stated], TODAY,
                         fallback=fallback)
    assert check.answer is not None and check.answer.value == "72.00" and not calls


def test_a_comparison_takes_each_side_from_its_own_papers_claims() -> None:
    other = _source((_Claim("Pebblecount", "f1", "68.15", "Brindle"), "Brindle 68.15"),
                    key="corpus://pdf/b", title="Brindle: counting with brambles")
    sources = [SourceText(key="corpus://pdf/a", title="Learning to tally pebbles",
                          windows=("Quillnet-24 is evaluated on Pebblecount.",)),
               SourceText(key="corpus://pdf/b", title="Brindle: counting with brambles",
                          windows=("Brindle is evaluated on Pebblecount.",))]
    question = "By how many points is the F1 of Quillnet-24 higher than Brindle on Pebblecount?"
    check = check_answer(question, sources, TODAY,
                         fallback=lambda t: claim_answer(t, [ROWS, other]))
    assert check.answer is not None and check.answer.value == "3.10"
    assert {p.source for p in check.answer.parts} == {"corpus://pdf/a", "corpus://pdf/b"}
    # one side that no claim states (another dataset for Brindle): no comparison
    elsewhere = _source((_Claim("Shellcount", "f1", "68.15", "Brindle"), "Brindle 68.15"),
                        key="corpus://pdf/b", title="Brindle: counting with brambles")
    check = check_answer(question, sources, TODAY,
                         fallback=lambda t: claim_answer(t, [ROWS, elsewhere]))
    assert not check.answered


def test_a_dataset_printed_as_a_variant_does_not_answer_for_the_plain_dataset() -> None:
    # "Tallyset+" is the set with augmentation: its row is no answer about plain Tallyset
    for marked in ("Tallyset+", "Tallyset*"):
        rows = _source((_Claim(marked, "error_rate", "21.40", "Quillnet-24"),
                        "Quillnet-24 9.10 21.40"))
        assert _answer("What error rate does Quillnet-24 get on Tallyset without augmentation?",
                       rows) is None
        assert _answer(f"What error rate does Quillnet-24 get on {marked}?", rows) == "21.40"
    plain = _source((_Claim("Tallyset", "error_rate", "27.05", "Quillnet-24"),
                     "Quillnet-24 27.05"))
    assert _answer("What error rate does Quillnet-24 get on Tallyset?", plain) == "27.05"
