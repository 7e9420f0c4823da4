"""The settings tree: every environment variable the project reads, typed, with its default.

One group per concern (paths, database, embedding, ...), each a pydantic-settings model whose
field aliases are the variable names (case-sensitive, as on Linux). A blank value counts as
unset (the default applies). Groups are read lazily and cached per environment snapshot, so a
test's ``monkeypatch.setenv`` is seen at once and a bad value in one group does not break the
others. ``REPRO_MODEL_<ROLE>`` is the one pattern variable (see :func:`role_model`).
"""

from __future__ import annotations

import threading
from functools import cached_property
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BeforeValidator, Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from repro_assets.errors import CodedError
from repro_assets.settings import environment

TRUE_VALUES = ("1", "true", "yes", "on")


class SettingsError(CodedError, ValueError):
    """A variable is set to a value of the wrong type (``E_BAD_SETTING``); ``details`` holds
    the variable's name and the value as set."""

    code = "E_BAD_SETTING"

    def __init__(self, name: str, kind: str, raw: Any) -> None:
        super().__init__(f"environment variable {name} must be {kind}, got {raw!r}",
                         details={"variable": name, "value": raw})


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in TRUE_VALUES


#: A yes/no variable: ``1``, ``true``, ``yes`` or ``on`` (any case) is yes, anything else no.
Flag = Annotated[bool, BeforeValidator(_flag)]


