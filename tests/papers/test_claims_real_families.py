"""Claims rules from the families of real unseen papers (issue #23, development set R1), each
reproduced with small PDFs the tests draw (invented names), in at least two variants.

* a result on the training split ('Train Acc', 'Training set' columns) is no claim;
* a language code alone ('DE') or a family name the paper reports in several versions ('Zeta'
  beside 'Zeta-10' and 'Zeta-100') names no one dataset: below the plan threshold;
* a header cell spanning some value columns ('Zorvex' over 'Matched | Mismatched') beside
  sibling names one level lower heads only its own columns, not the whole table;
* a number another team reports ('the second-best submission', 'the runner-up') is a baseline,
  never the paper's headline;
* metric names: 'negative log-probabilities' are the NLL, 'RG-1' / 'RG-L' are ROUGE;
* sub-tables stacked one above the other, each under its own 'X | metric' header, are all read
  (a gap wider than the row pitch between them); a running head printed across both columns
  is no header of a table in one column;
* a negated training cue ('without training text from X') names no training data; a language
  pair written with 'to' is one name;
* sentences: 'top-1/top-5 errors of a%/b%' give each number its own k; a number in
  parentheses after a name ('on X (3.9% error) and Y') is on that name;
* table roles: a 'Datasets' cell over the only label column beside name columns heads the
  columns (the rows are methods); a caption describing the datasets ('a summary of the
  datasets', 'number of classes') gives no results; a block of language codes with sub-rows
  ('CS | Lexical') makes each pair a dataset; a body sentence gives a dataset its metric
  ('the evaluation metric of X is macro-F1');
* a column headed by a language pair ('EN-FR') takes the caption's phrase for that pair, never
  a table-wide dataset naming another pair; a header whose words the caption prints in another
  order ('QTB 24' for '... part 24 of QTB') names the column's data.
"""

from __future__ import annotations

import io

import pytest

from repro_assets.papers.claims import Claim, heuristic_claims
from repro_assets.papers.claims.context import PaperContext
from repro_assets.papers.claims.metrics import find_metric_mentions
from repro_assets.papers.claims.roles import role_of
from repro_assets.papers.claims.underspecified import underspecified
from repro_assets.papers.pages import extract_pages
from repro_assets.papers.tables import extract_tables
from tests.papers.layouts import Page, Table, prose, render

CONFIDENT = 0.7


def claims_of(pages: list[Page]) -> list[Claim]:
    pdf = render(pages)
    return heuristic_claims(extract_pages(pdf, "real_families"), pdf)


def by_value(claims: list[Claim]) -> dict[str, Claim]:
    return {c.printed_value or "": c for c in claims}


# --- training-split columns -----------------------------------------------------------------


@pytest.mark.parametrize(("train", "test"), [("Train Acc", "Test Acc"),
                                             ("Training set", "Test set")])
def test_a_training_split_column_is_no_claim(train: str, test: str) -> None:
    table = Table("Table 2: Accuracy (%) on the Brackenfold dataset.",
                  [["Method", train, test]],
                  [["Sparse tagger [3]", "97.6", "81.2"], ["Ours", "93.4", "84.7"]],
                  [72.0, 260.0, 340.0], 560)
    body = prose("We propose a tagger and test it on the Brackenfold dataset.", 72, 690)
    claims = by_value(claims_of([Page(lines=body, tables=[table])]))
    assert "97.6" not in claims and "93.4" not in claims
    assert claims["84.7"].dataset_name == "Brackenfold"
    assert claims["84.7"].split == "test"


# --- under-specified dataset names ----------------------------------------------------------


@pytest.mark.parametrize(("name", "names", "vague"), [
    ("DE", ["DE", "Harlow-9"], True),
    ("fr", [], True),
    ("Zeta", ["Zeta-10", "Zeta-100"], True),
    ("Quorn", ["Quorn'14", "Quorn'16", "Quorn"], True),
    ("Zeta", ["Zeta-10"], False),         # one version only: the name is that dataset's family
    ("Zeta-10", ["Zeta-10", "Zeta-100"], False),
    ("MR", ["MR"], False),                # two capitals that are no language code
])
def test_underspecified_names(name: str, names: list[str], vague: bool) -> None:
    assert (underspecified(name, names) is not None) is vague


