"""Dataset names as the paper prints them: found in captions, headers and sentences.

The registry decides later whether a name resolves (plan time); here a dataset is whatever
the paper names as one: a table column or row under a "Dataset"/"Task" header, a name the
paper calls "the X dataset" / "X benchmark" / "X test set", a row of a dataset-statistics
table, or a name the registry knows. Generic phrases ("the test set", "our model") and metric
names are never dataset names.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from repro_assets.papers.claims.metrics import find_metric_mentions
from repro_assets.papers.registry import find_dataset_mentions, resolve_alias

#: Words after a name that say it is a dataset.
_STRONG_NOUN = (r"(?:[Dd]ata\s?[Ss]ets?|[Dd]atasets?|[Bb]enchmarks?|[Cc]orpus|[Cc]orpora|"
                r"test\s?sets?|dev(?:elopment)?\s?sets?|validation\s?sets?|challenges?|"
                r"competition|treebank|leaderboard)")
#: Public alias: a name followed by one of these is presented as a dataset.
STRONG_NOUN = _STRONG_NOUN
_WEAK_NOUN = r"(?:data(?!\s+[a-z])|shared\s?tasks?|tasks?|collection|split)"
_DATASET_NOUN = rf"(?:{_STRONG_NOUN}|{_WEAK_NOUN})"
#: Bounded (a name token is short, with few dotted parts): unbounded, a run such as '1.1.1...'
#: or '1+1+1...' made every search quadratic (each start scanned to the end of the run).
_NAME_TOKEN = (r"(?:[A-Z0-9][\w’'\-+]{0,60}(?:\.[\w’'\-+]{1,60}){0,8}"
               r"|[a-z]{1,60}[A-Z0-9][\w’'\-+]{0,60})")
_NAME = (rf"{_NAME_TOKEN}(?:(?:\s*(?:/|-|&|and|,)\s*|\s*→\s*(?=[A-Z])|\s+){_NAME_TOKEN})"
         r"{0,5}")  # 'X English→German': an arrow joins the two sides of a pair
_FUNCTION = r"(?!(?:on|the|of|in|for|a|an|to|with|by|at|from|and|or|is|are|we)\b)"
_NAMED_AS_DATASET = re.compile(
    rf"(?<![\w-])[“\"‘']?(?P<name>{_NAME}(?:\s+{_FUNCTION}[a-z][a-z\-]+){{0,2}})[”\"’']?\s+"
    rf"(?:\([^)]{{1,40}}\)\s+)?(?P<noun>{_DATASET_NOUN})\b")
_QUOTED_AFTER_NOUN = re.compile(
    rf"\b{_STRONG_NOUN}\s+[“\"‘](?P<name>{_NAME})[”\"’]")
#: 'X, a corpus of ...', 'X, a new benchmark for ...': an appositive presents the name.
_APPOSITIVE = re.compile(
    rf"(?<![\w-])(?P<name>{_NAME}),\s+(?:a|an)\s+"
    rf"(?:(?!(?:of|the|on|from|in|for|with|to|by|and|or)\b)[a-z][\w-]*\s+){{0,2}}?"
    rf"(?P<noun>{_STRONG_NOUN})\b")
_THE_DATASET_NAME = re.compile(
    rf"\b(?:the|on|of|for)\s+{_DATASET_NOUN}\s+(?P<name>{_NAME})")
#: 'the test batches of X', 'the evaluation split of X': the held-out part of a named dataset.
_SPLIT_OF_NAME = re.compile(
    rf"\b(?:test|evaluation|held[- ]out)\s+(?:sets?|splits?|batch(?:es)?|portions?|"
    rf"partitions?)\s+of\s+(?:the\s+)?(?P<name>{_NAME})")
#: "accuracy on X", "results on the X": a result word, then the name the result is on.
_RESULT_ON = re.compile(
    rf"(?i:\b(?:accuracy|error(?:\s+rates?)?|results?|performance|scores?|mAP|BLEU|F1|"
    rf"perplexity|state[- ]of[- ]the[- ]art))\s+on\s+(?:the\s+)?(?P<name>{_NAME})"
    r"(?:\s+(?:test|val|validation|dev)\b)?"  # 'results on X test.': the split closes the name
    r"(?=\s*(?:[.,;:)]|$|\s+(?:and|with|in|using|for|by|while|when|as)\b))")
_ON_NAME = re.compile(rf"\b(?:on|for|of)\s+(?:the\s+)?(?P<name>{_NAME})"
                      r"(?:\s+(?:test|val|validation|dev)\b)?(?=\s*(?:[.,;:)]|$|\s+"
                      r"(?:and|with|in|using|under|sorted|showing|for)\b|\s+\([^)]{1,12}\)\s*[.,;:]?$))")
_LEADING_NAME = re.compile(rf"^(?P<name>{_NAME})\s+results\b")
_NAMED_AS_TASK = re.compile(
    rf"(?<![\w-])(?P<name>(?:[A-Z][A-Z0-9\-’']{{2,}}|[A-Z][\w\-]*\d[\w\-]*)"
    rf"(?:\s+{_NAME_TOKEN})?)(?:\s+{_FUNCTION}[a-z][\w\-]*){{0,2}}\s+(?:classification|locali[sz]ation|"
    r"detection|segmentation|recognition|translation|summarization|tracking|estimation)\b")
_TRAINING_CUE = re.compile(
    r"(?i)\b(?:(?:pre-?train(?:ed|ing)?|train(?:ed|ing)?|fit(?:ted)?|learn(?:ed|t))\s+"
    r"(?:\w+\s+){0,6}?(?:on|with|from|using)\s+(?:[\w,’'\-]+\s+){0,6}"
    r"|\btraining\s+(?:data|set|corpus|split)\s*[:=(]\s*(?:the\s+)?)$")
#: Words after a training cue that turn to the evaluation ('trained on X, tested on Y').
_EVAL_TURN = re.compile(r"(?i)\b(?:evaluat\w*|test(?:ed|ing)?|validat\w*|measured|scored)\b")


def _after_training_cue(window: str) -> bool:
    """True when ``window`` (the text before a name) ends in a training cue ('trained on the',
    'fitted with', 'training data: '), unless it turns to the evaluation after the cue
    ('trained on X, tested on ')."""
    match = _TRAINING_CUE.search(window)
    return match is not None and not _EVAL_TURN.search(window[match.start():]) and not (
        _NEGATED.search(window[:match.start()]))


#: A training cue negated ('without training text from X', 'no pre-training on X'): the name
#: is excluded from the training data, not named as it.
_NEGATED = re.compile(r"(?i)\b(?:without|no|not|excluding)\s+(?:any\s+|the\s+)?$")


_CAPTION_PREFIX = re.compile(r"^\s*(?:Table|TABLE|Tab\.|Figure|FIGURE|Fig\.)\s*\w+\s*[:.]\s*")
_GENERIC = {
    "the", "a", "an", "our", "their", "this", "these", "all", "each", "both", "test", "tests",
    "dev", "development", "validation", "val", "train", "training", "results", "result",
    "table", "figure", "fig", "section", "model", "models", "method", "methods", "we", "it",
    "ours", "baseline", "baselines", "average", "avg", "mean", "median", "overall", "best",
    "new", "state", "art", "sota", "single", "ensemble", "other", "various", "different", "several",
    "standard", "full", "original", "same", "previous", "large", "small", "public", "real",
    "synthetic", "following", "main", "comparison", "experiments", "performance", "score",
    "scores", "accuracy", "error", "errors", "set", "sets", "data", "dataset", "datasets",
    "task", "tasks", "benchmark", "benchmarks", "top", "number", "proposed", "note", "see",
    "in", "on", "of", "for", "and", "with", "by", "to", "at", "from", "as", "is", "are",
    "using", "under", "after", "before", "between", "when", "where", "which", "that",
    "table1", "eq", "equation", "appendix", "supplementary", "material", "materials",
    "english", "french", "german", "chinese", "spanish", "japanese", "russian", "romanian",
    "czech", "arabic", "language", "languages", "image", "images", "text", "classification",
    "detection", "segmentation", "translation", "summarization", "recognition", "tracking",
    "i", "ii", "iii", "iv", "v", "x", "y", "k", "n", "m", "t", "input", "output", "zero-shot",
    "nlp", "cv", "ml", "ai", "context", "question", "questions", "answering",
    "seg", "instance", "semantic", "keypoint", "pose", "dense", "object", "estimation",
}
_SPLIT_WORDS = re.compile(
    r"(?i)\b(test|testing|dev|development|validation|val\.?|valid|train|training|held[- ]out)"
    r"(\s+(set|split|data))?\b")
#: Units and scales printed in a header: '(%)', 'in percent', '(×10^-2)', '(in thousands)'.
_UNIT = re.compile(r"\(\s*%\s*\)|\bin\s+percent\b|%|\(\s*\)"
                   r"|\(?(?<![\w^])[×x]\s*10\s*\^\s*[-−]?\d+\s*\)?"
                   r"|\(?\bin\s+(?:thousands|millions|billions)\b\)?")


def normalize_key(name: str) -> str:
    """Lower case letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKC", name).lower())


