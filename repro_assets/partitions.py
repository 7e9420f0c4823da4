"""Every DynamicPartitionsDefinition of the project (one per workflow), and their names."""

import dagster as dg

PAPERS = "papers"
FACTORIES = "factories"
DEBATES = "debates"
FORM_RUNS = "form_runs"
RESEARCH_SESSIONS = "research_sessions"

papers_partitions = dg.DynamicPartitionsDefinition(name=PAPERS)
factories_partitions = dg.DynamicPartitionsDefinition(name=FACTORIES)
debates_partitions = dg.DynamicPartitionsDefinition(name=DEBATES)
form_runs_partitions = dg.DynamicPartitionsDefinition(name=FORM_RUNS)
research_sessions_partitions = dg.DynamicPartitionsDefinition(name=RESEARCH_SESSIONS)

#: Every partitions definition with its name, in workflow order (``repro-assets status``).
ALL_PARTITIONS: dict[str, dg.DynamicPartitionsDefinition] = {
    PAPERS: papers_partitions,
    FACTORIES: factories_partitions,
    DEBATES: debates_partitions,
    FORM_RUNS: form_runs_partitions,
    RESEARCH_SESSIONS: research_sessions_partitions,
}