@pytest.mark.parametrize(("header", "rows"), [
    (["Model", "DE", "FR"], [["Char LM [2]", "208", "187"], ["Ours", "193", "171"]]),
    (["Model", "CS", "RU"], [["Char LM [2]", "301", "276"], ["Ours", "288", "259"]]),
])
def test_a_language_code_column_is_no_confident_dataset(header: list[str],
                                                        rows: list[list[str]]) -> None:
    table = Table("Table 5: Test perplexity of the language models on the datasets.",
                  [header], rows, [72.0, 260.0, 330.0], 560)
    body = prose("We propose a language model with subword units.", 72, 690)
    claims = by_value(claims_of([Page(lines=body, tables=[table])]))
    for value in (rows[1][1], rows[1][2]):
        claim = claims[value]
        assert claim.confidence < CONFIDENT
        assert claim.dataset_source == "name_underspecified"


@pytest.mark.parametrize("family", ["Zeta", "Morrow"])
def test_a_bare_family_name_in_a_sentence_is_no_confident_dataset(family: str) -> None:
    body = prose(f"We evaluate on the {family}-10 and {family}-100 datasets. We show results on "
                 f"{family}. Our deep network reaches a test error of 5.37% on {family}.", 72, 690)
    claims = by_value(claims_of([Page(lines=body)]))
    assert claims["5.37"].dataset_name == family
    assert claims["5.37"].confidence < CONFIDENT


# --- a group header beside sibling names ----------------------------------------------------


@pytest.mark.parametrize(("names", "group"), [
    (["Brindle", "Matched", "Mismatched", "QRB-5"], (2, 3, "Zorvex")),
    (["Tallis-2", "Quillon", "In-domain", "Cross-domain"], (3, 4, "Marrowind")),
])
def test_a_group_header_heads_only_its_own_columns(names: list[str],
                                                   group: tuple[int, int, str]) -> None:
    col0, col1, title = group
    table = Table("Table 3: Results of the sentence matchers.",
                  [["", "", "", "", ""], ["Model", *names], ["", "Acc.", "Acc.", "Acc.", "Acc."]],
                  [["Bag encoder [7]", "80.1", "64.2", "63.9", "77.5"],
                   ["Ours", "82.6", "66.8", "66.1", "79.0"]],
                  [72.0, 220.0, 290.0, 360.0, 430.0], 560,
                  spans=[(0, col0, col1, title)], right=500)
    tables = extract_tables(render([Page(lines=prose("We match sentences.", 72, 690),
                                         tables=[table])]))
    assert tables
    parsed = tables[0]
    heads = {c: " ".join(parsed.column_header(c)) for c in range(1, 5)}
    assert any(title in heads[col] for col in range(col0, col1 + 1)), heads
    assert not any(title in heads[col] for col in range(1, 5) if not col0 <= col <= col1), heads


# --- another team's number ------------------------------------------------------------------


def _context() -> PaperContext:
    return PaperContext(title="Deep nets", abstract="", own_names=["QNet"],
                        dataset_counts={}, dataset_names={})  # type: ignore[arg-type]


@pytest.mark.parametrize("subject", ["The second-best submission of the shared task",
                                     "The runner-up of the challenge",
                                     "Entries of other teams"])
def test_another_teams_result_is_a_baseline(subject: str) -> None:
    assert role_of(subject, "", _context()) == "baseline"


def test_our_own_entry_stays_unknown_or_own() -> None:
    assert role_of("Our best entry", "", _context()) == "own"


# --- metric names ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "metric"), [
    ("mean negative log-probabilities per frame", "nll"),
    ("the negative log-probability of the test notes", "nll"),
    ("RG-1 (R)", "rouge_1"),
    ("RG-L (F)", "rouge_l"),
])
def test_metric_names_of_real_papers(text: str, metric: str) -> None:
    assert find_metric_mentions(text)[0][0] == metric


# --- stacked sub-tables, each under its own 'X | metric' header ------------------------------