def clean_name(text: str) -> str:
    """A header or label reduced to the dataset name it prints: metric names, units, split
    words and footnote marks removed ("SST2 (acc)" -> "SST2", "VOC-2007 (mean AP)" ->
    "VOC-2007")."""
    text = unicodedata.normalize("NFKC", text)
    for _, start, end in sorted(find_metric_mentions(text), key=lambda m: -m[1]):
        text = text[:start] + " " + text[end:]
    text = _UNIT.sub(" ", text)
    text = re.sub(r"\(\s*(mc|acc|pc|sc|f1|em)\s*\)", " ", text, flags=re.IGNORECASE)
    text = re.sub(r"\(\s*\)", " ", text)
    text = re.sub(r"[*∗†‡§¶]+", "", text)
    return re.sub(r"\s+", " ", text).strip(" -–:,;/")


_TRAIN_HEADER = re.compile(
    r"(?:^|\s)train(?:ing)?(?:\s+(?:set|acc\.?|accuracy|err\.?|error))?\s*(?:\(%\))?\s*$")


#: 'Valid' as the split of a column header ('Valid PPL', 'Valid. loss', 'valid set'), not the
#: adjective of running text ('a valid comparison').
_VALID_HEADER = re.compile(
    r"\bvalid\.?(?=\s*(?:$|[(/]|set\b|split\b|ppl|perplexity|loss|acc|err|f1|bleu|wer|cer|nll|"
    r"bpc|bpb|bits|score))")


