"""Claims as markdown (asset metadata, demo output)."""

from __future__ import annotations

from repro_assets.papers.claims.models import Claim


def claims_markdown(claims: list[Claim], limit: int = 60) -> str:
    """Claims as a markdown table, headline candidates first."""
    lines = [
        "| dataset | split | metric | value | method | citation | page | quote | role | printed |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    ordered = sorted(claims, key=lambda c: c.role != "headline")
    for claim in ordered[:limit]:
        quote = claim.evidence.quoted_text.replace("|", "\\|")
        quote = quote if len(quote) <= 90 else quote[:87] + "..."
        direction = " (lower is better)" if claim.lower_is_better else ""
        lines.append(
            f"| {claim.dataset_name} | {claim.split} | {claim.metric_name} | "
            f"{claim.metric_value:g} | {(claim.method_snippet or '').replace('|', '/')} | "
            f"{claim.source_citation.replace('|', '/')} | {claim.evidence.page} | {quote} | "
            f"{claim.role} | {claim.printed_value or ''}{claim.units or ''}{direction} |"
        )
    if len(claims) > limit:
        lines.append(f"| ... {len(claims) - limit} more | | | | | | | | | |")
    return "\n".join(lines)