@pytest.mark.parametrize("blocks", [
    [("Quorin-16 Alpha-Beta", ["Gated RNN [4]", "27.3"], ["Ours", "29.8"]),
     ("Quorin-14 Alpha-Gamma", ["Deep LSTM [9]", "21.6"], ["Ours", "24.9"])],
    [("Velk-9 test", ["Tree model [2]", "61.0"], ["Ours", "64.2"]),
     ("Velk-12 test", ["Tree model [2]", "55.5"], ["Ours", "58.1"]),
     ("Velk-15 test", ["Tree model [2]", "49.9"], ["Ours", "52.6"])],
])
def test_stacked_blocks_above_a_caption_are_all_read(
        blocks: list[tuple[str, list[str], list[str]]]) -> None:
    tables = []
    top = 640.0
    for name, *rows in blocks:
        tables.append(Table("", [[name, "BLEU"]], rows, [72.0, 300.0], top, rules=False))
        top -= 12 * (len(rows) + 1) + 18  # a gap wider than the row pitch between blocks
    last = tables[-1]
    tables[-1] = Table("Table 1: Translation quality compared to earlier work.", last.header,
                       last.rows, last.x, last.top, rules=False)
    tables = [Table(t.caption, t.header, t.rows, t.x, t.top, rules=False) for t in tables]
    pdf = render([Page(lines=prose("We translate sentences.", 72, 700), tables=tables)])
    parsed = extract_tables(pdf)
    corners = {t.label_headers()[0] for t in parsed if t.label_headers()}
    assert corners >= {name for name, *_ in blocks}, corners


@pytest.mark.parametrize("title", ["Tuned on the Parlow and Quent collections together",
                                   "Models fine-tuned with extra Parlow sentences"])
def test_a_long_group_title_over_one_value_column_keeps_one_table(title: str) -> None:
    from reportlab.lib.pagesizes import LETTER
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=LETTER, invariant=1)
    c.setFont("Helvetica", 9)
    c.drawString(72, 700, "We compare sentence encoders.")
    y = 640.0
    c.drawString(72, y, "Model")
    c.drawString(300, y, "Spearman")
    rows = [("Bag encoder", "61.2"), ("Tree encoder", "66.0"), (title, None),
            ("Gated encoder", "78.4"), ("Ours", "81.9")]
    for label, value in rows:
        y -= 12
        c.drawString(72 if value else 140, y, label)
        if value:
            c.drawString(300, y, value)
    c.drawString(72, y - 20, "Table 2: Evaluation on the Parlow test set.")
    c.showPage()
    c.save()
    parsed = [t for t in extract_tables(buf.getvalue()) if t.number == "2"]
    assert len(parsed) == 1
    assert [r[0] for r in parsed[0].rows][-1] == "Ours"
    assert len(parsed[0].rows) == 4


@pytest.mark.parametrize("head", ["Stacked Readers for Long Documents",
                                  "Gated Units in Sequence Models"])
def test_a_running_head_across_both_columns_is_no_table_header(head: str) -> None:
    from repro_assets.papers.tables.layout import Line, Word
    from repro_assets.papers.tables.reader import _clipped

    size = 9.0
    words = []
    x = 200.0
    for text in head.split():
        words.append(Word(x, 50.0, x + 6 * len(text), 50.0 + size, text))
        x += 6 * len(text) + 3
    middle = 306.0
    inside = [w for w in words if w.xc >= middle]
    outside = [w for w in words if w.xc < middle]
    assert _clipped(Line(inside), outside, middle, 612.0)
    # a table header level with prose of the other column, a gutter away, is no clipped line
    alone = [Word(330.0, 50.0, 380.0, 59.0, "Method"), Word(500.0, 50.0, 530.0, 59.0, "F1")]
    prose_left = [Word(60.0, 50.0, 120.0, 59.0, "running"), Word(124.0, 50.0, 282.0, 59.0, "x")]
    assert not _clipped(Line(alone), prose_left, middle, 612.0)


# --- training data, language pairs, sentences -------------------------------------------------


def test_a_negated_training_cue_names_no_training_data() -> None:
    from repro_assets.papers.claims.datasets import training_data

    assert training_data("Qorb", "Models are trained on Qorb only.")
    assert not training_data("Qorb", "Results on Vell (without training text from Qorb).")
    assert not training_data("Qorb", "a tagger with no pre-training on Qorb")


