"""Plan JSON v1.1 (seed 000, stage 4): the contract between the planner and the notebook stage.

The same models are the LLM structured-output schema of the schema fixer and the validated,
stored plan. ``PlanDocumentV11.model_validate`` runs after :func:`sanitize_plan`.

Field conventions the notebook generators (stage 5) rely on:

* ``dataset.name`` is a canonical :data:`repro_assets.papers.registry.DATASET_REGISTRY` key
  (``breast_cancer``, ``sst2``, ``synthetic_classification`` ...) once the sanitizer ran.
* ``dataset.source`` is ``sklearn`` (bundled, offline), ``huggingface`` (``hf_dataset`` /
  ``hf_config``) or ``synthetic``.
* ``model.architecture`` is one of :data:`ARCHITECTURES`; ``model.framework`` is ``sklearn``
  or ``pytorch``; ``model.hyperparameters`` carries model-specific knobs (``C``,
  ``n_estimators``, ``max_depth``, ``hidden_layer_sizes`` ...), values are plain scalars or lists
  of ints.
* metric names are lower-case canonical names from :data:`METRICS`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from repro_assets.errors import CodedError

PLAN_VERSION = "1.1"

#: Canonical model architectures a plan may name (stage 5 has one template per family).
ARCHITECTURES: tuple[str, ...] = (
    "logistic_regression",
    "linear_svm",
    "random_forest",
    "gradient_boosting",
    "mlp",
    "knn",
    "naive_bayes",
    "decision_tree",
    "cnn",
    "rnn",
    "transformer",
)

#: Canonical metric names.
METRICS: tuple[str, ...] = (
    "accuracy",
    "f1",
    "precision",
    "recall",
    "auc",
    "error_rate",
    "mse",
    "rmse",
    "mae",
    "r2",
    "bleu",
    "perplexity",
)

#: Plots and tables the notebook can render.
PLOTS: tuple[str, ...] = ("loss_curve", "accuracy_curve")
TABLES: tuple[str, ...] = ("confusion_matrix", "classification_report")

HyperValue = int | float | str | bool | list[int] | None


class PlanDataset(BaseModel):
    """Which data to train and evaluate on."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Canonical dataset name from the dataset registry, e.g. sst2.")
    source: Literal["sklearn", "huggingface", "synthetic"] = Field(
        default="sklearn",
        description="Where the data comes from: scikit-learn built-in, Hugging Face, synthetic.",
    )
    hf_dataset: str | None = Field(
        default=None, description="Hugging Face dataset id (source=huggingface), e.g. glue."
    )
    hf_config: str | None = Field(
        default=None, description="Hugging Face config name, e.g. sst2; null if none."
    )
    split: str = Field(default="train", description="Split used for training.")
    test_split: str = Field(
        default="test", description="Split used for evaluation (e.g. validation for GLUE)."
    )
    test_size: float | None = Field(
        default=None,
        gt=0.0,
        lt=1.0,
        description="Held-out fraction when the dataset has no separate test split (0-1).",
    )