def split_from(text: str) -> str:
    """The split a result is on, from its header, caption or sentence (default test).

    A text that ends with a bare 'Train' / 'Training acc.' (a column header read last) is on
    the training split, whatever the caption says before it."""
    low = text.lower()
    if _TRAIN_HEADER.search(low):
        return "train"
    if (re.search(r"\b(validation|dev|development|val\.?)\b", low) or _VALID_HEADER.search(low)
            ) and not re.search(r"\btest\s+(set|error|accuracy|split)\b", low):
        return "validation"
    if re.search(r"\btrain(ing)? (accuracy|error|set accuracy|frame accuracy)\b", low):
        return "train"
    return "test"


def without_split(text: str) -> str:
    """A name without split words ("CIFAR-10 test set" -> "CIFAR-10")."""
    return re.sub(r"\s+", " ", _SPLIT_WORDS.sub(" ", text)).strip(" -–:,;")


def is_generic(name: str) -> bool:
    """True for phrases that name no dataset ("the test set", "Our model", "Top-1")."""
    tokens = [t for t in re.split(r"[^\w]+", name.lower()) if t]
    if not tokens or not normalize_key(name) or len(normalize_key(name)) < 2:
        return True
    return all(t in _GENERIC or t.isdigit() for t in tokens)


def looks_like_name(text: str) -> bool:
    """A short printed name: 1-6 tokens, starting with a capital or a digit, or CamelCase."""
    tokens = text.split()
    if not 1 <= len(tokens) <= 6 or is_generic(text):
        return False
    first = tokens[0]
    return bool(re.match(r"[A-Z0-9]|[a-z]+[A-Z]|[a-z]+\d", first))


def registry_names(text: str) -> list[tuple[str, int]]:
    """Registry datasets printed in ``text``: (the name as printed, offset)."""
    return [(printed, offset) for _, printed, offset in find_dataset_mentions(text)]


