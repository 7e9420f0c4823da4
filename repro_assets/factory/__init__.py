"""Factory onboarding (seed 001): free text → FactoryConfig with 100% id coverage, or a hard fail.

Read in this order:

* ``models.py``: the stage DTOs, FactoryConfig and ExtractionError (codes COVERAGE_MISMATCH,
  INVALID_STRUCTURE, LLM_FAILURE, INVALID_JSON, NO_IDS);
* ``agent.py``: ``OnboardingAgent.run`` wiring stage 0 ``ids.py`` → 1 ``coarse.py`` →
  2 ``steps.py`` → 3 ``normalize.py`` → 4 ``coverage.py``;
* ``prompts.py``: the two LLM prompts; ``parser.py``: the offline parser for stages 1 and 2;
* ``simulation.py``: the EDD/SPT job-shop simulation and Gantt chart;
* ``eval.py``: ``python -m repro_assets.factory.eval [--use-llm]``; ``store.py``: tables.
"""
