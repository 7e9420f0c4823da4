"""Every DynamicPartitionsDefinition of the project (one per workflow)."""

import dagster as dg

papers_partitions = dg.DynamicPartitionsDefinition(name="papers")
factories_partitions = dg.DynamicPartitionsDefinition(name="factories")
debates_partitions = dg.DynamicPartitionsDefinition(name="debates")
form_runs_partitions = dg.DynamicPartitionsDefinition(name="form_runs")
research_sessions_partitions = dg.DynamicPartitionsDefinition(name="research_sessions")
