"""Papers stages 5-6 (seed 000): materialize a Plan JSON v1.1 as a notebook, execute it, report.

"LLMs create structured JSON plans. Python generators create code." The modules:

* :mod:`.templates` -- human-written notebook code per model family (scikit-learn logistic
  regression, linear SVM, random forest, gradient boosting, MLP; a PyTorch CNN/TextCNN).
* :mod:`.generator` -- builds the notebook with nbformat; plan values become papermill
  parameters only, and the injected cell is verified to hold nothing but literals.
* :mod:`.executor` -- papermill on the local ``python3`` kernel, CPU only, one deadline from
  ``policy.budget_minutes`` (``E_BUDGET_EXCEEDED``), the failing cell's error otherwise.
* :mod:`.report` -- claimed vs achieved, gaps, verdicts (REPRODUCED / PARTIAL /
  NOT_REPRODUCED / NOT_RUN), justifications and plots as markdown; leaderboard rows.
* :mod:`.explainer` -- the kid explainer role (LLM, or a template offline).
* :mod:`.store` -- the ``notebooks``/``runs``/``metrics``/``reproduction_reports`` tables.
"""
