"""Structured pastes: a plan pasted as JSON, YAML, TOML, XML, a database dump or an
application's log becomes the sentences it stands for.

Staff paste what a tool printed: a JSON document in the configuration's own shape, a YAML or
TOML file, an XML export of an MES, or one job per line as an object
(``J1 = {"M1": "90 min", "M2": "30 min"}``, ``J7: {M3: 2h, M4: 3h, due: '9:00'}``). Such a
paste is rewritten as the plain lines the reader already reads strictly (``Machines: M3, M4.``
and ``J7: M3 2h, M4 3h, due 9:00.``), so every check of the reader (undeclared machines, bad
durations, dues) still applies.

Every format is parsed into the same tree of mappings and lists, and one interpreter reads the
tree. An XML element is a mapping of its attributes and its children (children of one tag make
a list under that tag; a child that only wraps elements of one tag is their list); the
document element is the container and says nothing itself except through its children (its
attributes must be plain words, ``site="east"``, or the paste is not read). Keys are compared
in one spelling (``dueTime``, ``due-time`` and ``due time`` are ``due_time``). A step list
whose steps carry a sequence number (``seq="20"``) is ordered by it; numbered in part or twice,
it is not read. A database dump or a log of ``key=value`` records (``relations.py``) is the
tree ``{kind: [record, ...]}``; a relation of steps beside the jobs (a ``step`` table whose
rows name their job) is joined to the jobs, so a job without a step, or a step of a job the
jobs do not list, is not read. A due of NULL or ``none`` is no due; ``due_hour: 17`` is 17:00.

Only what is understood entirely is rewritten. A document is structured when it parses as JSON,
as XML (it starts with ``<``), as TOML (it has a ``[table]`` line), or as YAML with at least
one nested list or mapping (a plain ``J1: M1 2h`` line parses as YAML too, and is left to the
reader); every key must be one this module knows (``machines``, ``jobs``, ``id``, ``route``,
``hours``, ``minutes``, ``steps``, ``machine``, ``due``, ``seq`` and their spellings), a
repeated key (which a parser would silently overwrite: a step lost) or any other key leaves the
text as written, and the reader then reports what it cannot read. YAML is loaded with every
scalar as a string, so ``13:00`` stays a clock (YAML 1.1 would read the number 780) and ``yes``
stays a word; a comment, which the parser drops, must be a plain name (``# lathe``), never
``# only if needed``.
"""

from __future__ import annotations

import json
import re
import tomllib
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from typing import Any

import yaml

from repro_assets.factory.ids import ANY_ID_RE, JOB_ID_RE, MACHINE_ID_RE
from repro_assets.factory.reading.phrases import MEANING_WORDS
from repro_assets.factory.reading.relations import relation_tree


class _NotUnderstood(ValueError):
    """The structure holds something this module does not rewrite."""


_ID_KEYS = frozenset({"id", "job", "job_id", "jobid", "no", "number", "order_no", "order_id",
                      "job_no"})
_ROUTE_KEYS = frozenset({"route", "routing", "sequence", "machines"})
_STEPS_KEYS = frozenset({"steps", "operations", "operation", "ops"})
_MACHINE_KEYS = frozenset({"machine", "machine_id", "machineid", "resource", "work_center",
                           "workcenter"})
_MACHINES_KEYS = frozenset({"machines", "machine", "resources", "resource", "work_centers"})
_JOBS_KEYS = frozenset({"jobs", "job", "work_orders", "work_order", "orders", "order"})
_SEQUENCE_KEYS = frozenset({"seq", "sequence", "step", "step_no", "op", "operation_no"})
_DUE_KEYS = frozenset({"due", "due_time", "due_time_hour", "due_hour", "deadline"})
_HOURS_KEYS = frozenset({"hours", "duration_hours", "h", "hrs", "std_hours", "run_hours"})
_MINUTES_KEYS = frozenset({"minutes", "duration_minutes", "min", "mins"})
_NAME_KEYS = frozenset({"name", "label", "description", "descr", "desc"})
#: Kinds of a job's field, each given at most once whatever its spelling.
_FIELD_KINDS = (_ROUTE_KEYS, _HOURS_KEYS | _MINUTES_KEYS, _ID_KEYS, _DUE_KEYS)
#: A relation of steps beside the jobs (a dump's ``step`` table, a log's ``step.add`` records):
#: each step names its job by one of _JOB_REFERENCE_KEYS.
_STEP_RELATION_KEYS = frozenset({"step", "steps", "operation", "operations", "job_step",
                                 "job_steps", "routing_step", "routing_steps"})