def name_phrases(text: str, caption: bool = False) -> list[tuple[str, int]]:
    """Names the text presents as datasets, as printed, with their offsets (see
    :func:`graded_name_phrases`)."""
    return [(n, o) for n, o, _ in graded_name_phrases(text, caption)]


def graded_name_phrases(text: str, caption: bool = False) -> list[tuple[str, int, bool]]:
    """Names the text presents as datasets, as printed, with their offsets and strength.

    "the CNN / Daily Mail dataset", "on the EM segmentation challenge", "the Google commands
    dataset", "the JFT development set" and registry names; in a caption also a leading
    "WMT’14 English-German results" and "ILSVRC classification". Names in a training context
    ("pre-trained on the X dataset") are left out: they are not what results are on.

    A name is *strong* (the third item) when a dataset cue presents it: a strong noun ("X
    dataset/benchmark/corpus/test set/challenge", "the dataset X"), a result on it ("results on
    X"), a caption's leading "X results", or the registry. Names only a weak noun ("X data",
    "X task") or a task word ("X classification") follows are weak.
    """
    if caption:
        text = _CAPTION_PREFIX.sub("", text)
    printed = text  # 'English to French' is read as one name (same length: offsets hold)
    text = _LANGUAGE_PAIR.sub(lambda m: m.group(0).replace(" to ", "-to-"), text)
    patterns = [_NAMED_AS_DATASET, _THE_DATASET_NAME, _QUOTED_AFTER_NOUN, _RESULT_ON,
                _APPOSITIVE, _SPLIT_OF_NAME]
    if caption:
        patterns += [_LEADING_NAME, _NAMED_AS_TASK]
    found: list[tuple[str, int]] = []
    strong: set[tuple[str, int]] = set()
    for pattern in patterns:
        for match in pattern.finditer(text):
            name = _trim(match.group("name"))
            if "," in name and _CLAUSE_VERB.match(text, match.end("name")):
                name = _trim(name.rsplit(",", 1)[0])  # 'the dataset X, N is 3072': N is a subject
            if not name or not looks_like_name(name) or not clean_name(name) or (
                    _PROTOCOL.search(name)):
                continue
            # 'The X corpus': the name starts after the article the match took
            start = match.start("name") + max(match.group("name").find(name), 0)
            noun = match.groupdict().get("noun") or ""
            if " " not in name and pattern is not _APPOSITIVE and re.fullmatch(
                    r"(?i)benchmark|treebank", noun) and (
                    match.group("name").strip() == name):
                name = f"{name} {noun}"  # 'the STS benchmark': the noun is part of the name
            weak = "noun" in match.groupdict() and match.group("noun") and re.fullmatch(
                _WEAK_NOUN, match.group("noun"))
            if weak and not _acronym_like(name):
                continue
            if " " not in name and start == 0 and re.fullmatch(r"[A-Z][a-z]+", name):
                continue  # a capitalised word opening a sentence
            noun = text[match.end("name"):match.end()].strip().lower()
            # 'the test sets of X and Y' (the noun before the names): a list as well
            plural = noun == "corpora" or (noun.endswith("s") and not noun.endswith("us")) or (
                pattern is _SPLIT_OF_NAME)
            if pattern is _RESULT_ON:  # 'results on X and Y': a list; 'on X Datasets': a kind
                if re.search(r"(?i)\b(?:data\s?sets|datasets|benchmarks|tasks|corpora)$", name):
                    continue
                plural = True
            parts = re.split(r"\s*(?:,|\band\b)\s*", name) if plural and (
                "," in name or " and " in name) else [name]
            cued = _cued(pattern, match, text)
            if len(parts) > 1 and all(looks_like_name(p) for p in parts):
                named = [(p, start + name.find(p)) for p in parts]
            elif plural and " " in name and (not any(_acronym_like(t) for t in name.split())
                                              or all(t.islower() for t in name.split()[1:])):
                continue  # 'Transfer Learning Datasets', 'mAP across multiple datasets'
                # describe several datasets, they are not one dataset's name
            else:
                named = [(name, start)]
            found += named
            if cued:
                strong.update(named)
    registry = registry_names(text)
    found += registry
    strong.update(registry)
    return [(_as_printed(n, o, printed), o, (n, o) in strong) for n, o in _dedupe(found)
            if not _after_training_cue(text[max(0, o - 80):o])]


