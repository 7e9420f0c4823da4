"""Small hardening items of issue #27 (item 9): security headers, relative paths in answers,
fetch errors that keep resolution results to the server, a blocked URL reported as blocked."""

from __future__ import annotations

import asyncio

import pytest

from repro_assets import net
from repro_assets.api.research import public_report_path
from repro_assets.research.errors import OutboundURLRejected
from repro_assets.research.providers.fetcher import PageFetcher


def test_html_has_security_headers(client) -> None:  # noqa: ANN001
    for path in ("/ui/", "/docs"):
        page = client.get(path)
        assert page.status_code == 200
        csp = page.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["x-frame-options"] == "DENY"
    api = client.get("/healthz")
    assert api.headers["x-content-type-options"] == "nosniff"
    assert "content-security-policy" not in api.headers


def test_report_paths_in_answers_are_relative(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # noqa: ANN001
    monkeypatch.setenv("REPRO_DATA_DIR", str(tmp_path))
    from repro_assets import settings

    inside = settings.data_dir().resolve() / "research" / "s1" / "report.md"
    assert public_report_path(str(inside)) == "research/s1/report.md"
    assert public_report_path("/srv/secret/place/s1/report.md") == "s1/report.md"
    assert public_report_path("research/s1/report.json") == "research/s1/report.json"
    assert public_report_path("s3://bucket/blobs/research/s1/report.md") == \
        "blobs/research/s1/report.md"
    assert public_report_path(None) is None


def test_blocked_fetch_does_not_tell_what_a_name_resolves_to(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_ALLOW_PRIVATE_FETCH", raising=False)
    monkeypatch.delenv("REPRO_FETCH_ALLOWLIST", raising=False)
    with pytest.raises(net.FetchBlocked) as info:
        net.checked_address("localhost", 80)
    assert "127.0.0.1" not in str(info.value) and "::1" not in str(info.value)
    assert "localhost" in str(info.value)


def test_a_blocked_address_is_not_reported_as_a_robots_refusal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REPRO_ALLOW_PRIVATE_FETCH", raising=False)
    monkeypatch.delenv("REPRO_FETCH_ALLOWLIST", raising=False)
    with pytest.raises(OutboundURLRejected):
        asyncio.run(PageFetcher().fetch("http://127.0.0.1:9/page", timeout=5))
