"""Precision of the offline claims reader: a value is attached to the dataset the paper says
it is for, or to none (issue #13: a certain-looking wrong value is worse than a miss)."""

from __future__ import annotations

from repro_assets.papers.claims import Claim, ClaimsError, extract_claims
from repro_assets.papers.pages import extract_pages
from tests.papers.layouts import Page, Table, prose, render


def claims_of(pdf: bytes) -> list[Claim]:
    return extract_claims(extract_pages(pdf, "precision"), pdf).claims


def _sectioned_paper() -> bytes:
    """Section 4 names its dataset in its introduction, Table 1 is discussed in 4.1; Table 2 is
    discussed in section 5, whose sub-section 5.1 (its number printed apart from its title) and
    a figure caption (glued to the plot's labels) are about another dataset."""
    single = Table("Table 1: Network performance at a single test scale.",
                   [["Config", "top-1 error (%)"]], [["A", "29.6"], ["B", "28.7"]],
                   [72.0, 250.0], 520)
    page1 = ([(72, 700, "4 Classification experiments")]
             + prose("In this section we present the classification results of our networks "
                     "on the ZetaNet-12 dataset.", 72, 686)
             + [(72, 650, "4.1 Single scale evaluation")]
             + prose("We first evaluate each network at a single scale. The results are shown "
                     "in Table 1.", 72, 636))
    frames = Table("Table 2: Soft targets generalize well from 3% of the training set.",
                   [["System", "Test Frame Accuracy"]],
                   [["Baseline", "58.9%"], ["Soft targets", "57.0%"]], [72.0, 250.0], 560)
    page2 = ([(72, 700, "5 Soft targets as regularizers"), (72, 686, "Baseline Soft Hard"),
              (72, 674, "Figure 2: Soft and hard targets on the QXR dataset.")]
             + prose("In this section we fit the speech model with far less data. Table 2 "
                     "shows that soft targets recover almost all of the information.", 72, 660)
             + [(72, 620, "5.1"), (96, 620, "Specialists and their targets")]
             + prose("The specialists that we used in our experiments on the QXR dataset "
                     "collapse all non-specialist classes into one class.", 72, 606))
    return render([Page(title="Deep Networks at Scale", lines=page1, tables=[single]),
                   Page(lines=page2, tables=[frames])])


def test_a_table_takes_the_dataset_its_section_introduction_names() -> None:
    claims = claims_of(_sectioned_paper())
    table1 = {(c.dataset_name, c.printed_value) for c in claims
              if c.source_citation.startswith("Table 1")}
    assert table1 == {("ZetaNet-12", "29.6"), ("ZetaNet-12", "28.7")}


def test_a_sub_section_about_other_data_does_not_name_the_table_dataset() -> None:
    claims = claims_of(_sectioned_paper())
    assert not [c for c in claims if c.printed_value in {"58.9", "57.0"}]


def test_a_sentence_about_an_unnamed_benchmark_is_not_given_a_nearby_dataset() -> None:
    lines = prose("Our model achieves 76.5 accuracy on the PixNet dataset. Specifically in QRS "
                  "for the PixNet supervised baseline, we find fine-tuning with frozen "
                  "normalization (24.4 AP) inferior to the 27.1 AP of the full model.", 72, 700)
    claims = claims_of(render([Page(lines=lines)]))
    assert [(c.dataset_name, c.printed_value) for c in claims] == [("PixNet", "76.5")]
    assert not [c for c in claims if c.printed_value in {"24.4", "27.1"}
                and c.dataset_name == "PixNet"]


def test_a_section_about_two_numbered_datasets_names_neither_for_the_table() -> None:
    """'Zeta-10 and Zeta-100' are two datasets (like two yearly editions are not)."""
    table = Table("Table 1: Test errors of the baseline and of our training.",
                  [["Model", "Baseline", "Ours"]],
                  [["ResNet-18", "5.6", "4.2"], ["WideNet-28", "3.8", "2.7"]],
                  [72.0, 200.0, 280.0], 560)
    lines = ([(72, 700, "3 Image classification")]
             + prose("We conduct experiments on the Zeta-10 and Zeta-100 datasets. We "
                     "summarize our results in Table 1.", 72, 686))
    pdf = render([Page(title="Mixing Examples", lines=lines, tables=[table])])
    try:
        claims = claims_of(pdf)
    except ClaimsError as exc:
        assert exc.code == "E_EXTRACT_NO_OUTPUT"
        claims = []
    assert not [c for c in claims if c.printed_value in {"5.6", "4.2", "3.8", "2.7"}]