_JOB_REFERENCE_KEYS = frozenset({"job", "job_id", "jobid", "job_no", "order", "order_id",
                                 "order_no", "work_order", "work_order_id"})
#: A due that says there is none (a database's NULL, a log's ``due=none``).
_NO_DUE = frozenset({"none", "null", "nil", "-", ""})
#: A due given as the hour alone (``due_hour = 17``) is that hour of the plan day.
_HOUR_DUE_KEYS = frozenset({"due_hour", "due_time_hour"})
_NUMBER_RE = re.compile(r"\d+(?:\.\d+)?")
# "J1 = {...}" or "J1: {...}": one job per line as an object
_LINE_OBJECT_RE = re.compile(r"^(?P<job>\s*J\w+)\s*[=:]\s*(?P<body>\{.*\})\s*$")
# a YAML document shows its nesting: an indented key or list item, or a flow collection
_COMMENT_RE = re.compile(r"(?:^|\s)#(.*)$", re.MULTILINE)
_YAML_SHAPE_RE = re.compile(r"^\s+(?:-\s|[\w'\"]+\s*:)|[{\[]", re.MULTILINE)


def _key(raw: object) -> str:
    """A key in one spelling: ``dueTime``, ``due-time`` and ``Due Time`` are ``due_time``."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", str(raw).strip())
    return spaced.lower().replace(" ", "_").replace("-", "_")


def _is_machine(value: object) -> bool:
    return isinstance(value, str) and MACHINE_ID_RE.fullmatch(value.strip()) is not None


def _is_job(value: object) -> bool:
    return isinstance(value, str) and JOB_ID_RE.fullmatch(value.strip()) is not None


def _scalar(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise _NotUnderstood(f"{value!r} is not a plain value")
    return str(value).strip()


def _number(value: object) -> str:
    text = _scalar(value)
    if not _NUMBER_RE.fullmatch(text):
        raise _NotUnderstood(f"{text!r} is not a number")
    return text


def _step(machine: object, hours: object = None, minutes: object = None,
          duration: object = None) -> str:
    if not _is_machine(machine):
        raise _NotUnderstood(f"{machine!r} is not a machine id")
    given = [v for v in (hours, minutes, duration) if v is not None]
    if len(given) != 1:
        raise _NotUnderstood("a step needs exactly one duration")
    if hours is not None:
        return f"{str(machine).strip()} {_number(hours)}h"
    if minutes is not None:
        return f"{str(machine).strip()} {_number(minutes)} min"
    return f"{str(machine).strip()} {_scalar(duration)}"  # a duration with its unit, or unread


def _sequence(item: object) -> float | None:
    """The sequence number a step mapping carries (``seq: 20``), or None."""
    if not isinstance(item, dict):
        return None
    numbers = [value for raw, value in item.items() if _key(raw) in _SEQUENCE_KEYS]
    return float(_number(numbers[0])) if len(numbers) == 1 else None


def _in_sequence(items: list[object]) -> list[object]:
    """Steps in the order of their sequence numbers when every step has a distinct one, in
    the order given when none has; steps numbered in part or twice are not read."""
    numbers = [_sequence(item) for item in items]
    if all(number is None for number in numbers):
        return items
    known = [number for number in numbers if number is not None]
    if len(known) != len(items) or len(set(known)) != len(known):
        raise _NotUnderstood("steps numbered in part or twice")
    return [item for _, item in sorted(zip(known, items, strict=True), key=lambda pair: pair[0])]


def _step_mapping(item: object) -> str:
    if not isinstance(item, dict):
        raise _NotUnderstood("a step is not a mapping")
    machine = hours = minutes = duration = None
    for raw, value in item.items():
        key = _key(raw)
        if key in _SEQUENCE_KEYS:
            continue  # the order, applied by _in_sequence
        if key in _MACHINE_KEYS:
            machine = value
        elif key in _HOURS_KEYS:
            hours = value
        elif key in _MINUTES_KEYS:
            minutes = value
        elif key == "duration":
            duration = value
        else:
            raise _NotUnderstood(f"unknown step key {raw!r}")
    return _step(machine, hours, minutes, duration)


def _due(key: str, value: object) -> str | None:
    """The due a job's field gives: None for a NULL or ``none``, ``17:00`` for an hour given
    alone under a key of hours (``due_hour: 17``), else the value for the reader to read; a bare
    number under a key that names no unit (``due: 13``) is not read."""
    if value is None or (isinstance(value, str) and value.strip().lower() in _NO_DUE):
        return None
    text = _scalar(value)
    if key in _HOUR_DUE_KEYS:
        if not re.fullmatch(r"\d{1,2}", text) or int(text) > 24:
            raise _NotUnderstood(f"{text!r} is not an hour")
        return f"{int(text)}:00"
    if _NUMBER_RE.fullmatch(text):  # "due: 13" (a database's 13): an hour, a day of the month?
        raise _NotUnderstood(f"the due {text!r} is a bare number under a key of no unit")
    return text


def _one_field_of_each_kind(spec: dict[Any, Any]) -> None:
    """Refuse a job given one thing twice in two spellings (``route`` and ``sequence``, ``due``
    and ``deadline``): a parser keeps both, and one would silently win."""
    for kind in _FIELD_KINDS:
        if sum(_key(raw) in kind for raw in spec) > 1:
            raise _NotUnderstood("a field given twice")


def _job_line(job: str, spec: object) -> str:
    """``J7: M3 2h, M4 3h, due 9:00.`` for one job's mapping."""
    if not isinstance(spec, dict):
        raise _NotUnderstood("a job is not a mapping")
    _one_field_of_each_kind(spec)
    steps: list[str] = []
    route: list[object] | None = None
    hours: list[object] | None = None
    minutes: list[object] | None = None
    due: str | None = None
    for raw, value in spec.items():
        key = _key(raw)
        if key in _ID_KEYS:
            if _scalar(value) != job:
                raise _NotUnderstood("two ids for one job")
        elif key in _DUE_KEYS:
            due = _due(key, value)
        elif key in _STEPS_KEYS and isinstance(value, list):
            steps.extend(_step_mapping(item) for item in _in_sequence(value))
        elif key in _ROUTE_KEYS and isinstance(value, list):
            route = value
        elif key in _HOURS_KEYS and isinstance(value, list):
            hours = value
        elif key in _MINUTES_KEYS and isinstance(value, list):
            minutes = value
        elif _is_machine(raw) and not isinstance(value, (dict, list)):
            steps.append(_step(raw, duration=value))
        else:
            raise _NotUnderstood(f"unknown job key {raw!r}")
    if route is not None:
        times = hours if hours is not None else minutes
        if steps or times is None or len(times) != len(route) or (
                hours is not None and minutes is not None):
            raise _NotUnderstood("a route needs one duration per machine")
        steps = [_step(machine, hours=t) if hours is not None else _step(machine, minutes=t)
                 for machine, t in zip(route, times, strict=True)]
    elif hours is not None or minutes is not None:
        raise _NotUnderstood("durations without a route")
    if not steps:
        raise _NotUnderstood(f"{job} has no steps")
    return f"{job}: " + ", ".join(steps) + (f", due {due}" if due is not None else "") + "."


