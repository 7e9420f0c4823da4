"""Generate the sample papers in ``data/samples/papers/``.

Run ``python -m repro_assets.papers.samples``.

Three short, realistic ML papers whose numbers come from a real CPU run with scikit-learn
(stratified 80/20 split, ``random_state=42``, standardised features), rounded to one decimal.
Their results tables print accuracy and macro-F1 (%) on datasets scikit-learn ships (breast
cancer, digits, wine, iris), so the later stages can reproduce them offline.

The PDFs are deterministic: reportlab's ``invariant`` mode fixes dates and document ids, so
regenerating gives the same bytes. Table layouts differ on purpose: a fully ruled grid, a
grid with a two-row header, and a booktabs-style table with only horizontal rules, numbers
with standard deviations and a dash for a missing cell (which table finders often miss).
"""

from __future__ import annotations

import argparse
import io
import sys
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY
from reportlab.lib.pagesizes import LETTER
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import (
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from repro_assets.settings import samples_dir


@dataclass(frozen=True)
class SampleTable:
    """A results table: caption, header rows, body rows and the table style."""

    caption: str
    header: list[list[str]]
    rows: list[list[str]]
    style: str  # "grid" | "booktabs"
    #: (row label, dataset, metric, printed value) for every numeric cell.
    cells: list[tuple[str, str, str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class SamplePaper:
    """One sample paper."""

    slug: str
    title: str
    authors: str
    affiliation: str
    abstract: str
    sections: list[tuple[str, list[str]]]
    table: SampleTable
    table_after_section: str
    references: list[str]


def _table_cells(
    rows: list[list[str]], columns: list[tuple[str, str]]
) -> list[tuple[str, str, str, str]]:
    """Expand a table body into (row label, dataset, metric, printed value) cells."""
    out: list[tuple[str, str, str, str]] = []
    for row in rows:
        for (dataset, metric), value in zip(columns, row[1:], strict=True):
            if value.strip() in {"-", "–", "—", ""}:
                continue
            out.append((row[0], dataset, metric, value.split("±")[0].strip()))
    return out


_BC_ROWS = [
    ["Logistic regression (L2)", "98.2", "98.1", "97.2", "97.1"],
    ["Linear SVM (ours)", "96.5", "96.2", "97.2", "97.1"],
    ["Random forest", "95.6", "95.3", "100.0", "100.0"],
    ["Gradient boosting", "95.6", "95.2", "94.4", "94.5"],
]
_BC_COLUMNS = [
    ("Breast Cancer Wisconsin", "accuracy"),
    ("Breast Cancer Wisconsin", "f1"),
    ("Wine", "accuracy"),
    ("Wine", "f1"),
]

_DIGITS_ROWS = [
    ["MLP-64 (ours)", "98.3", "98.3"],
    ["Logistic regression", "97.2", "97.2"],
    ["Linear SVM", "95.6", "95.5"],
    ["Random forest", "96.4", "96.3"],
    ["Gradient boosting", "95.3", "95.2"],
]
_DIGITS_COLUMNS = [("Digits", "accuracy"), ("Digits", "f1")]

_IRIS_ROWS = [
    ["Gradient boosting (ours)", "96.7 ± 3.7", "96.7", "94.4 ± 2.2", "94.5"],
    ["Random forest", "90.0 ± 3.7", "90.0", "100.0 ± 1.1", "100.0"],
    ["Logistic regression", "93.3 ± 4.5", "93.3", "97.2 ± 1.4", "97.1"],
    ["MLP", "86.7 ± 8.3", "86.5", "97.2 ± 0.0", "–"],
]
_IRIS_COLUMNS = [("Iris", "accuracy"), ("Iris", "f1"), ("Wine", "accuracy"), ("Wine", "f1")]

REFERENCES_COMMON = [
    "Pedregosa, F. et al. Scikit-learn: Machine Learning in Python. Journal of Machine "
    "Learning Research, 12:2825-2830, 2011.",
    "Dua, D. and Graff, C. UCI Machine Learning Repository. University of California, "
    "Irvine, 2019.",
]

SAMPLE_PAPERS: tuple[SamplePaper, ...] = (
    SamplePaper(
        slug="linear_svm_breast_cancer",
        title="Well-Regularized Linear SVMs Are Strong Baselines for Tabular Diagnosis",
        authors="Maria Keller, Tomas Novak, Aisha Rahman",
        affiliation="Institute for Reproducible Machine Learning, University of Tartu",
        abstract=(
            "Deep tabular models are often compared against weak baselines. We revisit linear "
            "classifiers on two small clinical and chemical benchmarks and show that careful "
            "regularization closes most of the gap. Our linear SVM achieves 96.5% accuracy on "
            "the Breast Cancer Wisconsin dataset and 97.2% accuracy on the Wine dataset, "
            "while training in under a second on a laptop CPU. We release a fully specified "
            "protocol so that every number in this paper can be reproduced."
        ),
        sections=[
            ("1 Introduction", [
                "Tabular classification remains the most common setting for machine learning "
                "in medicine. Benchmarks such as the Breast Cancer Wisconsin (Diagnostic) data "
                "are small, which makes them sensitive to preprocessing and to the choice of "
                "regularization. We argue that a linear support vector machine with "
                "standardized inputs is a baseline every tabular method should report.",
            ]),
            ("2 Method", [
                "We train a linear SVM with hinge loss and an L2 penalty. Inputs are "
                "standardized to zero mean and unit variance using statistics of the "
                "training split only. The regularization strength is C = 1.0 and the solver "
                "runs for at most 10000 iterations. We compare against L2-regularized "
                "logistic regression (C = 1.0), a random forest with 200 trees, and gradient "
                "boosting with 100 estimators, learning rate 0.1 and maximum depth 3.",
            ]),
            ("3 Experimental Setup", [
                "We use the Breast Cancer Wisconsin dataset (569 samples, 30 features) and "
                "the Wine recognition dataset (178 samples, 13 features), both distributed "
                "with scikit-learn. Each dataset is split into 80% training and 20% test data "
                "with a stratified split. All experiments use random seed 42 and run on a "
                "single CPU core. We report test accuracy and macro-averaged F1.",
            ]),
            ("4 Results", [
                "Table 1 summarizes the results. On Breast Cancer Wisconsin the linear SVM "
                "reaches 96.5% accuracy with an F1 score of 96.2%, within two points of "
                "logistic regression. On Wine all linear models reach 97.2% accuracy.",
            ]),
            ("5 Conclusion", [
                "Simple, well-regularized linear models remain competitive on small tabular "
                "benchmarks and should be reported alongside more complex methods.",
            ]),
        ],
        table=SampleTable(
            caption="Table 1: Test accuracy (%) and macro-F1 (%) on the Breast Cancer "
            "Wisconsin and Wine test splits (seed 42).",
            header=[
                ["Model", "Breast Cancer", "", "Wine", ""],
                ["", "Acc.", "F1", "Acc.", "F1"],
            ],
            rows=_BC_ROWS,
            style="grid",
            cells=_table_cells(_BC_ROWS, _BC_COLUMNS),
        ),
        table_after_section="4 Results",
        references=[
            "Street, W. N., Wolberg, W. H. and Mangasarian, O. L. Nuclear feature extraction "
            "for breast tumor diagnosis. Biomedical Image Processing and Biomedical "
            "Visualization, 1905:861-870, 1993.",
            "Cortes, C. and Vapnik, V. Support-vector networks. Machine Learning, "
            "20(3):273-297, 1995.",
            *REFERENCES_COMMON,
        ],
    ),
    SamplePaper(
        slug="compact_mlp_digits",
        title="Compact Multilayer Perceptrons for Handwritten Digit Recognition on CPUs",
        authors="Daniel Osei, Lena Hoffmann",
        affiliation="Department of Computer Science, University of Ghana",
        abstract=(
            "We study how small a neural network can be while still outperforming classical "
            "classifiers on low-resolution handwritten digits. A multilayer perceptron with a "
            "single hidden layer of 64 units achieves 98.3% accuracy on the UCI handwritten "
            "Digits dataset, ahead of logistic regression, linear SVMs and tree ensembles, "
            "and trains in seconds without a GPU."
        ),
        sections=[
            ("1 Introduction", [
                "The 8x8 handwritten digits collected by Alpaydin and Kaynak are a classic "
                "benchmark for small classifiers. Much recent work focuses on large "
                "convolutional networks; we ask what a compact fully connected network can "
                "achieve on a commodity CPU.",
            ]),
            ("2 Model", [
                "Our model is a multilayer perceptron (MLP) with one hidden layer of 64 ReLU "
                "units followed by a softmax output layer over the 10 digit classes. It is "
                "trained with the cross-entropy loss.",
            ]),
            ("3 Training Details", [
                "We train for 50 epochs with the Adam optimizer, a learning rate of 0.001 and "
                "a batch size of 32. We apply an L2 penalty of 0.0001 on the weights and use "
                "no dropout. Inputs are standardized. The data is split 80/20 into stratified "
                "training and test sets with random seed 42.",
                "Baselines use scikit-learn defaults with standardized inputs: logistic "
                "regression (C = 1.0), a linear SVM (C = 1.0), a random forest with 200 "
                "trees and gradient boosting with 100 estimators.",
            ]),
            ("4 Results", [
                "The MLP reaches an accuracy of 98.3% and a macro F1 of 98.3% on the held-out "
                "test set. Logistic regression is the strongest baseline at 97.2% accuracy.",
            ]),
            ("5 Discussion", [
                "A compact MLP is sufficient for low-resolution digits. Larger hidden layers "
                "did not improve test accuracy in preliminary runs.",
            ]),
        ],
        table=SampleTable(
            caption="Table 2: Results on the Digits test set (accuracy and macro-F1, %).",
            header=[["Model", "Accuracy", "F1"]],
            rows=_DIGITS_ROWS,
            style="grid",
            cells=_table_cells(_DIGITS_ROWS, _DIGITS_COLUMNS),
        ),
        table_after_section="4 Results",
        references=[
            "Alpaydin, E. and Kaynak, C. Optical Recognition of Handwritten Digits. UCI "
            "Machine Learning Repository, 1998.",
            "Kingma, D. P. and Ba, J. Adam: A method for stochastic optimization. In ICLR, "
            "2015.",
            *REFERENCES_COMMON,
        ],
    ),
    SamplePaper(
        slug="gradient_boosting_uci",
        title="Shallow Gradient Boosting on Small UCI Benchmarks: A Reproducibility Study",
        authors="Priya Natarajan, Jonas Berg, Chen Wei",
        affiliation="Centre for Open Science in AI, KTH Royal Institute of Technology",
        abstract=(
            "Small benchmarks are still used to compare tree ensembles, yet reported numbers "
            "vary widely across papers. We fix the split, the seed and every hyperparameter and "
            "find that shallow gradient boosting reaches 96.7% accuracy on the Iris dataset, "
            "while random forests remain best on Wine."
        ),
        sections=[
            ("1 Introduction", [
                "Gradient boosted decision trees dominate tabular leaderboards. On very small "
                "datasets, however, their advantage over bagging and linear models is unclear "
                "and depends on the evaluation protocol.",
            ]),
            ("2 Method", [
                "We fit gradient boosting with 100 estimators, a learning rate of 0.1 and a "
                "maximum depth of 3, using the deviance loss. The random forest uses 200 trees; "
                "logistic regression uses C = 1.0; the MLP has one hidden layer of 64 units and "
                "is trained for 50 epochs with learning rate 0.001.",
            ]),
            ("3 Protocol", [
                "We evaluate on the Iris dataset (150 samples, 3 classes) and the Wine dataset "
                "(178 samples, 3 classes) from scikit-learn. Each dataset is split into "
                "stratified 80% train and 20% test sets with seed 42; standard deviations are "
                "over five further splits (seeds 0 to 4). We report accuracy and macro F1.",
            ]),
            ("4 Results", [
                "Gradient boosting obtains 96.7% accuracy on Iris. On Wine, the random forest "
                "classifies every test sample correctly. The MLP F1 on Wine was not recorded.",
            ]),
            ("5 Conclusion", [
                "Shallow boosting is a strong choice on Iris but not uniformly best; small "
                "benchmarks need fixed protocols to be comparable.",
            ]),
        ],
        table=SampleTable(
            caption="Table 3: Accuracy (%, mean ± std) and macro-F1 (%) on Iris and Wine.",
            header=[["Model", "Iris Acc.", "Iris F1", "Wine Acc.", "Wine F1"]],
            rows=_IRIS_ROWS,
            style="booktabs",
            cells=_table_cells(_IRIS_ROWS, _IRIS_COLUMNS),
        ),
        table_after_section="4 Results",
        references=[
            "Fisher, R. A. The use of multiple measurements in taxonomic problems. Annals of "
            "Eugenics, 7(2):179-188, 1936.",
            "Friedman, J. H. Greedy function approximation: a gradient boosting machine. "
            "Annals of Statistics, 29(5):1189-1232, 2001.",
            "Breiman, L. Random forests. Machine Learning, 45(1):5-32, 2001.",
            *REFERENCES_COMMON,
        ],
    ),
)


def _styles() -> dict[str, ParagraphStyle]:
    base = getSampleStyleSheet()
    return {
        "title": ParagraphStyle("T", parent=base["Title"], fontName="Times-Bold", fontSize=16,
                                leading=20, alignment=TA_CENTER),
        "authors": ParagraphStyle("A", parent=base["Normal"], fontName="Times-Roman",
                                  fontSize=11, alignment=TA_CENTER, leading=14),
        "heading": ParagraphStyle("H", parent=base["Heading2"], fontName="Times-Bold",
                                  fontSize=12, spaceBefore=8, spaceAfter=4),
        "body": ParagraphStyle("B", parent=base["Normal"], fontName="Times-Roman", fontSize=10.5,
                               leading=13.5, alignment=TA_JUSTIFY, spaceAfter=6),
        "abstract": ParagraphStyle("Ab", parent=base["Normal"], fontName="Times-Italic",
                                   fontSize=10, leading=13, leftIndent=30, rightIndent=30,
                                   alignment=TA_JUSTIFY, spaceAfter=8),
        "caption": ParagraphStyle("C", parent=base["Normal"], fontName="Times-Roman",
                                  fontSize=9.5, leading=12, alignment=TA_CENTER, spaceAfter=10),
        "ref": ParagraphStyle("R", parent=base["Normal"], fontName="Times-Roman", fontSize=9,
                              leading=11.5, leftIndent=14, firstLineIndent=-14, spaceAfter=3),
    }


def _table(spec: SampleTable) -> Table:
    data = [*spec.header, *spec.rows]
    table = Table(data, hAlign="CENTER")
    n_header = len(spec.header)
    commands: list[tuple[object, ...]] = [
        ("FONTNAME", (0, 0), (-1, -1), "Times-Roman"),
        ("FONTNAME", (0, 0), (-1, n_header - 1), "Times-Bold"),
        ("FONTSIZE", (0, 0), (-1, -1), 9.5),
        ("ALIGN", (1, 0), (-1, -1), "CENTER"),
    ]
    if spec.style == "grid":
        commands.append(("GRID", (0, 0), (-1, -1), 0.5, colors.black))
        if n_header == 2:
            commands += [("SPAN", (1, 0), (2, 0)), ("SPAN", (3, 0), (4, 0)),
                         ("SPAN", (0, 0), (0, 1))]
    else:
        commands += [
            ("LINEABOVE", (0, 0), (-1, 0), 1.0, colors.black),
            ("LINEBELOW", (0, n_header - 1), (-1, n_header - 1), 0.5, colors.black),
            ("LINEBELOW", (0, -1), (-1, -1), 1.0, colors.black),
        ]
    table.setStyle(TableStyle(commands))
    return table


def render_pdf(paper: SamplePaper) -> bytes:
    """Render one sample paper to PDF bytes (deterministic)."""
    styles = _styles()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=LETTER, leftMargin=inch, rightMargin=inch, topMargin=inch,
        bottomMargin=inch, title=paper.title, author=paper.authors,
        subject="Sample paper for repro_assets", creator="repro_assets.papers.samples",
        producer="reportlab", invariant=True,
    )
    story: list[object] = [
        Paragraph(paper.title, styles["title"]),
        Paragraph(paper.authors, styles["authors"]),
        Paragraph(paper.affiliation, styles["authors"]),
        Spacer(1, 12),
        Paragraph("<b>Abstract</b>", styles["heading"]),
        Paragraph(paper.abstract, styles["abstract"]),
    ]
    for heading, paragraphs in paper.sections:
        story.append(Paragraph(heading, styles["heading"]))
        story.extend(Paragraph(text, styles["body"]) for text in paragraphs)
        if heading == paper.table_after_section:
            story.append(KeepTogether([
                Spacer(1, 6), _table(paper.table), Spacer(1, 4),
                Paragraph(paper.table.caption, styles["caption"]),
            ]))
    story.append(Paragraph("References", styles["heading"]))
    story.extend(
        Paragraph(f"[{n}] {ref}", styles["ref"]) for n, ref in enumerate(paper.references, 1)
    )
    doc.build(story)
    return buffer.getvalue()


def sample_papers_dir() -> Path:
    """Folder of the sample paper PDFs."""
    return samples_dir() / "papers"


def write_samples(folder: Path | None = None) -> list[Path]:
    """Write every sample paper as ``<slug>.pdf`` into ``folder`` and return the paths."""
    target = folder or sample_papers_dir()
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for paper in SAMPLE_PAPERS:
        path = target / f"{paper.slug}.pdf"
        data = render_pdf(paper)
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """CLI entry point: write the samples and list them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="target folder")
    args = parser.parse_args(argv)
    for path in write_samples(args.out):
        sys.stdout.write(f"{path} {path.stat().st_size} bytes\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