#: A language pair written with 'to' ('English to French'): one name, like 'English-French'.
_LANGUAGE = (r"(?:English|German|French|Spanish|Czech|Romanian|Russian|Chinese|Japanese|"
             r"Italian|Portuguese|Dutch|Finnish|Turkish|Arabic|Hindi|Korean|Vietnamese)")
_LANGUAGE_PAIR = re.compile(rf"\b{_LANGUAGE} to {_LANGUAGE}\b")


def _as_printed(name: str, offset: int, printed: str) -> str:
    """``name`` as the text prints it (a language pair joined for reading gets its 'to' back)."""
    original = printed[offset:offset + len(name)]
    return original if "-to-" in name and original.replace(" to ", "-to-") == name else name


#: An evaluation protocol, not data: 'Cross-validation results', '10-fold CV accuracy'.
_PROTOCOL = re.compile(r"(?i)\bcross[- ]?validat|\b\d+[- ]fold\b|\bleave[- ]\w+[- ]out\b")


def _cued(pattern: re.Pattern[str], match: re.Match[str], text: str) -> bool:
    """True when ``match`` presents its name with a dataset cue (a strong noun, a result on
    it, a caption's 'X results'), not with a weak noun or a task word only."""
    if pattern in (_RESULT_ON, _LEADING_NAME, _QUOTED_AFTER_NOUN, _SPLIT_OF_NAME):
        return True
    if pattern is _NAMED_AS_TASK:
        return False
    noun = match.groupdict().get("noun")
    if noun is None:  # 'the dataset X': the noun precedes the name
        noun = text[match.start():match.start("name")]
    return bool(re.search(_STRONG_NOUN, noun))


def training_data(name: str, text: str) -> bool:
    """True when ``text`` presents ``name`` as training data ("trained on X data", "pre-trained
    with X"): results are not on it."""
    hits = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)]
    return bool(hits) and all(_after_training_cue(text[max(0, o - 80):o]) for o in hits)


def _acronym_like(name: str) -> bool:
    """Two capitals or a digit: 'SST-2', 'CoNLL', 'ISBI' (not 'Zero-shot', 'Without')."""
    return bool(re.search(r"\d", name)) or len(re.findall(r"[A-Z]", name)) >= 2


_TRAILING = {"the", "a", "an", "our", "their", "this", "these", "results", "result", "and",
             "of", "on", "in", "for", "with", "set", "sets", "data"}


_TASK_TAIL = {"summarization", "classification", "translation", "detection", "recognition",
              "parsing", "tagging"}


#: A singular verb right after names joined by a comma ('X, N is 3072'): the last name is the
#: subject of a new clause (a list would take 'are'), no item of the list.
_CLAUSE_VERB = re.compile(r"\s+(?:is|was|has)\b")


def _trim(name: str) -> str:
    """Drop leading articles/verbs a greedy match took ("Table 2 SQuAD" -> "SQuAD") and a
    trailing task word ("NewsSum summarization" -> "NewsSum") unless that leaves a metric."""
    tokens = name.split()
    while tokens and (tokens[0].lower() in _GENERIC or re.fullmatch(r"\d+[:.]?", tokens[0])):
        tokens = tokens[1:]
    while tokens and (tokens[-1].lower() in _TRAILING or (
            len(tokens) > 1 and tokens[-2].endswith(",") and re.fullmatch(
                r"\d+(?:[.,]\d+)*%?", tokens[-1]))):
        tokens = tokens[:-1]  # 'on X, 31.4% ...': the number after the comma is no part
    while len(tokens) > 2 and tokens[-2].lower() in {"and", "or", "&"} and re.fullmatch(
            r"\d+(?:[.,]\d+)*%?", tokens[-1]):
        tokens = tokens[:-2]  # '85.1% on X and 62.2% on Y': the next value is no part of X
    if len(tokens) > 1 and tokens[-1].lower() in _TASK_TAIL and clean_name(" ".join(tokens[:-1])):
        tokens = tokens[:-1]
    return " ".join(tokens).strip(" ,;:")