def _job_id(spec: object) -> str:
    if isinstance(spec, dict):
        ids = [value for raw, value in spec.items() if _key(raw) in _ID_KEYS]
        if len(ids) == 1 and _is_job(ids[0]):
            return str(ids[0]).strip()
    raise _NotUnderstood("a job without one job id")


def _jobs(value: object) -> list[str]:
    if isinstance(value, dict):
        for job in value:
            if not _is_job(job):
                raise _NotUnderstood(f"{job!r} is not a job id")
        return [_job_line(str(job).strip(), spec) for job, spec in value.items()]
    if isinstance(value, list):
        return [_job_line(_job_id(spec), spec) for spec in value]
    raise _NotUnderstood("jobs are neither a mapping nor a list")


def _machines(value: object) -> list[str]:
    """The machine ids of a ``machines`` value: a list of ids or of mappings, or a mapping
    from id to name (``M1 = "saw"``)."""
    if isinstance(value, list):
        return [_machine_entry(item) for item in value]
    if isinstance(value, dict) and value and all(
            _is_machine(raw) and isinstance(name, str) for raw, name in value.items()):
        for name in value.values():
            _plain_name(name)
        return [str(raw).strip() for raw in value]
    raise _NotUnderstood("machines are neither a list nor a mapping of ids")