class PlanModel(BaseModel):
    """The model to train."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Model name as the paper calls it, e.g. TextCNN.")
    architecture: str = Field(
        description="Model family, one of: " + ", ".join(ARCHITECTURES) + "."
    )
    framework: Literal["sklearn", "pytorch"] = Field(
        default="sklearn", description="Library that implements the model on CPU."
    )
    hyperparameters: dict[str, HyperValue] = Field(
        default_factory=dict,
        description="Model-specific settings (C, n_estimators, max_depth, hidden_layer_sizes).",
    )


class PlanConfig(BaseModel):
    """Training configuration."""

    model_config = ConfigDict(extra="forbid")

    seed: int = Field(default=42, description="Random seed.")
    batch_size: int | None = Field(default=None, ge=1, description="Mini-batch size.")
    epochs: int = Field(default=10, ge=1, description="Training epochs / max iterations.")
    learning_rate: float | None = Field(default=None, gt=0.0, description="Learning rate.")
    optimizer: str | None = Field(default=None, description="Optimizer, e.g. adam, sgd.")
    weight_decay: float | None = Field(
        default=None, ge=0.0, description="L2 penalty / weight decay."
    )
    dropout: float | None = Field(default=None, ge=0.0, lt=1.0, description="Dropout rate.")


class PlanMetrics(BaseModel):
    """What to measure and what the paper claims."""

    model_config = ConfigDict(extra="forbid")

    primary: str = Field(description="Primary metric, one of: " + ", ".join(METRICS) + ".")
    secondary: list[str] = Field(default_factory=list, description="Further metrics to report.")
    goal_value: float | None = Field(
        default=None, description="The paper's claimed value of the primary metric, as decimal."
    )
    loss: str | None = Field(default=None, description="Training loss, e.g. cross_entropy.")


class Justification(BaseModel):
    """A verbatim quote from the paper that supports a plan decision."""

    model_config = ConfigDict(extra="forbid")

    quote: str = Field(description="Verbatim text from the paper (or the reason if inferred).")
    citation: str = Field(
        description="Where the quote is, e.g. 'Section 4.1, page 3'; 'Inferred' if none."
    )


class PlanJustifications(BaseModel):
    """Justifications for the dataset, model and config choices (all required)."""

    model_config = ConfigDict(extra="forbid")

    dataset: Justification = Field(description="Why this dataset.")
    model: Justification = Field(description="Why this model.")
    config: Justification = Field(description="Why this training configuration.")
    metrics: Justification | None = Field(
        default=None, description="Where the claimed metric value comes from."
    )


class PlanPolicy(BaseModel):
    """Execution policy."""

    model_config = ConfigDict(extra="forbid")

    budget_minutes: int = Field(default=10, ge=1, description="CPU time budget in minutes.")
    license: str = Field(default="Unknown", description="Dataset license, e.g. MIT, BSD-3-Clause.")
    cpu_only: bool = Field(default=True, description="Run on CPU only.")


class PlanVisualizations(BaseModel):
    """Plots and tables the notebook renders."""

    model_config = ConfigDict(extra="forbid")

    plots: list[str] = Field(
        default_factory=lambda: ["loss_curve", "accuracy_curve"],
        description="Plots, from: " + ", ".join(PLOTS) + ".",
    )
    tables: list[str] = Field(
        default_factory=lambda: ["confusion_matrix"],
        description="Tables, from: " + ", ".join(TABLES) + ".",
    )


class PlanExplain(BaseModel):
    """Explanation settings for the report."""

    model_config = ConfigDict(extra="forbid")

    accessible: bool = Field(default=True, description="Plain-language explanation.")
    kid_mode: bool = Field(default=False, description="Explain for a child.")


class PlanDocumentV11(BaseModel):
    """Plan JSON v1.1 (seed 000, stage 4)."""

    model_config = ConfigDict(extra="forbid")

    version: Literal["1.1"] = Field(default="1.1", description="Always '1.1'.")
    dataset: PlanDataset = Field(description="Dataset to use.")
    model: PlanModel = Field(description="Model to train.")
    config: PlanConfig = Field(description="Training configuration.")
    metrics: PlanMetrics = Field(description="Metrics and the claimed goal.")
    justifications: PlanJustifications = Field(description="Quotes supporting the plan.")
    policy: PlanPolicy = Field(default_factory=PlanPolicy, description="Execution policy.")
    visualizations: PlanVisualizations = Field(
        default_factory=PlanVisualizations, description="Plots and tables."
    )
    explain: PlanExplain = Field(default_factory=PlanExplain, description="Explanations.")


class DataResolution(BaseModel):
    """Outcome of dataset resolution for a plan (seed stage 4, step 8)."""

    model_config = ConfigDict(extra="forbid")

    dataset_name: str = Field(description="Canonical (or as-given when unknown) dataset name.")
    requested_name: str = Field(description="The name the raw plan asked for.")
    status: Literal["RESOLVED", "BLOCKED", "UNKNOWN", "COMPLEX"] = Field(
        description="RESOLVED, BLOCKED, UNKNOWN or COMPLEX."
    )
    source: str | None = Field(default=None, description="sklearn, huggingface or synthetic.")
    registry_metadata: dict[str, object] = Field(
        default_factory=dict, description="The registry entry of the resolved dataset."
    )
    reason: str | None = Field(default=None, description="Why it is not RESOLVED.")


class PlanResult(BaseModel):
    """What the planning stage returns and stores (seed stage 4, step 11)."""

    model_config = ConfigDict(extra="forbid")

    plan_id: str = Field(description="Plan id.")
    paper_id: str = Field(description="Paper id.")
    plan_version: Literal["1.1"] = Field(default="1.1", description="Plan version.")
    plan: PlanDocumentV11 = Field(description="The validated plan.")
    warnings: list[str] = Field(default_factory=list, description="Sanitizer/resolution notes.")
    data_resolution: DataResolution = Field(description="Dataset resolution outcome.")
    method: Literal["heuristic", "llm"] = Field(description="How the plan was made.")
    stage_path: str = Field(
        description="heuristic, two_stage, stage1_fallback (Stage 2 failed) or single."
    )
    llm_usage: dict[str, object] = Field(default_factory=dict, description="LLM usage totals.")


class ClaimTarget(BaseModel):
    """A claim a plan should reproduce, as a request names it (seed: ``POST /plan`` claims).

    It is matched against the paper's grounded claims; the plan targets the first match.
    """

    model_config = ConfigDict(extra="forbid")

    dataset_name: str = Field(description="Dataset as the request names it, e.g. SST-2.",
                              max_length=200)
    metric_name: str = Field(description="Metric, e.g. accuracy.", max_length=100)
    metric_value: float | None = Field(
        default=None, description="Claimed value (0.881 or 88.1); None matches any value.")
    split: str | None = Field(default=None, description="Split; None matches any split.",
                              max_length=50)

    def label(self) -> str:
        """``dataset/metric[=value]`` for messages."""
        value = "" if self.metric_value is None else f"={self.metric_value:g}"
        return f"{self.dataset_name}/{self.metric_name}{value}"


class PlanError(CodedError, RuntimeError):
    """Planning failed; ``code`` is one of the seed's E_PLAN_* codes (or E_POLICY_CAP_EXCEEDED).

    Attributes:
        code: the error code.
        details: JSON-able details for the API and the asset's failure metadata.
    """

    def __init__(self, message: str, code: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message, code=code, details=details or {})
