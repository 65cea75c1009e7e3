"""polyhal.conformance runs the suite and returns its report as a dict."""
import os

import pytest

import polyhal


def test_conformance_returns_the_report_with_its_verdict(plugin):
    report = polyhal.conformance(plugin, tier=1,
                                 filter=["api.version", "add.s32.*"])
    assert report["schema"] == "polyhal-conformance-report"
    assert report["plugin"]["name"] == plugin
    assert report["run"]["tier"] == 1
    ids = {case["id"] for case in report["cases"]}
    assert "api.version" in ids
    assert "add.s32.1d.random" in ids
    assert all(case["status"] == "Pass" for case in report["cases"])
    assert report["verdict"]["certified"] is True


def test_conformance_keeps_the_report_where_asked(tmp_path):
    report = polyhal.conformance("template", tier=1, filter="api.version",
                                 report_dir=tmp_path)
    assert report["verdict"]["certified"] is True
    assert os.path.exists(tmp_path / "report.json")
    assert os.path.exists(tmp_path / "report.html")


def test_conformance_of_a_missing_plugin_raises_saying_why():
    with pytest.raises(polyhal.Error, match="plugin 'nosuch'"):
        polyhal.conformance("nosuch", tier=1)