def _plain_name(name: object) -> None:
    """Refuse a machine's name that says more than a name, which the plan drops: another id
    (``"M1 spare"``, ``"backup for M3"``) or a word that changes a meaning (``"not in use"``)."""
    text = _scalar(name)
    if ANY_ID_RE.search(text) or {word.lower() for word in re.findall(
            r"[A-Za-z]+", text)} & MEANING_WORDS:
        raise _NotUnderstood(f"the name {text!r} says more than a name")


def _machine_entry(item: object) -> str:
    if _is_machine(item):
        return str(item).strip()
    if isinstance(item, dict):
        ids = [v for raw, v in item.items() if _key(raw) in _ID_KEYS | _MACHINE_KEYS]
        others = [raw for raw in item if _key(raw) not in _ID_KEYS | _MACHINE_KEYS | _NAME_KEYS]
        for raw, name in item.items():
            if _key(raw) in _NAME_KEYS:
                _plain_name(name)
        if len(ids) == 1 and _is_machine(ids[0]) and not others:
            return str(ids[0]).strip()
    raise _NotUnderstood(f"{item!r} is not a machine")


def _document_lines(data: object) -> list[str]:
    """The plain lines a parsed document stands for."""
    if isinstance(data, list):
        return _jobs(data)
    if not isinstance(data, dict):
        raise _NotUnderstood("not a mapping")
    data = _joined_steps(data)
    lines: list[str] = []
    for raw, value in data.items():
        key = _key(raw)
        if key in _MACHINES_KEYS:
            lines.insert(0, "Machines: " + ", ".join(_machines(value)) + ".")
        elif key in _JOBS_KEYS:
            lines.extend(_jobs(value))
        elif _is_job(raw):
            lines.append(_job_line(str(raw).strip(), value))
        else:
            raise _NotUnderstood(f"unknown key {raw!r}")
    return lines


def _joined_steps(data: dict[Any, Any]) -> dict[Any, Any]:
    """``data`` with a relation of steps beside the jobs joined to them: each job's steps
    (in the order written; ``_in_sequence`` applies their sequence numbers) become its
    ``steps``. A step of a job the jobs do not list, a step without one job, or a job that
    has steps of its own already is not read; a job without a step then fails in
    ``_job_line``. Without a relation of jobs, the steps' jobs are the jobs."""
    relations = [raw for raw in data if _key(raw) in _STEP_RELATION_KEYS]
    if not relations:
        return data
    if len(relations) > 1 or not isinstance(data[relations[0]], list):
        raise _NotUnderstood("steps given twice or not as a list")
    by_job: dict[str, list[dict[Any, Any]]] = {}
    for step in data[relations[0]]:
        if not isinstance(step, dict):
            raise _NotUnderstood("a step is not a mapping")
        references = [raw for raw in step if _key(raw) in _JOB_REFERENCE_KEYS]
        if len(references) != 1 or not _is_job(step[references[0]]):
            raise _NotUnderstood("a step does not name one job")
        job = str(step[references[0]]).strip()
        by_job.setdefault(job, []).append(
            {raw: value for raw, value in step.items() if raw != references[0]})
    rest = {raw: value for raw, value in data.items() if raw != relations[0]}
    job_keys = [raw for raw in rest if _key(raw) in _JOBS_KEYS]
    if not job_keys:
        return {**rest, "jobs": [{"id": job, "steps": steps} for job, steps in by_job.items()]}
    if len(job_keys) > 1 or not isinstance(rest[job_keys[0]], list):
        raise _NotUnderstood("jobs given twice or not as a list")
    jobs: list[dict[Any, Any]] = []
    for spec in rest[job_keys[0]]:
        job = _job_id(spec)
        assert isinstance(spec, dict)  # _job_id raises for anything else
        if any(_key(raw) in _STEPS_KEYS | _ROUTE_KEYS for raw in spec):
            raise _NotUnderstood(f"{job} has steps of its own and in the relation")
        jobs.append({**spec, "steps": by_job.pop(job, [])})
    if by_job:
        raise _NotUnderstood("a step of a job the jobs do not list")
    return {**rest, job_keys[0]: jobs}


def _nested(data: object) -> bool:
    values = data.values() if isinstance(data, dict) else data if isinstance(data, list) else []
    return any(isinstance(value, (dict, list)) for value in values)


