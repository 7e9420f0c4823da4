"""Where a claim's dataset came from, and how far that source is trusted (issue #23).

Every claim records the source that named its dataset (``Claim.dataset_source``). This module is
the one place that says how strong each source is: a claim's confidence never exceeds the cap of
its source. Sources that held on unseen papers (the cell's own row or column header confirmed as
a dataset, the table's own title, a caption naming one dataset, the sentence that prints the
number) keep a confidence at or above the plan threshold
(:data:`~repro_assets.papers.plan_targets.PLAN_MIN_CONFIDENCE`, 0.7). Weak sources stay below it:
the claim is still shown and grounded, but the planner never takes it as a target.

Weak sources, each a guess far from the number:

* ``row_label_ambiguous`` - the row names a dataset but the columns could be datasets too;
* ``row_label_unconfirmed`` - a row label in a dataset-like label column that the paper never
  presents as a dataset (no cue such as 'the X dataset' or 'results on X' in the body or a
  caption, no 'Dataset'/'Task' header over the column, unknown to the registry): it may be a
  method, a setting, a model size or a sub-condition;
* ``column_unconfirmed`` - a column header taken as a dataset only because it looks like a name
  and other columns are known datasets (no cue word such as 'datasets' in the caption), or a
  header the paper mentions but never presents as a dataset with a cue (a name-like header
  beside two or more columns the paper presents as datasets is a ``column_cue``: the columns
  run over datasets);
* ``subcaption_unconfirmed`` - a panel's sub-caption prints a name alone ('(a) X') that the
  paper never presents as a dataset (it may be a method, a backbone or a setting);
* ``neighbour_table`` - the caption names no data, and the table printed just before it (same
  or previous page) names one dataset in its caption and reads the same metric: an ablation
  under its main table;
* ``caption_order`` - the caption names N datasets and the columns repeat one block of metrics
  N times with no header naming either: the caption's order is a guess;
* ``reference`` - the sentences that reference the table name one dataset;
* ``section`` - the section (heading or introduction) around the table or sentence names one;
* ``paper`` - the paper's only dataset (abstract-level guess);
* ``nearby_sentence`` - a previous sentence of the same page named one dataset;
* ``context_ambiguous`` - a table-wide name (caption, title, reference, section, paper) for a
  column whose header names other data than its sibling columns ('PNT' / 'RNX' under a caption
  naming one suite): the name is the family, not the cell's dataset (see ``claims.ambiguity``);
* ``name_underspecified`` - the name itself identifies no one dataset: a language code alone
  ('DE') or a family the paper reports in two versions or more ('X' beside 'X-10' and 'X-100';
  see ``claims.underspecified``).
"""

from __future__ import annotations

from typing import Literal

DatasetSource = Literal[
    "row_label", "row_label_ambiguous", "row_label_unconfirmed", "column_header",
    "column_caption", "column_cue", "column_unconfirmed",
    "table_title", "caption", "reference", "section", "paper", "sentence", "pointed_table",
    "nearby_sentence", "context_ambiguous", "subcaption_unconfirmed", "neighbour_table",
    "caption_order", "name_underspecified", "llm", "unknown",
]

#: Highest confidence a claim may have, by the source of its dataset. Values below the plan
#: threshold (0.7) mark the weak sources.
SOURCE_CONFIDENCE: dict[str, float] = {
    "row_label": 0.9,             # a row label confirmed as a dataset (label column of datasets)
    "column_header": 0.9,         # a column header the paper presents as a dataset
    "column_caption": 0.85,       # a column header the caption prints ('on A, B and C')
    "column_cue": 0.8,            # a name-like column header under a caption about 'datasets'
    "table_title": 0.85,          # the table's own title or top-left cell
    "caption": 0.85,              # the caption names exactly one dataset
    "sentence": 0.85,             # the sentence that prints the number names it
    "pointed_table": 0.8,         # the sentence points at a table with one dataset for its metric
    "llm": 1.0,                   # the LLM extractor gives its own confidence
    "row_label_ambiguous": 0.6,
    "row_label_unconfirmed": 0.6,
    "column_unconfirmed": 0.6,
    "subcaption_unconfirmed": 0.6,
    "neighbour_table": 0.6,
    "caption_order": 0.6,
    "reference": 0.6,
    "section": 0.6,
    "nearby_sentence": 0.6,
    "context_ambiguous": 0.6,
    "name_underspecified": 0.6,
    "paper": 0.55,
    "unknown": 0.6,
}

#: Sources whose claims stay below the plan threshold.
WEAK_SOURCES = frozenset(s for s, cap in SOURCE_CONFIDENCE.items() if cap < 0.7)


def capped(confidence: float, source: str) -> float:
    """``confidence`` limited to the cap of ``source`` (rounded to two decimals)."""
    return round(min(confidence, SOURCE_CONFIDENCE.get(source, SOURCE_CONFIDENCE["unknown"])), 2)
