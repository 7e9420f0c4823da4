"""Two-scientist scholarly debate (seed 002), pure domain code.

``models`` (settings, evidence, markers, turns, transcript), ``prompts`` (the prompting
contract), ``markers`` (marker/citation parsing and the viability gate), ``evidence`` (turn
queries, retrieval, references), ``offline`` (rule-based scientists for offline mode), ``loop``
(the turn loop with interruption), ``store`` (Postgres + blob persistence, the one-debate lock)
and ``session`` (one debate end to end, shared by the asset and the CLI).
"""