def _unique_pairs(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise _NotUnderstood("a key is repeated")
    return dict(pairs)


class _UniqueKeyLoader(yaml.BaseLoader):
    """YAML with every scalar a string and no repeated key in a mapping."""


def _construct_unique(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    pairs = [(loader.construct_object(k), loader.construct_object(v)) for k, v in node.value]
    return _unique_pairs(pairs)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                 _construct_unique)


def _plain_comment(comment: str) -> bool:
    """Whether a comment the parser drops is a plain name: words only, none that changes the
    meaning (``M2 only if needed``, ``J2 cancelled`` are not)."""
    words = re.findall(r"[A-Za-z]+", comment)
    return re.fullmatch(r"[A-Za-z ,./&'-]*", comment.strip()) is not None and not {
        word.lower() for word in words} & MEANING_WORDS


def _plain_comments(text: str) -> bool:
    """Whether every YAML comment (``# lathe``) is a plain name, which the parser may drop."""
    return all(_plain_comment(comment) for comment in _COMMENT_RE.findall(text))


def _element(node: ElementTree.Element) -> dict[str, object]:
    """An XML element as a mapping: its attributes, then its children by tag (a list per tag,
    since a tag may repeat; a child that only wraps elements of one tag is their list); text
    beside children is refused."""
    if (node.text or "").strip() and len(node):
        raise _NotUnderstood(f"<{node.tag}> mixes text and elements")
    data: dict[str, object] = dict(node.attrib)
    for child in node:
        if child.tag in data and not isinstance(data[child.tag], list):
            raise _NotUnderstood(f"<{child.tag}> is both an attribute and an element")
        value: object
        if not child.attrib and len(child) and len({grand.tag for grand in child}) == 1:
            value = [_element(grand) if len(grand) or grand.attrib else (grand.text or "")
                     for grand in child]  # a wrapper: <jobs><job .../><job .../></jobs>
            if child.tag in data:
                raise _NotUnderstood(f"<{child.tag}> is repeated")
            data[child.tag] = value
            continue
        value = _element(child) if len(child) or child.attrib else (child.text or "")
        children = data.setdefault(child.tag, [])
        if isinstance(children, list):
            children.append(value)
    return data


#: A root attribute that says nothing about the plan: where it was made or who made it
#: (``site="east"``), a plain word, never a number, a time, a date or an id. Any other attribute
#: of the whole plan (``units="minutes"``, ``status="draft"``) may change every value under it.
_PLAIN_WORD_RE = re.compile(r"[A-Za-z][A-Za-z ]*")
_ROOT_KEYS = frozenset({"plant", "site", "factory", "line", "cell", "area", "shop", "department",
                        "name", "title", "by", "author", "user", "owner", "source"})
# a comment (dropped by the parser) and a processing instruction other than the declaration
_XML_COMMENT_RE = re.compile(r"<!--(.*?)-->", re.DOTALL)
_XML_INSTRUCTION_RE = re.compile(r"<\?(?!xml[\s?])", re.IGNORECASE)


def _xml_document(text: str) -> object:
    """An XML paste as the tree of its document element's children. A plan export declares
    no DTD: one with a ``<!DOCTYPE`` (where entity expansion lives) is not read."""
    if "<!DOCTYPE" in text.upper() or "<!ENTITY" in text.upper():
        raise _NotUnderstood("a document type declaration")
    if not all(_plain_comment(comment) for comment in _XML_COMMENT_RE.findall(text)):
        raise _NotUnderstood("a comment says more than a name")
    if _XML_INSTRUCTION_RE.search(text):
        raise _NotUnderstood("a processing instruction")
    try:
        root = ElementTree.fromstring(text.strip())
    except ElementTree.ParseError as exc:
        raise _NotUnderstood(str(exc)) from exc
    if any((node.tail or "").strip() for node in root.iter() if node is not root):
        raise _NotUnderstood("words between the elements")  # text the tree would drop
    tree = _element(root)
    for name in root.attrib:
        value = root.attrib[name].strip()
        if _key(name) not in _ROOT_KEYS or not _plain_comment(value):
            raise _NotUnderstood(f"the document element's {name!r} may change the plan")
        if not _PLAIN_WORD_RE.fullmatch(value):
            raise _NotUnderstood(f"the document element's {name!r} is not a plain word")
        del tree[name]
    return tree


_TOML_SHAPE_RE = re.compile(r"^\s*\[\[?[\w.\s\"'-]+\]\]?\s*$", re.MULTILINE)  # [a.b], [[a]]


def _parse(text: str) -> object:
    """The parsed document; raises when it is neither JSON, TOML, XML nor YAML."""
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs)
    except ValueError:
        pass
    if text.lstrip().startswith("<"):
        return _xml_document(text)
    try:
        return relation_tree(text)  # a database dump or an application's log
    except ValueError:
        pass
    if _TOML_SHAPE_RE.search(text):
        if not _plain_comments(text):
            raise _NotUnderstood("a comment says more than a name")
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise _NotUnderstood(str(exc)) from exc
    if not _YAML_SHAPE_RE.search(text):
        raise _NotUnderstood("no nesting")
    if not _plain_comments(text):
        raise _NotUnderstood("a comment says more than a name")
    try:
        return yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - BaseLoader, no objects
    except yaml.YAMLError as exc:
        raise _NotUnderstood(str(exc)) from exc