def _stripped(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


#: A string variable whose surrounding blanks are dropped.
Text = Annotated[str, BeforeValidator(_stripped)]


def split_list(value: str) -> list[str]:
    """The non-blank, stripped items of a comma-separated value."""
    return [item.strip() for item in value.split(",") if item.strip()]


class Group(BaseSettings):
    """Base of a settings group: variables by their exact names, blank = unset."""

    model_config = SettingsConfigDict(case_sensitive=True, extra="ignore", frozen=True,
                                      populate_by_name=False)

    @model_validator(mode="before")
    @classmethod
    def _drop_blank(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {k: v for k, v in data.items() if not (isinstance(v, str) and not v.strip())}
        return data

    @classmethod
    def variables(cls) -> dict[str, str]:
        """Variable name -> field name of this group."""
        return {str(info.alias): name for name, info in cls.model_fields.items() if info.alias}


class PathSettings(Group):
    """Where the project's data lives."""

    home: str | None = Field(None, alias="REPRO_HOME",
                             description="project root (default: the working directory)")
    data_dir: str | None = Field(None, alias="REPRO_DATA_DIR",
                                 description="data folder (default `<home>/data`)")
    env: str = Field("dev", alias="REPRO_ENV", description="environment name in storage paths")
    blob_root: str | None = Field(None, alias="REPRO_BLOB_ROOT",
                                  description="blob store root (default `<data>/blobs`)")
    inbox_root: str | None = Field(None, alias="REPRO_INBOX_ROOT",
                                   description="drop folders root (default `<data>/inbox`)")
    pg_dir: str | None = Field(None, alias="REPRO_PG_DIR",
                               description="embedded Postgres folder (default `<data>/.pg`)")
    dagster_home: str | None = Field(None, alias="DAGSTER_HOME",
                                     description="Dagster instance folder (`<data>/.dagster`)")
    model_cache: Text = Field("", alias="REPRO_MODEL_CACHE",
                              description="ONNX exports folder (default `<data>/models`)")
    datasets_dir: Text = Field("", alias="REPRO_DATASETS_DIR",
                               description="local dataset copies (default `<data>/datasets`)")


class DatabaseSettings(Group):
    """The project's Postgres and Dagster's storage."""

    url: Text = Field("", alias="REPRO_DATABASE_URL",
                      description="PostgreSQL with pgvector (default: embedded pgserver)")
    dagster_pg_url: Text = Field("", alias="REPRO_DAGSTER_PG_URL",
                                 description="Dagster's run/event/schedule storage URL")
    dagster_database: Text = Field("", alias="REPRO_DAGSTER_DATABASE",
                                   description="name of Dagster's database beside the project's")
    hnsw_ef_search: int = Field(100, alias="REPRO_HNSW_EF_SEARCH",
                                description="HNSW search breadth")
    hnsw_m: int = Field(24, alias="REPRO_HNSW_M",
                        description="HNSW links per node of a new chunk index")
    hnsw_ef_construction: int = Field(128, alias="REPRO_HNSW_EF_CONSTRUCTION",
                                      description="HNSW build breadth of a new chunk index")
    search_mode: Literal["hybrid", "dense"] = Field(
        "dense", alias="REPRO_SEARCH_MODE",
        description="dense (cosine only) or hybrid (dense + full-text, RRF; opt-in)")


class EmbeddingSettings(Group):
    """The embedding model and how it runs."""

    model: str = Field("all-MiniLM-L6-v2", alias="REPRO_EMBEDDING_MODEL",
                       description="sentence-transformers model")
    backend: str = Field("", alias="REPRO_EMBEDDING_BACKEND",
                         description="torch, onnx or onnx-int8 (default by device)")
    device: Text = Field("", alias="EMBEDDING_DEVICE", description="torch device (default cpu)")
    chunk_tokens: int = Field(500, alias="REPRO_CHUNK_TOKENS", description="target chunk size")


class RunSettings(Group):
    """Runs, sensors, the UI and the reproduction thresholds."""

    executor: str = Field("", alias="REPRO_EXECUTOR",
                          description="multiprocess (default), in_process or k8s")
    ui_stop_seconds: float = Field(6.0, alias="REPRO_UI_STOP_SECONDS",
                                   description="grace of `make ui` on Ctrl-C")
    ingest_burst_max: int = Field(50, alias="REPRO_INGEST_BURST_MAX",
                                  description="papers per multi-paper ingest run")
    inbox_tick_max_files: int = Field(200, alias="REPRO_INBOX_TICK_MAX_FILES",
                                      description="inbox files read per sensor tick")
    backfill_max_attempts: int = Field(3, alias="REPRO_BACKFILL_MAX_ATTEMPTS",
                                       description="attempts per stale partition")
    backfill_max_runs: int = Field(100, alias="REPRO_BACKFILL_MAX_RUNS",
                                   description="runs requested per backfill tick")
    notebook_threads: int = Field(1, alias="REPRO_NOTEBOOK_THREADS",
                                  description="threads of a reproduction notebook")
    tolerance_points: float = Field(2.0, alias="REPRO_TOLERANCE_POINTS",
                                    description="reproduced within this many points")
    partial_points: float = Field(5.0, alias="REPRO_PARTIAL_POINTS",
                                  description="partially reproduced within this many points")
    api_public_url: str = Field("", alias="REPRO_API_PUBLIC_URL",
                                description="the API's URL in form links")


class PdfSettings(Group):
    """Limits of PDF intake and the parse worker."""

    max_pages: int = Field(400, alias="REPRO_MAX_PAGES", description="pages per PDF")
    max_content_mb: int = Field(128, alias="REPRO_PDF_MAX_CONTENT_MB",
                                description="decompressed content per PDF")
    memory_mb: int = Field(768, alias="REPRO_PDF_MEMORY_MB", description="parse worker memory")
    cpu_s: int = Field(30, alias="REPRO_PDF_CPU_S", description="parse worker CPU seconds")
    wall_s: int = Field(45, alias="REPRO_PDF_WALL_S", description="parse worker wall seconds")
    workers: int = Field(2, alias="REPRO_PDF_WORKERS", description="parallel parse workers")
    fetch_timeout_s: int = Field(30, alias="REPRO_FETCH_TIMEOUT_S",
                                 description="download timeout of a PDF URL")


class FetchSettings(Group):
    """Outbound HTTP: who we are and where we may go."""

    allow_private: Flag = Field(False, alias="REPRO_ALLOW_PRIVATE_FETCH",
                                description="allow fetching private addresses")
    allowlist: str = Field("", alias="REPRO_FETCH_ALLOWLIST",
                           description="hosts/networks allowed despite being private")
    contact_email: Text = Field("", alias="REPRO_CONTACT_EMAIL",
                                description="operator contact in User-Agent and API calls")


class LLMSettings(Group):
    """LLM provider, keys, models, limits (providers: :mod:`repro_assets.llm.providers`)."""

    provider: Text = Field("", alias="REPRO_LLM_PROVIDER", description="provider (auto)")
    openai_api_key: Text = Field("", alias="OPENAI_API_KEY", repr=False,
                                 description="OpenAI key")
    anthropic_api_key: Text = Field("", alias="ANTHROPIC_API_KEY", repr=False,
                                    description="Anthropic key")
    base_url: Text = Field("", alias="REPRO_LLM_BASE_URL",
                           description="OpenAI-compatible server URL")
    model: Text = Field("", alias="REPRO_LLM_MODEL", description="model of every role")
    model_id: Text = Field("", alias="MODEL_ID", description="local transformers model")
    tokenizer_id: Text = Field("", alias="TOKENIZER_ID", description="its tokenizer")
    use_cuda: Flag = Field(False, alias="USE_CUDA", description="local model on the GPU")
    use_8bit: Flag = Field(False, alias="USE_8BIT", description="8-bit local weights")
    openai_extractor_model: Text = Field("", alias="OPENAI_EXTRACTOR_MODEL",
                                         description="seed name of the extractor model")
    openai_planner_model: Text = Field("", alias="OPENAI_PLANNER_MODEL",
                                       description="seed name of the planner model")
    openai_schema_fixer_model: Text = Field("", alias="OPENAI_SCHEMA_FIXER_MODEL",
                                            description="seed name of the schema fixer model")
    timeout_s: float = Field(60.0, alias="REPRO_LLM_TIMEOUT_S", description="request timeout")
    deadline_s: float = Field(150.0, alias="REPRO_LLM_DEADLINE_S",
                              description="deadline of one model turn")
    cache: str = Field("", alias="REPRO_LLM_CACHE", description="`0` turns the cache off")
    pool_limit: int = Field(4, alias="REPRO_LLM_POOL_LIMIT",
                            description="concurrent ops per provider pool")
    local_pool_limit: int = Field(1, alias="REPRO_LLM_LOCAL_POOL_LIMIT",
                                  description="concurrent ops on a local model")
    tool_cap_file_search: int = Field(10, alias="TOOL_CAP_FILE_SEARCH_PER_RUN",
                                      description="file searches per run")
    tool_cap_web_search: int = Field(5, alias="TOOL_CAP_WEB_SEARCH_PER_RUN",
                                     description="web searches per run")

    def key_named(self, variable: str) -> str:
        """The value of the key variable ``variable`` ("" when unset or unknown)."""
        field_name = self.variables().get(variable)
        return str(getattr(self, field_name)) if field_name else ""


class ApiSettings(Group):
    """The HTTP API."""

    key: Text = Field("", alias="REPRO_API_KEY", repr=False, description="API key")
    allowed_hosts: str = Field("", alias="REPRO_API_ALLOWED_HOSTS",
                               description="extra Host names (comma-separated)")
    cors_origins: str = Field("", alias="REPRO_API_CORS_ORIGINS",
                              description="CORS origins (comma-separated)")
    fetch_workers: int = Field(8, alias="REPRO_API_FETCH_WORKERS",
                               description="URL fetch workers")
    max_body_mb: int = Field(15, alias="REPRO_API_MAX_BODY_MB", description="request body cap")
    record_runs: str = Field("1", alias="REPRO_API_RECORD_RUNS",
                             description="`0`: API work is not recorded as Dagster runs")


class DebateSettings(Group):
    """The scholarly debate and its arXiv/Crossref searches."""

    max_turns: int = Field(6, alias="DEBATE_MAX_TURNS", description="turns per debate")
    arxiv_results: int = Field(5, alias="DEBATE_ARXIV_RESULTS", description="arXiv hits")
    crossref_results: int = Field(5, alias="DEBATE_CROSSREF_RESULTS",
                                  description="Crossref hits")
    max_new_tokens: int = Field(1000, alias="DEBATE_MAX_NEW_TOKENS",
                                description="tokens per turn")
    top_k: int = Field(6, alias="DEBATE_TOP_K", description="passages per turn")
    live_search: Text = Field("auto", alias="DEBATE_LIVE_SEARCH",
                              description="on, off or auto (on with an LLM)")
    relevance_floor: Text = Field("", alias="DEBATE_RELEVANCE_FLOOR",
                                  description="passage relevance floor in (0, 1)")
    arxiv_max_results: int = Field(5, alias="ARXIV_MAX_RESULTS",
                                   description="arXiv search results")
    arxiv_download_pdfs: Flag = Field(False, alias="ARXIV_DOWNLOAD_PDFS",
                                      description="also ingest arXiv PDFs' full text")


class ResearchSettings(Group):
    """The research agent's search providers and crawler."""

    brave_api_key: str = Field("", alias="BRAVE_API_KEY", repr=False, description="Brave key")
    exa_api_key: str = Field("", alias="EXA_API_KEY", repr=False, description="Exa key")
    tavily_api_key: str = Field("", alias="TAVILY_API_KEY", repr=False, description="Tavily key")
    semantic_scholar_api_key: str = Field("", alias="SEMANTIC_SCHOLAR_API_KEY", repr=False,
                                          description="Semantic Scholar key")
    ncbi_api_key: str = Field("", alias="NCBI_API_KEY", repr=False, description="PubMed key")
    unpaywall_email: str = Field("", alias="REPRO_UNPAYWALL_EMAIL",
                                 description="Unpaywall contact")
    unpaywall_email_seed: str = Field("", alias="UNPAYWALL_EMAIL",
                                      description="Unpaywall contact (seed name)")
    chromium_path: str = Field("/usr/bin/chromium", alias="REPRO_CHROMIUM_PATH",
                               description="the crawler's Chromium")
    crawl_start_urls: str = Field("", alias="REPRO_CRAWL_START_URLS",
                                  description="crawler start URLs (comma-separated)")


class ThirdPartySettings(Group):
    """Other tools' variables the project reads (it sets some itself: see the CLI)."""

    hf_hub_offline: Text = Field("", alias="HF_HUB_OFFLINE", description="Hugging Face offline")
    hf_datasets_offline: Text = Field("", alias="HF_DATASETS_OFFLINE",
                                      description="datasets offline")
    tessdata_prefix: str = Field("", alias="TESSDATA_PREFIX",
                                 description="Tesseract language data")


GROUPS: dict[str, type[Group]] = {
    "paths": PathSettings, "database": DatabaseSettings, "embedding": EmbeddingSettings,
    "runs": RunSettings, "pdf": PdfSettings, "fetch": FetchSettings, "llm": LLMSettings,
    "api": ApiSettings, "debate": DebateSettings, "research": ResearchSettings,
    "third_party": ThirdPartySettings,
}

#: Variables named by a pattern: ``<ROLE>`` is an LLM role in upper case.
PATTERN_VARIABLES = {"REPRO_MODEL_<ROLE>": "model of one LLM role"}

G = TypeVar("G", bound=Group)


def variables() -> dict[str, tuple[str, str]]:
    """Every declared variable name -> (group, field)."""
    return {var: (group, field) for group, cls in GROUPS.items()
            for var, field in cls.variables().items()}


_NAMES = tuple(variables())


def _kind(error: dict[str, Any]) -> str:
    kind = str(error.get("type", ""))
    if kind.startswith("int"):
        return "an integer"
    if kind.startswith("float"):
        return "a number"
    return "valid"


def load(cls: type[G]) -> G:
    """Read one group from the environment.

    Raises:
        SettingsError: ``E_BAD_SETTING``, a variable of the group is set to a value of the
            wrong type (the message and details name it and the value).
    """
    try:
        return cls()
    except ValidationError as exc:
        error = exc.errors()[0]
        name = str(error["loc"][0]) if error.get("loc") else cls.__name__
        raise SettingsError(name, _kind(dict(error)), error.get("input")) from None


class Settings:
    """The tree: one attribute per group, each read on first use."""

    @cached_property
    def paths(self) -> PathSettings:
        """Where the project's data lives."""
        return load(PathSettings)

    @cached_property
    def database(self) -> DatabaseSettings:
        """The project's Postgres and Dagster's storage."""
        return load(DatabaseSettings)

    @cached_property
    def embedding(self) -> EmbeddingSettings:
        """The embedding model and backend."""
        return load(EmbeddingSettings)

    @cached_property
    def runs(self) -> RunSettings:
        """Runs, sensors, the UI, reproduction thresholds."""
        return load(RunSettings)

    @cached_property
    def pdf(self) -> PdfSettings:
        """PDF intake limits."""
        return load(PdfSettings)

    @cached_property
    def fetch(self) -> FetchSettings:
        """Outbound HTTP."""
        return load(FetchSettings)

    @cached_property
    def llm(self) -> LLMSettings:
        """LLM provider, keys, models, limits."""
        return load(LLMSettings)

    @cached_property
    def api(self) -> ApiSettings:
        """The HTTP API."""
        return load(ApiSettings)

    @cached_property
    def debate(self) -> DebateSettings:
        """The scholarly debate."""
        return load(DebateSettings)

    @cached_property
    def research(self) -> ResearchSettings:
        """The research agent's providers."""
        return load(ResearchSettings)

    @cached_property
    def third_party(self) -> ThirdPartySettings:
        """Other tools' variables."""
        return load(ThirdPartySettings)


_lock = threading.Lock()
_cached: tuple[tuple[str | None, ...], Settings] | None = None


def current() -> Settings:
    """The settings of the environment as it is now (cached while it does not change)."""
    global _cached
    key = environment.snapshot(_NAMES)
    with _lock:
        if _cached is None or _cached[0] != key:
            _cached = (key, Settings())
        return _cached[1]


def role_model(role: str) -> str:
    """``REPRO_MODEL_<ROLE>`` for ``role`` (stripped; "" when unset)."""
    return (environment.read(f"REPRO_MODEL_{role.strip().upper()}") or "").strip()


def value(name: str) -> Any:
    """The typed value of the declared variable ``name`` (its default when unset).

    Raises:
        KeyError: ``name`` is not declared in the tree.
    """
    group, field = _VARIABLES[name]
    return getattr(getattr(current(), group), field)


_VARIABLES = variables()
