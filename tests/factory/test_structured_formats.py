"""A plan exported as TOML or XML is read as the same tree as a JSON or YAML paste (#24).

Each format is parsed into mappings and lists and read by the one interpreter of
``reading/structured.py``; what it does not understand entirely is left as written and refused
with a code. The documents are invented, in two surface forms each.
"""

from __future__ import annotations

import pytest

from tests.factory.phrasing_sets import fails, jobs_of

XML_ATTRIBUTES = """<?xml version="1.0"?>
<shopPlan plant="north">
  <machine id="M41" descr="lathe"/>
  <machine id="M42" descr="mill"/>
  <workOrder no="J41" dueTime="16:00">
    <operation seq="20" machine="M42" stdHours="1"/>
    <operation seq="10" machine="M41" stdHours="3"/>
  </workOrder>
  <workOrder no="J42">
    <operation seq="10" machine="M42" stdHours="2"/>
  </workOrder>
</shopPlan>
"""

XML_WRAPPERS = """<plan>
  <machines><machine id="M7"/><machine id="M8"/></machines>
  <jobs>
    <job id="J4" due="15:00"><steps><step machine="M8" minutes="120"/>
      <step machine="M7" minutes="60"/></steps></job>
    <job id="J5"><steps><step machine="M7" hours="2"/></steps></job>
  </jobs>
</plan>
"""

TOML_SECTIONS = """# exported by the planning tool
[machines]
M61 = "press"
M62 = "oven"

[jobs.J61]
route = ["M62", "M61"]
hours = [1, 4]
due = "10:00"

[jobs.J62]
route = ["M61"]
hours = [2]
"""

TOML_ARRAY_OF_TABLES = """machines = ["M3", "M4"]

[[jobs]]
id = "J9"
due = "11:00"
steps = [ { machine = "M4", hours = 1 }, { machine = "M3", minutes = 60 } ]

[[jobs]]
id = "J10"
route = ["M3"]
minutes = [120]
"""


@pytest.mark.parametrize(("text", "expected"), [
    (XML_ATTRIBUTES, {"J41": (["M41", "M42"], [3, 1], 16), "J42": (["M42"], [2], None)}),
    (XML_WRAPPERS, {"J4": (["M8", "M7"], [2, 1], 15), "J5": (["M7"], [2], None)}),
    (TOML_SECTIONS, {"J61": (["M62", "M61"], [1, 4], 10), "J62": (["M61"], [2], None)}),
    (TOML_ARRAY_OF_TABLES, {"J9": (["M4", "M3"], [1, 1], 11), "J10": (["M3"], [2], None)}),
], ids=["xml-attributes-seq", "xml-wrappers", "toml-sections", "toml-array-of-tables"])
def test_a_toml_or_xml_export_is_read_as_its_tree(text: str, expected: dict) -> None:
    assert jobs_of(text) == expected


@pytest.mark.parametrize("text", [
    # the document element carries a date: the plan may be for another day
    XML_WRAPPERS.replace("<plan>", '<plan date="2026-12-01">'),
    # a step attribute the interpreter does not know: an alternative machine
    XML_WRAPPERS.replace('minutes="120"/>', 'minutes="120" alt="M7"/>'),
    # one step numbered, the other not: the order is not certain
    XML_ATTRIBUTES.replace('<operation seq="10" machine="M41"', '<operation machine="M41"'),
    # two steps with one number
    XML_ATTRIBUTES.replace('seq="20"', 'seq="10"'),
    # a comment that says more than a name, which the parser would drop
    TOML_ARRAY_OF_TABLES.replace('machines = ["M3", "M4"]',
                                 'machines = ["M3", "M4"]  # M4 only if needed'),
    # fewer durations than machines
    TOML_SECTIONS.replace("hours = [1, 4]", "hours = [1]"),
    # a document type declaration with an entity (where an expansion bomb would live)
    '<?xml version="1.0"?>\n<!DOCTYPE plan [<!ENTITY h "2">]>\n'
    + XML_WRAPPERS.replace('hours="2"', 'hours="&h;"'),
], ids=["root-date", "unknown-attribute", "partly-numbered", "same-number", "comment",
        "short-hours", "doctype"])
def test_an_export_not_understood_entirely_fails_with_a_code(text: str) -> None:
    assert fails(text).startswith("INVALID_STRUCTURE:")