#: What a paste the module does not understand may raise: its own refusal, a parser's error,
#: a mapping used as a key (unhashable), nesting deeper than the interpreter's stack. The text
#: is then left as written, and the reader reports what it cannot read.
_NOT_UNDERSTOOD = (ValueError, TypeError, RecursionError, yaml.YAMLError)


def _attempt(build: Callable[[], list[str]]) -> list[str] | None:
    try:
        return build()
    except _NOT_UNDERSTOOD:
        return None


def _parsed(text: str) -> object | None:
    try:
        return _parse(text)
    except _NOT_UNDERSTOOD:
        return None


def _line_object(line: str) -> str:
    """``J1 = {"M1": "90 min"}`` as ``J1: M1 90 min.``; the line itself when it is none."""
    match = _LINE_OBJECT_RE.match(line)
    if match is None:
        return line
    job, body = match.group("job").strip(), _parsed(match.group("body"))
    rewritten = _attempt(lambda: [_job_line(job, body)])
    return rewritten[0] if rewritten else line


# the note of a label's times that they pair with the route in order
_IN_ORDER_RE = re.compile(r"\s*\((?i:in\s+(?:the\s+)?(?:same\s+)?(?:route(?:'s)?\s+)?order"
                          r"|respectively)\)\s*$")
_ROUTE_SEPARATOR_RE = re.compile(r"\s*(?:->|→|>|,|;)\s*")
_TIMES_SEPARATOR_RE = re.compile(r"\s*[,;/]\s*")


def label_line(fields: list[tuple[str, str]]) -> str | None:
    """The job line of a label's fields, one a line (``JOB : J7``, ``ROUTE : M4 > M2``,
    ``HOURS : 2, 1 (in route order)``, ``DUE : none``): a route of machine ids and its times
    as two lists read as a job's mapping, or None unless every field is one of those (each
    once) and the lists pair up.

    Args:
        fields: the label's keys and values as written.

    Returns:
        ``J7: M4 2h, M2 1h.`` (with its due), or None.
    """
    spec: dict[str, object] = {}
    for raw, value in fields:
        key = _key(raw)
        if any(key in kind and any(known in kind for known in spec) for kind in _FIELD_KINDS):
            return None  # a field given twice, in one spelling or two
        if key in _ROUTE_KEYS:
            spec[key] = _ROUTE_SEPARATOR_RE.split(value.strip())
        elif key in _HOURS_KEYS | _MINUTES_KEYS:
            spec[key] = _TIMES_SEPARATOR_RE.split(_IN_ORDER_RE.sub("", value).strip())
        elif key in _ID_KEYS | _DUE_KEYS:
            spec[key] = value.strip()
        else:
            return None
    ids = [value for key, value in spec.items() if key in _ID_KEYS]
    if len(ids) != 1 or not _is_job(ids[0]) or not any(key in _ROUTE_KEYS for key in spec):
        return None
    lines = _attempt(lambda: [_job_line(str(ids[0]), spec)])
    return lines[0] if lines else None


def plain_text(text: str) -> str:
    """``text`` with a structured paste rewritten as the sentences it stands for.

    Args:
        text: the description, line ends normalised to ``\\n``.

    Returns:
        The plain-text equivalent when the whole text is a JSON or YAML plan (or a line is one
        job as an object), the text unchanged otherwise.
    """
    data = _parsed(text) if text.strip() else None
    if isinstance(data, (dict, list)) and _nested(data):
        lines = _attempt(lambda: _document_lines(data))
        if lines:
            return "\n".join(lines) + "\n"
    return "\n".join(_line_object(line) for line in text.split("\n"))
