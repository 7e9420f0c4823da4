"""Answer-check rules for the way users phrase questions over papers nobody tuned on (#26).

Each rule has an answered case and an unanswerable look-alike (another dataset, another
condition, a difference instead of the value, an absent author). Every name, sentence and
number here is made up by the test.
"""

from __future__ import annotations

import datetime as dt

from repro_assets.research.answer_models import SourceText
from repro_assets.research.answering import check_answer
from repro_assets.research.claim_answer import ClaimSource, claim_answer
from repro_assets.research.corpus_answer import CorpusLexicon, _Document
from repro_assets.research.question_terms import question_terms
from repro_assets.research.row_names import cited_authors
from tests.research.fake_claims import FakeClaim as _Claim

TODAY = dt.date(2026, 6, 1)


def _check(question: str, *windows: str, title: str = "Counting stones at scale",
           identity: str = "", names: frozenset[str] = frozenset()) -> str | None:
    source = SourceText(key="corpus://pdf/a", title=title, windows=windows,
                        identity=identity or title)
    check = check_answer(question, [source], TODAY, **({"names": names} if names else {}))
    return check.answer.value if check.answer else None


def test_how_well_does_x_do_asks_for_a_number() -> None:
    question = "How well does Quillnet do on Pebblecount?"
    assert question_terms(question, TODAY).kind == "value"
    assert _check(question, "On Pebblecount, Quillnet reaches an accuracy of 81.4%.") == "81.4"
    # the corpus reports Quillnet on another dataset only
    assert _check(question, "On Shellcount, Quillnet reaches an accuracy of 81.4%.") is None


def test_a_two_letter_surname_before_et_al_is_the_cited_author() -> None:
    question = ("In Wu et al.'s stone counting paper, what top-1 error on Pebblecount does "
                "Quillnet-24 reach?")
    assert "wu" in cited_authors(question)
    row = ("Table 2: Top-1 error (%) on Pebblecount.\nModel\nTop-1 error\nQuillnet-24\n21.4\n"
           "Baseline\n25.0")
    assert _check(question, row, identity="Counting stones at scale\nMei Wu, Ana Berg") == "21.4"
    # the paper is not by Wu: the cited author stands nowhere
    assert _check(question, row, identity="Counting stones at scale\nAna Berg, Tom Ross") is None


def test_a_split_word_opening_the_question_is_no_name() -> None:
    terms = question_terms("Test perplexity of the small Quillnet on Pebblecount?", TODAY)
    assert [a.text for a in terms.anchors] == ["Quillnet", "Pebblecount"]
    assert terms.split == "test"


def test_a_short_year_glued_to_a_name_and_a_language_pair() -> None:
    question = "what BLEU does Quillnet get on wmt19 en-de?"
    keys = {a.key: a.variants for a in question_terms(question, TODAY).anchors}
    assert "wmt2019" in keys["wmt19"] and "englishtogerman" in keys["ende"]
    stated = "On the WMT 2019 English-to-German task, Quillnet reaches 31.2 BLEU."
    assert _check(question, stated) == "31.2"
    other_pair = "On the WMT 2019 English-to-French task, Quillnet reaches 31.2 BLEU."
    assert _check(question, other_pair) is None


def test_the_by_of_a_comparison_is_a_difference_not_the_value() -> None:
    question = "What BLEU does Quillnet get on Pebblecount?"
    assert _check(question, "On Pebblecount, Quillnet beats all earlier systems by over 3.5 "
                            "BLEU.") is None
    assert _check(question, "On Pebblecount, Quillnet obtains 27.5 BLEU, outperforming the "
                            "previous best.") == "27.5"


def test_without_a_condition_rules_out_a_passage_with_it() -> None:
    question = "Without data augmentation, what Pebblecount test error does Quillnet get?"
    assert _check(question, "Quillnet yields a test error of 12.5% on Pebblecount, with the "
                            "usual data augmentation.") is None
    assert _check(question, "Trained without data augmentation, Quillnet yields a test error "
                            "of 19.0% on Pebblecount.") == "19.0"


TABLE = ("Table 1: Accuracy (%) of each model on Pebblecount.\nModel\nPebblecount\n"
         "Quillnet-24\n81.0\nQuillnet-24, bigram\n83.0\n")


def test_a_when_clause_must_be_met_by_the_row() -> None:
    question = "Quillnet-24 accuracy on Pebblecount when using trigrams?"
    assert _check(question, TABLE) is None  # no row is of trigrams
    assert _check(question, TABLE + "Quillnet-24, trigram\n84.5\n") == "84.5"