def test_a_sentence_repeating_a_table_claim_is_merged_into_it() -> None:
    """The sample paper's abstract repeats its table's headline: one claim, the table's."""
    from repro_assets.papers.samples import SAMPLE_PAPERS
    from tests.papers.test_claims_samples import sample_pages

    pages, data = sample_pages(SAMPLE_PAPERS[0])
    result = extract_claims(pages, data)
    bases = [(c.dataset_key, c.metric_name, round(c.metric_value, 6), c.split,
              c.method_snippet if c.extraction_method == "table" else None)
             for c in result.claims]
    assert len(bases) == len(set(bases)) and result.merged_duplicates >= 1
    table = {b[:4] for b, c in zip(bases, result.claims, strict=True)
             if c.extraction_method == "table"}
    assert not [c for b, c in zip(bases, result.claims, strict=True)
                if c.extraction_method == "sentence" and b[:4] in table]
    headline = [c for c in result.claims if c.printed_value == "96.5"
                and c.metric_name == "accuracy"]
    assert [c.extraction_method for c in headline] == ["table"]


def test_a_method_acronym_does_not_take_the_dataset_away() -> None:
    lines = prose("Our linear SVM achieves 96.5% accuracy on the Tumor Scans dataset. On the "
                  "Grapes dataset our linear SVM reaches 97.2% accuracy.", 72, 700)
    claims = claims_of(render([Page(lines=lines)]))
    assert {(c.dataset_name, c.printed_value) for c in claims} == {
        ("Tumor Scans", "96.5"), ("Grapes", "97.2")}


def _pointer_paper(two_datasets: bool) -> bytes:
    """Table 1 gives warping error on one challenge (or, with ``two_datasets``, on two); the
    body text restates a value with more digits and points at the table, naming no data
    itself, on a page where no earlier sentence names a dataset."""
    if two_datasets:
        table = Table("Table 1: Warping and Rand error of each method (lower is better).",
                      [["Dataset", "Method", "Warping Error", "Rand Error"]],
                      [["CellSeg-7", "our net", "0.000353", "0.0382"],
                       ["CellSeg-7", "sliding window [1]", "0.000420", "0.0504"],
                       ["QuokkaEM", "our net", "0.000411", "0.0611"],
                       ["QuokkaEM", "sliding window [1]", "0.000533", "0.0720"]],
                      [72.0, 160.0, 280.0, 380.0], 560)
    else:
        table = Table("Table 1: Ranking on the CellSeg-7 challenge (lower is better).",
                      [["Method", "Warping Error", "Rand Error"]],
                      [["our net", "0.000353", "0.0382"],
                       ["sliding window [1]", "0.000420", "0.0504"],
                       ["human values", "0.000005", "0.0021"]],
                      [72.0, 220.0, 320.0], 560)
    lines = ([(72, 700, "4 Experiments")]
             + prose("The evaluation thresholds the map at ten levels. Our network achieves "
                     "without any post-processing a warping error of 0.0003529 (the new best "
                     "score, see Table 1).", 72, 686))
    return render([Page(title="Segmenting Cells", lines=lines, tables=[table])])


def test_a_sentence_pointing_at_a_table_takes_its_only_dataset_for_the_metric() -> None:
    claims = claims_of(_pointer_paper(two_datasets=False))
    sentence = [c for c in claims if c.printed_value == "0.0003529"]
    assert [(c.dataset_name, c.metric_name) for c in sentence] == [
        ("CellSeg-7", "warping_error")]


def test_a_sentence_pointing_at_a_table_of_several_datasets_gets_none_of_them() -> None:
    claims = claims_of(_pointer_paper(two_datasets=True))
    assert not [c for c in claims if c.printed_value == "0.0003529"]


def test_a_train_column_is_the_training_split() -> None:
    from repro_assets.papers.claims.datasets import split_from

    assert split_from("Train") == "train"
    assert split_from("Training acc.") == "train"
    assert split_from("train Table 1: Accuracy on the Pairbank corpus. Train") == "train"
    assert split_from("Table 1: Accuracy on the Pairbank corpus. Test") == "test"
    assert split_from("Our model reaches 91.5% accuracy after training.") == "test"
    table = Table("Table 1: Accuracy of the pair models on the Pairbank corpus.",
                  [["Model", "Train", "Test"]],
                  [["Bag of pairs [3]", "83.9", "77.1"], ["Aligned pairs [5]", "90.6", "84.2"],
                   ["Ours", "93.4", "87.8"]], [72.0, 250.0, 330.0], 560)
    lines = prose("We match sentence pairs on the Pairbank corpus.", 72, 700)
    claims = claims_of(render([Page(title="Pair Matching", lines=lines, tables=[table])]))
    splits = {c.printed_value: c.split for c in claims}
    # a training-split figure is read as such and then refused: it is no claim
    assert "93.4" not in splits and splits.get("87.8") == "test"
