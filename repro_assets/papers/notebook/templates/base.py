"""The template contract: static code for one model family (seed 000, stage 5).

A template is Python source written by people, never by an LLM, and never formatted with a
plan value. Everything a plan decides reaches the code as a papermill parameter (see
:mod:`repro_assets.papers.notebook.generator`); the template reads those variables at run time.

Variables a template can rely on (defined by the common cells before it): the parameters,
``hp_int/hp_float/hp_str/hp_int_list`` (typed, validated access to ``hyperparameters``),
``X_train, X_test, y_train, y_test`` (numpy arrays, or lists of strings for text),
``task`` ("classification" | "regression"), ``modality`` ("tabular" | "image" | "text"),
``n_classes``, ``class_names``, ``curve_score(y_true, y_pred)``, ``log_epoch(epoch, **values)``,
``notes`` (a list of strings for the report) and ``epochs``.

What a template must define for the common evaluation cells: ``X_eval`` (test inputs in the
model's representation), ``predict_labels(X)`` and ``predict_scores(X)`` (class probabilities or
``None``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class NotebookTemplate:
    """One model family's notebook code.

    Attributes:
        name: template id, e.g. ``sklearn_logistic_regression``.
        title: human-readable model family.
        framework: ``sklearn`` or ``pytorch``.
        architectures: plan architectures this template implements directly.
        tasks: tasks it supports (``classification``, ``regression``).
        model_markdown: markdown shown above the model cell (static text).
        model_code: code cell building the model (reads parameters only).
        train_code: code cell with the training loop (one ``log_epoch`` call per epoch).
        kid_words: how the kid explanation names this model (static text).
        default_hyperparameters: values used when the plan gives none (documentation and the
            parameters cell defaults).
        requires: importable modules needed at run time (checked by the generator).
        preprocess: ``scale`` (standardise tabular inputs, TF-IDF for text), ``raw`` (trees:
            no scaling, TF-IDF for text) or ``none`` (the template prepares its own inputs).
    """

    name: str
    title: str
    framework: str
    architectures: tuple[str, ...]
    tasks: tuple[str, ...]
    model_markdown: str
    model_code: str
    train_code: str
    kid_words: str
    default_hyperparameters: dict[str, object] = field(default_factory=dict)
    requires: tuple[str, ...] = ("sklearn",)
    preprocess: str = "scale"
