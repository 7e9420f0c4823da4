"""Kid explainer: offline template, and the LLM path through the OpenAI wire-level fake."""

from __future__ import annotations

import json

from repro_assets.llm.offline import OfflineClient
from repro_assets.papers.notebook.explainer import MAX_WORDS, explain_report, report_facts
from repro_assets.papers.notebook.report import (
    ClaimInput,
    ReproductionReport,
    RunSummary,
    build_report,
)
from tests.fakes.llm_wire import OpenAIWireFake
from tests.notebook.plans import make_plan


def _report(synthetic: bool = False, achieved: float = 0.9649) -> ReproductionReport:
    run = RunSummary(run_id="r1", status="succeeded", metrics={
        "metrics": {"accuracy": achieved},
        "dataset": {"dataset": "breast_cancer", "source": "synthetic" if synthetic else "sklearn",
                    "synthetic": synthetic, "n_train": 455, "n_test": 114,
                    "task": "classification"},
    })
    claims = [ClaimInput(dataset_name="breast_cancer", metric_name="accuracy",
                         metric_value=0.965, method_snippet="Linear SVM (ours)")]
    return build_report(paper_id="p", plan=make_plan(architecture="linear_svm",
                                                     model_name="Linear SVM", goal=0.965),
                        claims=claims, run=run)


def test_offline_template_summary() -> None:
    kid = explain_report(_report(), OfflineClient())
    assert kid.method == "heuristic" and kid.fallback_reason is None
    assert "Linear SVM" in kid.text
    assert "96.5 out of 100" in kid.text
    assert "we got about the same result" in kid.text
    assert "455 real examples" in kid.text
    assert len(kid.text.split()) <= MAX_WORDS


def test_offline_summary_flags_synthetic_data_and_verdict() -> None:
    kid = explain_report(_report(synthetic=True), None)
    assert "made-up" in kid.text
    assert "could not really test" in kid.text


def test_llm_summary_through_the_wire(no_network: None) -> None:
    answer = ("We taught a computer to tell two kinds of tumours apart. The paper said it got "
              "96.5 out of 100 right, and our computer got the same. So the paper checks out!")
    with OpenAIWireFake() as fake:
        fake.reply_text(answer, usage=(210, 40))
        client = fake.make_client()
        kid = explain_report(_report(), client)
    assert kid.method == "llm" and kid.text == answer
    assert kid.usage["calls"] == 1
    sent = fake.requests[0].json
    assert sent["messages"][0]["role"] == "system"
    assert "10-year-old" in sent["messages"][0]["content"]
    facts = json.loads(sent["messages"][-1]["content"])
    assert facts == json.loads(json.dumps(report_facts(_report())))
    assert facts["verdict"] == "REPRODUCED" and facts["paper_claimed"] == 0.965


def test_llm_answer_breaking_the_guardrail_falls_back(no_network: None) -> None:
    with OpenAIWireFake() as fake:
        fake.reply_text("word " * (MAX_WORDS + 5))
        kid = explain_report(_report(), fake.make_client())
    assert kid.method == "heuristic"
    assert kid.fallback_reason and kid.fallback_reason.startswith("E_EXPLAIN_GUARDRAIL_FAILED")
    assert "96.5 out of 100" in kid.text


def test_llm_error_falls_back_with_the_code(no_network: None) -> None:
    with OpenAIWireFake() as fake:
        for _ in range(3):  # the client's retry attempts
            fake.reply_status(500)
        kid = explain_report(_report(), fake.make_client())
    assert kid.method == "heuristic"
    assert kid.fallback_reason and kid.fallback_reason.startswith("E_")