@pytest.mark.parametrize(("text", "name"), [
    ("We ran our model on the Zarn’15 English to Czech dataset.", "Zarn’15 English to Czech"),
    ("Results on the Quell German to French corpus are below.", "Quell German to French"),
])
def test_a_language_pair_with_to_is_one_name(text: str, name: str) -> None:
    from repro_assets.papers.claims.datasets import name_phrases

    assert [n for n, _ in name_phrases(text)] == [name]


@pytest.mark.parametrize(("sentence", "want"), [
    ("Our single model gives top-1/top-5 errors of 19.2%/4.1% on the Pellam set.",
     {"19.2": "top1_error", "4.1": "top5_error"}),
    ("It reaches top-1/top-5 accuracies of 76.4/93.0 on the Pellam set.",
     {"76.4": "top1_accuracy", "93.0": "top5_accuracy"}),
])
def test_paired_topk_numbers_take_their_own_k(sentence: str, want: dict[str, str]) -> None:
    body = prose("We classify images of the Pellam benchmark. " + sentence, 72, 690)
    claims = by_value(claims_of([Page(lines=body)]))
    assert {v: claims[v].metric_name for v in want} == want


@pytest.mark.parametrize(("first", "second"), [("Tarn-10", "Tarn-100"), ("Wexa", "Pobble-7")])
def test_a_number_in_parentheses_is_on_the_name_before_it(first: str, second: str) -> None:
    body = prose(f"We use the {first} and {second} datasets. Our deep network improves on "
                 f"{first} (3.87% error) and {second}.", 72, 690)
    claims = by_value(claims_of([Page(lines=body)]))
    assert claims["3.87"].dataset_name == first


# --- table roles: what a 'Datasets' header cell heads, dataset summaries, language blocks ----


@pytest.mark.parametrize(("corner", "heads"), [("Datasets", ["Korvo2000", "Korvo2003"]),
                                               ("Dataset", ["Pell-A", "QXT", "Marrow-9"])])
def test_a_dataset_header_cell_over_name_columns_heads_the_columns(
        corner: str, heads: list[str]) -> None:
    rows = [["Conv tagger", *[f"8{k}.4" for k in range(len(heads))]],
            ["Ours", *[f"9{k}.1" for k in range(len(heads))]]]
    table = Table("Table 6: F1 scores of the taggers.", [[corner, *heads]], rows,
                  [72.0, 220.0, 300.0, 380.0][:len(heads) + 1], 560)
    body = prose("We propose a tagger and evaluate it on " + ", ".join(heads) + " datasets.",
                 72, 690)
    claims = by_value(claims_of([Page(lines=body, tables=[table])]))
    for k, head in enumerate(heads):
        assert claims[f"9{k}.1"].dataset_name == head
        assert claims[f"8{k}.4"].dataset_name == head


@pytest.mark.parametrize("caption", [
    "Table 1: A summary of the datasets, with the number of classes and the average length.",
    "Table 1: Description of the text datasets: number of classes and of documents.",
])
def test_a_dataset_summary_table_gives_no_claims(caption: str) -> None:
    table = Table(caption, [["Dataset", "C"]],
                  [["Quillnews", "4"], ["Vexbank", "20"], ["Pollard", "5"]],
                  [72.0, 220.0], 560)
    body = prose("Abstract. We propose a network for text classification. We classify the "
                 "documents of the Quillnews, Vexbank and Pollard datasets.", 72, 690)
    claims = by_value(claims_of([Page(title="Gated Readers for Text Classification",
                                      lines=body, tables=[table])]))
    assert not {"4", "20", "5"} & set(claims)


