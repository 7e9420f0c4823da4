"""Persistence of claims (``claims`` table, replace policy) and of extraction runs."""

from __future__ import annotations

import json

from repro_assets.papers.claims.models import Claim, ClaimsResult, Evidence, RejectedCandidate
from repro_assets.storage.database import Database

_COLUMNS = (
    "dataset_name, dataset_key, split, metric_name, metric_value, printed_value, units,"
    " lower_is_better, method_snippet, role, source_citation, confidence, evidence_page,"
    " evidence_quote, extraction_method"
)


def save_claims(db: Database, result: ClaimsResult) -> None:
    """Replace a paper's stored claims with ``result.claims`` (one transaction)."""
    with db.connection() as conn, conn.transaction():
        conn.execute("DELETE FROM claims WHERE paper_id = %s", (result.paper_id,))
        with conn.cursor() as cur:
            cur.executemany(
                f"INSERT INTO claims (paper_id, ordinal, {_COLUMNS})"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [
                    (result.paper_id, n, c.dataset_name, c.dataset_key, c.split, c.metric_name,
                     c.metric_value, c.printed_value, c.units, c.lower_is_better,
                     c.method_snippet, c.role, c.source_citation, c.confidence,
                     c.evidence.page, c.evidence.quoted_text, c.extraction_method)
                    for n, c in enumerate(result.claims)
                ],
            )
        conn.execute(
            "INSERT INTO claim_extractions (paper_id, method, claims_count, rejected, llm_usage)"
            " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (paper_id) DO UPDATE SET"
            " method = EXCLUDED.method, claims_count = EXCLUDED.claims_count,"
            " rejected = EXCLUDED.rejected, llm_usage = EXCLUDED.llm_usage, created_at = now()",
            (result.paper_id, result.method, len(result.claims),
             json.dumps([r.model_dump(mode="json") for r in result.rejected]),
             json.dumps(result.llm_usage, default=str)),
        )


def load_claims(db: Database, paper_id: str) -> list[Claim]:
    """The stored claims of a paper, in extraction order (empty if none)."""
    with db.connection() as conn:
        rows = conn.execute(
            f"SELECT {_COLUMNS} FROM claims WHERE paper_id = %s ORDER BY ordinal", (paper_id,)
        ).fetchall()
    return [
        Claim(dataset_name=r[0], dataset_key=r[1], split=r[2], metric_name=r[3],
              metric_value=r[4], printed_value=r[5], units=r[6], lower_is_better=r[7],
              method_snippet=r[8], role=r[9], source_citation=r[10], confidence=r[11],
              evidence=Evidence(page=r[12], quoted_text=r[13]), extraction_method=r[14])
        for r in rows
    ]


def load_rejected(db: Database, paper_id: str) -> list[RejectedCandidate]:
    """The rejected candidates of the last extraction of a paper."""
    with db.connection() as conn:
        row = conn.execute("SELECT rejected FROM claim_extractions WHERE paper_id = %s",
                           (paper_id,)).fetchone()
    return [RejectedCandidate.model_validate(r) for r in (row[0] if row else [])]
