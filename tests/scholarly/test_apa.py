"""APA 7 references (citeproc-py + the shipped APA CSL) against examples from the APA manual."""

from __future__ import annotations

from repro_assets.scholarly.apa import csl_item, format_reference, reference_from_fields
from repro_assets.scholarly.models import Author, ScholarlyRecord


def test_journal_article_matches_apa_manual_example() -> None:
    # APA 7 manual, Example 1 (journal article with a DOI).
    record = ScholarlyRecord(
        source="crossref",
        external_id="10.1037/ppm0000185",
        title="Emotions in storybooks: A comparison of storybooks that represent ethnic and "
        "racial groups in the United States",
        authors=[
            Author(family="Grady", given="Jessica Stoltzfus"),
            Author(family="Her", given="Malina"),
            Author(family="Moreno", given="Geena"),
            Author(family="Perez", given="Catherine"),
            Author(family="Yelinek", given="Jillian"),
        ],
        year=2019,
        venue="Psychology of Popular Media Culture",
        volume="8",
        issue="3",
        pages="207-217",
        doi="10.1037/ppm0000185",
        work_type="journal-article",
    )
    assert format_reference(record) == (
        "Grady, J. S., Her, M., Moreno, G., Perez, C., & Yelinek, J. (2019). Emotions in "
        "storybooks: A comparison of storybooks that represent ethnic and racial groups in the "
        "United States. *Psychology of Popular Media Culture*, *8*(3), 207\u2013217. "
        "https://doi.org/10.1037/ppm0000185"
    )
    assert "*" not in format_reference(record, markdown=False)


def test_arxiv_preprint_uses_arxiv_number_and_datacite_doi() -> None:
    record = ScholarlyRecord(
        source="arxiv",
        external_id="1706.03762",
        title="Attention is all you need",
        authors=[Author.from_full_name(n) for n in (
            "Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones",
            "Aidan N. Gomez", "Lukasz Kaiser", "Illia Polosukhin")],
        year=2017,
    )
    assert format_reference(record) == (
        "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., "
        "Kaiser, L., & Polosukhin, I. (2017). *Attention is all you need* (arXiv:1706.03762). "
        "arXiv. https://doi.org/10.48550/arXiv.1706.03762"
    )


def test_proceedings_article_and_article_number() -> None:
    record = ScholarlyRecord(
        source="crossref",
        external_id="10.1145/3533767.3534401",
        title="Automated test generation for REST APIs: No time to rest yet",
        authors=[Author(family="Kim", given="Myeongsoo"), Author(family="Xin", given="Qi"),
                 Author(family="Sinha", given="Saurabh"),
                 Author(family="Orso", given="Alessandro")],
        year=2022,
        venue="Proceedings of the 31st ACM SIGSOFT International Symposium on Software Testing "
        "and Analysis",
        pages="289-301",
        publisher="ACM",
        doi="10.1145/3533767.3534401",
        work_type="proceedings-article",
    )
    # the official APA CSL formats proceedings published without editors like a periodical
    assert format_reference(record) == (
        "Kim, M., Xin, Q., Sinha, S., & Orso, A. (2022). Automated test generation for REST "
        "APIs: No time to rest yet. *Proceedings of the 31st ACM SIGSOFT International "
        "Symposium on Software Testing and Analysis*, 289\u2013301. "
        "https://doi.org/10.1145/3533767.3534401"
    )


def test_author_lists_initials_and_edge_cases() -> None:
    def authors(people: list[Author]) -> str:
        record = ScholarlyRecord(source="crossref", external_id="10.1/x", title="T",
                                 authors=people, year=2020, work_type="journal-article")
        return format_reference(record, markdown=False).split(" (2020)")[0]

    assert authors([Author(family="Boettiger", given="Carl")]) == "Boettiger, C."
    assert authors([Author(family="Dupont", given="Jean-Paul")]) == "Dupont, J.-P."
    assert authors([Author(family="A", given="Bo"), Author(family="C", given="Di")]) == (
        "A, B., & C, D.")
    many = authors([Author(family=f"F{i}", given="G") for i in range(1, 23)])
    assert many.startswith("F1, G., F2, G.,") and many.endswith("F19, G., \u2026 F22, G.")
    assert "F20" not in many
    assert authors([Author(family="King", given="Martin Luther", suffix="Jr.")]) == (
        "King, M. L., Jr.")
    assert authors([Author(family="World Health Organization")]) == "World Health Organization."


def test_no_date_no_author_and_question_title() -> None:
    record = ScholarlyRecord(source="crossref", external_id="10.1/x", title="Does it work?",
                             venue="Journal of Tests", doi="10.1/x", work_type="journal-article")
    assert format_reference(record) == (
        "Does it work? (n.d.). *Journal of Tests*. https://doi.org/10.1/x"
    )


def test_reference_from_flat_fields_splits_display_names() -> None:
    text = reference_from_fields(
        title="The forecast trap", authors=["Carl Boettiger"], year=2022,
        venue="Ecology Letters", doi="10.1111/ele.14024", url=None, source_kind="crossref",
        external_id="10.1111/ele.14024",
    )
    assert text == (
        "Boettiger, C. (2022). The forecast trap. *Ecology Letters*. "
        "https://doi.org/10.1111/ele.14024"
    )


def test_formatted_by_citeproc_with_the_shipped_csl_style() -> None:
    from repro_assets.scholarly.apa import style

    assert style().root.info.title.text == "APA Style 7th edition"
    item = csl_item(ScholarlyRecord(source="arxiv", external_id="2101.01234", title="T",
                                    authors=[Author(family="Kim", given="Yoon")], year=2014))
    assert item["type"] == "article" and item["DOI"] == "10.48550/arXiv.2101.01234"


def test_a_paper_pdf_reference_never_shows_a_file_path_or_n_d_when_the_year_is_known() -> None:
    record = ScholarlyRecord(source="paper", external_id="p-1", title="Compact nets",
                             authors=[Author(family="Doe", given="Jane")], year=2017,
                             url="/home/user/papers/compact.pdf", work_type="document")
    text = format_reference(record)
    assert text == "Doe, J. (2017). *Compact nets*."
    assert "/home" not in text and "n.d." not in text
    flat = reference_from_fields(title="Compact nets", authors=["Jane Doe"], year=2017,
                                 venue=None, doi=None, url="file:///tmp/compact.pdf",
                                 source_kind="paper", external_id="p-1")
    assert flat == text