@pytest.mark.parametrize("codes", [("CS", "IT"), ("FI", "NL")])
def test_a_language_code_block_takes_its_sub_rows_as_datasets(codes: tuple[str, str]) -> None:
    rows = [[codes[0], "Lexical", "41.2", "44.6"], [codes[0], "Morphemic", "52.0", "58.3"],
            [codes[1], "Lexical", "36.9", "39.5"], [codes[1], "Morphemic", "47.7", "55.1"]]
    table = Table("Table 2: Accuracy of our model and the baselines on word analogy tasks.",
                  [["", "", "skip", "ours"]], rows, [72.0, 110.0, 250.0, 320.0], 560)
    claims = by_value(claims_of([Page(lines=prose("We learn word vectors.", 72, 690),
                                      tables=[table])]))
    assert claims["58.3"].dataset_name == f"{codes[0]} Morphemic"
    assert claims["39.5"].dataset_name == f"{codes[1]} Lexical"


@pytest.mark.parametrize("sentence", [
    "The evaluation metric of the Harbornews is the macro-F1 measure.",
    "Harbornews is evaluated with macro-F1 as in earlier work.",
])
def test_a_body_sentence_gives_a_dataset_its_metric(sentence: str) -> None:
    table = Table("Table 2: Test set results of the classifiers.",
                  [["Model", "Harbor", "Quintet"]],
                  [["Bag of words", "90.2", "81.4"], ["Ours", "93.5", "84.0"]],
                  [72.0, 220.0, 300.0], 560)
    data = Table("Table 1: The datasets.", [["Dataset", "Classes"]],
                 [["Harbor", "4"], ["Quintet", "9"]], [72.0, 220.0], 640)
    body = prose(f"We propose a text classifier. {sentence} The other dataset uses accuracy.",
                 72, 720)
    claims = by_value(claims_of([Page(lines=body, tables=[data, table])]))
    assert claims["93.5"].metric_name == "f1"
    assert claims["84.0"].metric_name == "accuracy"


# --- a language-pair column, a header whose words the caption prints -------------------------


@pytest.mark.parametrize(("codes", "pairs"), [
    (("EN-CS", "EN-FI"), ("English-to-Czech", "English-to-Finnish")),
    (("DE-EN", "RO-EN"), ("German-to-English", "Romanian-to-English")),
])
def test_a_language_pair_column_takes_the_captions_pair(codes: tuple[str, str],
                                                        pairs: tuple[str, str]) -> None:
    table = Table(f"Table 2: BLEU of the translators on the {pairs[0]} and {pairs[1]} "
                  "newsdev2031 tests.", [["", "BLEU", "BLEU"], ["Model", *codes]],
                  [["Phrase system [4]", "20.4", "31.7"], ["Ours", "23.9", "35.2"]],
                  [72.0, 250.0, 320.0], 560)
    body = prose("We propose a translator. Table 2 shows the results on the Quarto 2031 "
                 f"{pairs[0]} benchmark.", 72, 690)
    claims = by_value(claims_of([Page(lines=body, tables=[table])]))
    assert claims["35.2"].dataset_name == f"{pairs[1]} newsdev2031"
    assert pairs[1] not in claims["23.9"].dataset_name


@pytest.mark.parametrize(("header", "caption"), [
    ("QTB 24 F1", "Table 4: Parsing results (on part 24 of QTB)."),
    ("PKT 3 F1", "Table 4: Results on PKT, part 3, with gold tags."),
])
def test_a_header_whose_words_the_caption_prints_names_the_data(header: str,
                                                                 caption: str) -> None:
    table = Table(caption, [["Parser", header]],
                  [["Chart parser [2]", "88.1"], ["Ours", "90.6"]], [72.0, 260.0], 560)
    body = prose("We propose a parser. We train it on the Oakleaf English treebank.", 72, 690)
    claims = by_value(claims_of([Page(lines=body, tables=[table])]))
    assert claims["90.6"].dataset_name == header.rsplit(" ", 1)[0]


@pytest.mark.parametrize("holder", ["the runner-up of the challenge",
                                    "the second-best submission"])
def test_a_number_achieved_by_another_team_is_no_headline(holder: str) -> None:
    body = prose("We enter our network in the Quarrel-2031 challenge. Our network reaches a "
                 f"top-5 error of 12.4%, compared to 21.9% achieved by {holder}.", 72, 690)
    claims = by_value(claims_of([Page(lines=body)]))
    assert claims["21.9"].role == "baseline"
    assert claims["12.4"].role != "baseline"