def test_a_claim_must_meet_the_when_clause_too() -> None:
    claims = ClaimSource(key="corpus://pdf/a", title="Counting stones", paper=frozenset(),
                         claims=((_Claim("Pebblecount", "accuracy", "81.0", "Quillnet-24"),
                                  "Quillnet-24 81.0"),))
    terms = question_terms("What accuracy does Quillnet-24 get on Pebblecount when using "
                           "trigrams?", TODAY)
    assert claim_answer(terms, [claims]) is None
    plain = question_terms("What accuracy does Quillnet-24 get on Pebblecount?", TODAY)
    found = claim_answer(plain, [claims])
    assert found is not None and found.value == "81.0"


def _lexicon(*titles: str) -> CorpusLexicon:
    return CorpusLexicon({i: _Document(document_id=i, title=t, key=f"corpus://pdf/{i}",
                                       paper_id=None) for i, t in enumerate(titles)})


def test_a_papers_title_typed_in_lower_case_names_it() -> None:
    lexicon = _lexicon("Tidal Pebble Sorting: counting stones", "Neural networks for pebbles",
                       "Neural networks for shells")
    assert lexicon.title_names("tidal pebble sorting accuracy on Shellcount?") == frozenset(
        {"tidal pebble sorting"})
    assert lexicon.title_names("neural networks accuracy on Shellcount?") == frozenset()
    names = lexicon.title_names("tidal pebble sorting BLEU on en-de?")
    question = "tidal pebble sorting BLEU on en-de?"
    assert [a.text for a in question_terms(question, TODAY, names).anchors][0] == \
        "tidal pebble sorting"
    # another paper's sentence on the same pair is not the named paper's result
    other = "On English-to-German, our model reaches 28.0 BLEU."
    assert _check(question, other, title="Neural networks for shells", names=names) is None
    own = "On English-to-German, our model reaches 17.5 BLEU."
    assert _check(question, own, title="Tidal Pebble Sorting: counting stones",
                  names=names) == "17.5"


def test_a_short_line_closing_a_sentence_keeps_its_number() -> None:
    window = ("The schedule grows the rate linearly over the first ramp_steps updates, then\n"
              "shrinks it with the square root of the update count. We chose\n"
              "ramp_steps = 2500.\n6.2\nRegularisation\n")
    question = "How many ramp steps did Okafor et al. choose for the schedule?"
    source = SourceText(key="corpus://pdf/a", title="Span taggers", windows=(window,),
                        identity="Span taggers\nTomas Okafor")
    check = check_answer(question, [source], TODAY)
    assert check.answer is not None and check.answer.value == "2500"
    # a heading line after a finished sentence is not glued to it
    from repro_assets.research.passages import passages
    assert not any("Regularisation" in p.text for p in passages(window) if not p.table)


def test_within_n_points_of_is_a_gap() -> None:
    question = "What BLEU does Quillnet get on Pebblecount?"
    assert _check(question, "On Pebblecount, Quillnet comes within 0.7 BLEU points of the "
                            "strongest system when reranking.") is None


def test_a_how_many_question_reads_the_chunk_naming_what_it_counts(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from repro_assets.research import corpus_answer
    from repro_assets.research.corpus_answer import check_corpus
    from repro_assets.research.question_terms import fold

    chunks = ["Span taggers\nTomas Okafor\nAbstract\nWe tag spans.",
              *[f"{i} Section\nSpan tagging is studied here at length." for i in range(2, 40)],
              "7 Training\nEach tagger trains for 12 epochs; we chose ramp_steps = 2500."]
    doc = _Document(document_id=1, title="Span taggers", key="corpus://pdf/1", paper_id=None,
                    authors="Tomas Okafor",
                    chunks=[(100 + i, c, fold(c)) for i, c in enumerate(chunks)])
    doc.folded = fold(doc.title) + "".join(c[2] for c in doc.chunks)
    lexicon = CorpusLexicon({1: doc})
    monkeypatch.setattr(corpus_answer.CorpusLexicon, "load",
                        classmethod(lambda cls, db: lexicon))
    check, _ = check_corpus("How many ramp steps did Okafor et al. choose?", None, today=TODAY)
    assert check.answer is not None and check.answer.value == "2500"
    check, _ = check_corpus("How many warm restarts did Okafor et al. choose?", None,
                            today=TODAY)
    assert not check.answered


def test_an_all_capitals_name_is_spelled_by_capitalised_words_only() -> None:
    question = "How many GPU hours went into the Broad Survey of PST runs?"
    stated = "Our runs took more than 41,000 GPU hours on the standard benchmark."
    title = "Broad Survey of Pebble Sorting Tools"
    assert _check(question, stated, title=title) == "41,000"
    # lower-case words with the same initials ("plain sorting tricks") spell no name
    assert _check(question, stated, title="Broad Survey of plain sorting tricks") is None


def test_hours_of_a_device_are_a_duration_and_a_device_count_is_not() -> None:
    question = "How many GPU hours did Quillnet take on Pebblecount?"
    assert _check(question, "Quillnet took 900 GPU hours on Pebblecount.") == "900"
    assert _check(question, "Quillnet used 16 GPU cards on Pebblecount.") is None
