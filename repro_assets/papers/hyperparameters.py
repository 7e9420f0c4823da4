"""Training hyper-parameters stated in a paper's text, each with the sentence it came from.

Values are read in the forms papers print them: ``0.001``, ``5e-4``, ``5 × 10^-4`` /
``5·10−4`` / ``5x10^{-4}`` / ``10⁻³`` (PDF text keeps the multiplication sign and a Unicode
minus), percentages (``dropout of 10%`` -> 0.1) and fractions (``1/8``). A value outside the
range a hyper-parameter can take (a dropout of 50, a learning rate of 3000) is not a reading of
that hyper-parameter and is skipped rather than reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from repro_assets.papers.claims import cite, iter_sentences, section_index
from repro_assets.papers.models import PaperPages
from repro_assets.papers.sanitizer import architectures_in

_MINUS = "-\u2212\u2013"  # hyphen, minus sign, en dash
_SUPERSCRIPTS = re.compile(r"[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_FROM_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_DECIMAL = r"(?:\d+(?:\.\d+)?|\.\d+)"
_EXPONENT = r"(?:\^|\*\*)?\s*\{?\s*([-+]?\s*\d+)\s*\}?"

#: One printed number in any of the supported forms (no capturing groups: embeddable).
NUMBER = (
    rf"(?:{_DECIMAL}\s*[×x·∙*]\s*10\s*(?:\^|\*\*)?\s*\{{?\s*[{_MINUS}⁻+]?\s*[\d⁰¹²³⁴⁵⁶⁷⁸⁹]+"
    r"\s*\}?"
    rf"|10\s*(?:\^|\*\*)\s*\{{?\s*[{_MINUS}+]?\s*\d+\s*\}}?"
    r"|10[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+"
    r"|10\s*\u2212\s*\d+"
    r"|\d+\s*/\s*\d+(?!\s*/)"
    rf"|{_DECIMAL}(?:\s*[eE]\s*[{_MINUS}+]?\d+)?(?:\s*%)?)"
)
_NUMBER_RE = re.compile(NUMBER)
_SCIENTIFIC = re.compile(rf"({_DECIMAL})\s*[×x·∙*]\s*10\s*{_EXPONENT}")
_BARE_POWER = re.compile(r"10\s*(?:(?:\^|\*\*)\s*\{?\s*([-+]?\s*\d+)\s*\}?|(-\s*\d+))")


def parse_number(text: str) -> float | None:
    """The value of one printed number (see the module docstring), or None.

    Args:
        text: the number as printed, e.g. ``"5 × 10−4"``, ``"10%"``, ``"1/8"``.
    """
    printed = text.strip()
    if not printed or not _NUMBER_RE.fullmatch(printed):
        return None
    raw = _SUPERSCRIPTS.sub(lambda m: "^" + m.group(0).translate(_FROM_SUPERSCRIPT), printed)
    for dash in _MINUS[1:]:
        raw = raw.replace(dash, "-")
    if match := _SCIENTIFIC.fullmatch(raw):
        return float(match.group(1)) * 10.0 ** int(match.group(2).replace(" ", ""))
    if match := _BARE_POWER.fullmatch(raw):
        return 10.0 ** int((match.group(1) or match.group(2)).replace(" ", ""))
    if match := re.fullmatch(r"(\d+)\s*/\s*(\d+)", raw):
        denominator = int(match.group(2))
        return int(match.group(1)) / denominator if denominator else None
    percent = raw.endswith("%")
    try:
        value = float(raw.rstrip("% ").replace(" ", ""))
    except ValueError:
        return None
    return value / 100.0 if percent else value


# ---------------------------------------------------------------------------------------------
# Patterns
# ---------------------------------------------------------------------------------------------

#: After a hyper-parameter's name: an optional symbol in parentheses ("dropout rate (p)") and
#: a linking word ("of", "=", "is", "set to" ...).
_LINK = r"(?:\s*\([^()]{1,10}\))?\s*(?:(?:is\s+)?set\s+to|of|=|:|is|to|was|were)?\s*"
_INT_LIST = r"(\d+(?:\s*(?:,|and|&|/)\s*\d+)+|\d+)"

HYPERPARAMETER_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    name: tuple(re.compile(p, re.IGNORECASE) for p in patterns)
    for name, patterns in {
        "epochs": (r"\b(\d+)\s+(?:training\s+)?epochs\b", rf"\bepochs?{_LINK}(\d+)\b"),
        "learning_rate": (rf"\blearning[\s-]rates?{_LINK}(?:η\s*=\s*)?({NUMBER})",
                          rf"\blr\s*=\s*({NUMBER})"),
        "batch_size": (rf"\b(?:mini-?)?batch[\s-]sizes?{_LINK}(\d+)\b",
                       r"\bmini-?batch(?:es)?\s+of\s+(\d+)\b"),
        "seed": (rf"\b(?:random\s+)?seed{_LINK}(\d+)\b",),
        "optimizer": (r"\b(AdamW|Adam|SGD|Adagrad|Adadelta|RMSprop|L-BFGS|LBFGS)\b",),
        "weight_decay": (rf"\b(?:weight\s+decay|L2\s+penalty|L2\s+regulari[sz]ation(?:\s+"
                         rf"strength)?|alpha){_LINK}({NUMBER})",),
        "dropout": (rf"\bdropout(?:\s+(?:rate|probability))?{_LINK}({NUMBER})",
                    r"\b(no)\s+dropout\b"),
        "C": (rf"\bC\s*=\s*({NUMBER})", rf"regulari[sz]ation\s+strength\s+(?:of\s+)?({NUMBER})"),
        "n_estimators": (r"\b(\d+)\s+(?:trees|estimators|boosting\s+rounds)\b",
                         r"\bn_estimators\s*=\s*(\d+)\b"),
        "max_depth": (rf"\bmax(?:imum)?[\s_]+depth{_LINK}(\d+)\b",),
        "hidden_units": (r"\bhidden\s+layers?\s+of\s+(\d+)\b", r"\b(\d+)\s+(?:ReLU\s+|tanh\s+)?"
                         r"(?:hidden\s+)?units\b"),
        "max_iter": (r"\bat\s+most\s+(\d+)\s+iterations\b", r"\bmax_iter\s*=\s*(\d+)\b"),
        "filter_sizes": (rf"\b(?:filter|kernel|window|region)\s+(?:windows?|sizes?|widths?)"
                         rf"{_LINK}{_INT_LIST}",),
        "num_filters": (r"\b(\d+)\s+(?:feature\s+maps|filters|convolutional\s+filters|kernels)"
                        r"\b",),
        "embedding_dim": (r"\b(\d+)[\s-]*(?:dimensional|dim\.?|d)\s+(?:word\s+)?"
                          r"(?:vectors|embeddings)\b",),
        "test_size": (r"\b\d{2}\s*/\s*(\d{1,2})\b(?:\s+(?:split|train))?",
                      r"\b(\d{1,2})\s*%\s+(?:of\s+the\s+data\s+)?(?:for\s+)?test"),
    }.items()
}

#: Keys of ``plan.config``.
CONFIG_KEYS = ("epochs", "learning_rate", "batch_size", "seed", "optimizer", "weight_decay",
               "dropout")
#: Model hyper-parameters each architecture's notebook template reads.
MODEL_KEYS_BY_ARCH: dict[str, tuple[str, ...]] = {
    "logistic_regression": ("C", "max_iter"),
    "linear_svm": ("C", "max_iter"),
    "random_forest": ("n_estimators", "max_depth"),
    "gradient_boosting": ("n_estimators", "max_depth"),
    "decision_tree": ("max_depth",),
    "mlp": ("hidden_units", "max_iter"),
    "cnn": ("filter_sizes", "num_filters", "embedding_dim"),
}

_INTEGER = {"epochs", "batch_size", "seed", "n_estimators", "max_depth", "hidden_units",
            "max_iter", "num_filters", "embedding_dim"}
#: Open/closed ranges a value must fall in to be a reading of that hyper-parameter.
_RANGES: dict[str, tuple[float, float]] = {
    "learning_rate": (0.0, 10.0),
    "dropout": (0.0, 1.0),
    "weight_decay": (0.0, 1.0),
    "C": (0.0, 1e6),
    "epochs": (1, 100_000),
    "batch_size": (1, 1_000_000),
    "max_depth": (1, 1000),
    "num_filters": (1, 100_000),
    "embedding_dim": (2, 100_000),
}


@dataclass(frozen=True)
class Finding:
    """A hyperparameter read from the paper, with the sentence it came from."""

    name: str
    value: Any
    quote: str
    page: int
    citation: str

    def to_dict(self) -> dict[str, Any]:
        """JSON view."""
        return {"name": self.name, "value": self.value, "quote": self.quote, "page": self.page,
                "citation": self.citation}


def convert(name: str, raw: str) -> Any:
    """The value of hyper-parameter ``name`` printed as ``raw``.

    Raises:
        ValueError: ``raw`` is not a value ``name`` can take.
    """
    if name == "optimizer":
        return raw.lower().replace("-", "")
    if name == "dropout" and raw.lower() == "no":
        return 0.0
    if name == "filter_sizes":
        sizes = [int(n) for n in re.findall(r"\d+", raw)]
        if not sizes or any(not 1 <= n <= 50 for n in sizes):
            raise ValueError(f"not filter sizes: {raw!r}")
        return sizes
    if name == "test_size":
        return int(raw) / 100
    value = parse_number(raw)
    if value is None:
        raise ValueError(f"not a number: {raw!r}")
    low, high = _RANGES.get(name, (float("-inf"), float("inf")))
    if not low <= value < high or (name in ("learning_rate", "C") and value <= 0):
        raise ValueError(f"{name} {value:g} is outside its range")
    if name in _INTEGER:
        if not float(value).is_integer():
            raise ValueError(f"{name} must be an integer, got {value:g}")
        return int(value)
    return value


def _clauses(sentence: str) -> list[str]:
    return [c for c in re.split(r";\s*|:\s+(?=[a-z])", sentence) if c.strip()]


def find_hyperparameters(pages: PaperPages, architecture: str | None) -> dict[str, Finding]:
    """Hyperparameters stated in the paper for ``architecture``.

    Clauses naming ``architecture`` win; clauses naming no model family come next; clauses
    that name only other model families (baselines) are ignored.
    """
    sections = section_index(pages)
    found: dict[str, tuple[int, Finding]] = {}
    for page_no, offset, sentence in iter_sentences(pages):
        for clause in _clauses(sentence):
            families = architectures_in(clause)
            if architecture and architecture in families:
                priority = 0
            elif not families:
                priority = 1
            elif architecture is None:
                priority = 2
            else:
                continue
            for name, patterns in HYPERPARAMETER_PATTERNS.items():
                for pattern in patterns:
                    match = pattern.search(clause)
                    if not match:
                        continue
                    try:
                        value = convert(name, match.group(1))
                    except ValueError:
                        continue
                    current = found.get(name)
                    if current is None or priority < current[0]:
                        found[name] = (priority, Finding(
                            name=name, value=value, quote=sentence, page=page_no,
                            citation=cite(sections, page_no, offset)))
                    break
    return {name: finding for name, (_, finding) in found.items()}