def _dedupe(found: list[tuple[str, int]]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for name, offset in sorted(found, key=lambda f: (f[1], -len(f[0]))):
        if any(o <= offset < o + len(n) for n, o in out):
            continue
        out.append((name, offset))
    return out


def on_names(text: str) -> list[tuple[str, int]]:
    """Capitalised names after 'on'/'for' ("results on ImageNet.") - weaker evidence."""
    out = []
    for match in _ON_NAME.finditer(text):
        name = _trim(match.group("name"))
        start = match.start("name")
        if name and looks_like_name(name) and not find_metric_mentions(name) and not (
                _after_training_cue(text[max(0, start - 80):start])):
            out.append((name, start))
    return out


#: A word opening a caption's legend ('Legend:', 'Notation:', 'Key:', 'Abbreviations:').
_LEGEND_WORD = re.compile(r"(?i)\b(?:legend|notations?|key|abbreviations?)\s*:\s+")
#: One gloss of a legend: a short code, a colon, what it stands for ('A+B: A trainval +
#: B trainval', 'R: recurrent context'), opening the caption or a clause.
_GLOSS = re.compile(r"(?:^|(?<=[,;.]\s)|(?<=:\s))(?P<code>[^\s:,;()\[\]]{1,12}):\s+")


def without_legend(caption: str) -> str:
    """``caption`` with the definitions of its legend blanked (same length, offsets hold).

    A legend glosses the codes a table prints ('Legend: A+B: A trainval + B trainval, A+B+Q:
    A+B plus QORV segmentation labels, R: ...'): a name in a gloss says what a code stands for
    (training data, extra labels, a setting), not the data the results are on. A legend is a
    legend word followed by a gloss, or two glosses at least; each definition runs from its
    colon to the next gloss (or the caption's end).
    """
    glosses = list(_GLOSS.finditer(caption))
    word = _LEGEND_WORD.search(caption)
    if word is not None:
        glosses = [g for g in glosses if g.start() >= word.start()]
    if not glosses or (word is None and len(glosses) < 2):
        return caption
    out = caption
    for k, gloss in enumerate(glosses):
        end = glosses[k + 1].start() if k + 1 < len(glosses) else len(caption)
        out = out[:gloss.end()] + " " * (end - gloss.end()) + out[end:]
    return out


#: After a metric: what it was measured on ('AUC achieved on the ', 'accuracy for ').
_METRIC_ON = re.compile(
    r"\s*(?:\([^()]{0,30}\)\s*)?(?:(?:achieved|obtained|reported|measured|computed|scored)"
    r"\s+)?(?:on|for)\s+(?:the\s+)?(?P<rest>[^.;:()]{0,80})")
_ONE_SET_NOUN = re.compile(
    r"(?i)^(?P<words>(?:[\w’'\-+.]+\s+){1,3}?)(?:data\s?set|corpus|benchmark|test\s?set|task)\b"
    r"(?!s)")


def metric_of_one_dataset(sentence: str, end: int,
                          is_dataset: Callable[[str], bool] = lambda _: False) -> str | None:
    """The one named dataset the sentence gives the metric mentioned up to ``end`` ('the AUC
    achieved on the zelda dataset' -> 'zelda', 'accuracy on the Quorn benchmark', 'F1 for
    ZetaSet' when ``is_dataset`` knows it), or None ('accuracy on all datasets', 'on the test
    set', 'for X and Y').
    """
    match = _METRIC_ON.match(sentence, end)
    if match is None:
        return None
    rest = match.group("rest")
    noun = _ONE_SET_NOUN.match(rest)
    if noun is not None:
        words = noun.group("words").strip()
        return None if is_generic(words) else words
    tokens = rest.split()
    for k in range(1, min(4, len(tokens)) + 1):
        name = " ".join(tokens[:k])
        if is_dataset(name) and not (  # 'for X and Y': two datasets
                k < len(tokens) and re.match(r"(?:and|or|&|vs\.?)$", tokens[k])) and not (
                name.endswith(",")):
            return name
    return None


#: A clause pointing at another table or figure ('see Table 5 for Y'): its names are that one's.
_POINTS_ELSEWHERE = re.compile(r"\b(?:Tables?|Tab\.|Figures?|Fig\.)\s*[A-Z]{0,2}\d+")


def other_datasets_in(caption: str, chosen: list[str], known: Iterable[str]) -> list[str]:
    """Names of ``known`` (the datasets the paper presents) a caption prints besides the
    ``chosen`` ones: 'Accuracy on X. The last two columns report Y' names Y as well, so X is
    not sure to be every cell's dataset. Not counted: a name in a clause pointing at another
    table ('see Table 5 for Y'), a name the caption presents as training data ('models trained
    on Y'), a name within a chosen one or holding one ('X-small' beside 'X')."""
    text = _CAPTION_PREFIX.sub("", caption)
    text = " ".join(c for c in re.split(r"(?<=[.;])\s+", text)
                    if not _POINTS_ELSEWHERE.search(c))
    if any(re.search(rf"(?<![\w-]){re.escape(c)}\s+(?:test|evaluation)\b|\b(?:evaluated|tested)"
                     rf"\s+on\s+(?:the\s+)?{re.escape(c)}(?![\w-])", text) for c in chosen):
        return []  # 'Y models on the X test set': the chosen one is said to be the test data
    keys = [normalize_key(c) for c in chosen]
    initials = {"".join(w[0] for w in re.findall(r"[A-Za-z][\w’'-]*", c)).lower() for c in chosen}
    out: list[str] = []
    for name in dict.fromkeys(known):
        key = normalize_key(name)
        if not key or any(key in k or k in key for k in keys) or not looks_like_name(name) or (
                key in initials) or any(re.search(  # 'Zeta Kappa Set (ZKS)': its short name
                    rf"(?<![\w-]){re.escape(c)}(?:\s+[\w-]+){{0,2}}\s*\(\s*{re.escape(name)}\s*\)",
                    text) for c in chosen):
            continue
        hits = [m for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
                if not _SOURCE_BEFORE.search(text[max(0, m.start() - 40):m.start()])
                and not _SOURCE_AFTER.match(text, m.end())]
        if hits and not training_data(name, text) and all(
                key not in normalize_key(o) for o in out):
            out.append(name)
    return out


#: Before a name, what makes it the models' source ('distilled from Y', 'tuned on Y',
#: 'selected on the Y dev set'), after it ('Y models', 'Y-trained', 'Y features').
_SOURCE_BEFORE = re.compile(
    r"(?i)\b(?:from|(?:tuned|selected|chosen|validated)\s+on|(?:initiali[sz]ed|distilled|"
    r"transferred|adapted)\s+(?:from|with|on))\s+(?:the\s+)?$")
_SOURCE_AFTER = re.compile(
    r"(?i)[\s-]+(?:models?|(?:pre-?)?trained|features|embeddings|weights|vectors|"
    r"initiali[sz](?:ed|ation)|checkpoints?)\b")


#: A column header naming its data as what the models were trained on: 'Train: X', 'trained
#: on X', 'X-pretrained', 'pre-training on X', 'X (source)', added or left out ('+X', 'w/o X');
#: 'X (train)' is X's training split.
_TRAINING_HEADER = re.compile(
    r"(?i)^\s*(?:train(?:ing)?(?:\s+(?:set|data|on))?\s*[:=]|(?:pre-?)?train(?:ed|ing)\s+"
    r"(?:on|with)\b|\+\s*(?=\w)|w/o?\s)|\(source\)\s*$|[\w)]-?(?:pre-?trained|trained)\s*$")


def training_header(header: str) -> bool:
    """True when a column header presents the name it prints as training data ('Train: X',
    'X-pretrained', 'X (source)'): the values are not on it (the caption's test data, if any)."""
    return bool(_TRAINING_HEADER.search(header))


def known_as_registry(name: str) -> bool:
    """True when the registry resolves the name (a dataset for certain)."""
    return resolve_alias(name) is not None


def canonical_dataset(name: str) -> str:
    """Registry name for ``name`` when it resolves, else the name cleaned up."""
    return resolve_alias(name) or re.sub(r"\s+", " ", name).strip()
