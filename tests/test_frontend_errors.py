"""The coverage map of the front end's error messages is well formed, mapped, and current."""

from __future__ import annotations

import hashlib
import importlib.util
import re

import pytest

from msgraphlint.docgen import frontend_errors_page
from msgraphlint.knowledge import catalogue, frontend_errors
from msgraphlint.knowledge.frontend_errors import CATEGORIES, LEVELS, REASONS, SOURCES

from .samples_index import ROOT

MESSAGES = frontend_errors.messages()
SYMBOLS = {rule.symbol for rule in catalogue.rules()}


def _tool():
    spec = importlib.util.spec_from_file_location("frontend_errors_tool", ROOT / "tools" / "frontend_errors.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_map_is_well_formed():
    assert len(MESSAGES) > 300
    ids = [m.id for m in MESSAGES]
    assert len(set(ids)) == len(ids)
    for m in MESSAGES:
        key = f"{m.source}|{m.type}|{m.message}"
        assert m.id == "FE" + hashlib.sha1(key.encode()).hexdigest()[:8], m
        assert m.message.strip() == m.message and m.message, m
        assert m.source in SOURCES, m
        assert m.category in CATEGORIES, m
        assert m.levels and set(m.levels) <= set(LEVELS), m
        assert list(m.levels) == [level for level in LEVELS if level in m.levels], m
        assert m.releases and all(re.fullmatch(r"\d+\.\d+", r) for r in m.releases), m
        assert list(m.releases) == sorted(m.releases, key=frontend_errors.release_key), m
        assert m.where, m
        if m.source == "python":
            assert m.type.endswith(("Error", "Exception")), m


def test_both_sources_and_every_category_are_covered():
    assert {m.source for m in MESSAGES} == set(SOURCES)
    assert {m.category for m in MESSAGES} == set(CATEGORIES)


def test_every_message_has_rules_or_a_reason():
    unmapped = [m for m in MESSAGES if bool(m.rules) == bool(m.reason)]
    assert unmapped == [], "each message needs rules or a reason, not both"
    assert {m.reason for m in MESSAGES if m.reason} <= set(REASONS)
    # what would decide it is the brief of a future rule
    assert [m for m in MESSAGES if m.reason == "decidable-no-rule-yet" and not m.note] == []


def test_every_named_rule_exists():
    named = {symbol for m in MESSAGES for symbol in m.rules}
    assert named - SYMBOLS == set()


def test_messages_the_catalogue_quotes_are_mapped_to_its_rules():
    """Spot checks: a message quoted in a rule's compiler text names that rule."""
    by_text = {m.message: set(m.rules) for m in MESSAGES}
    assert "unsupported-statement" in by_text["Unsupported statement '"]
    assert "branch-type-mismatch" in by_text[
        "Cannot join the return values of different branches, perhaps you need to make them equal."]
    assert "detach-call" in by_text["In JIT strict mode, cannot get attributes"]
    assert "function-in-output" in by_text["Function in output is not supported. Please check your code."]


def test_the_docs_page_is_current():
    """Regenerate with: python -m msgraphlint.docgen"""
    page = ROOT / "docs" / "frontend-errors.md"
    assert page.read_text("utf-8") == frontend_errors_page(), "run: python -m msgraphlint.docgen"


def test_merge_keeps_hand_fields_and_tracks_releases():
    tool = _tool()
    old = {"message": [
        {"id": "FEa", "message": "gone", "type": "", "source": "c++", "where": "x.cc",
         "category": "parse-resolve", "levels": ["strict"], "releases": ["2.9"], "reason": "internal"},
        {"id": "FEb", "message": "kept", "type": "", "source": "c++", "where": "x.cc",
         "category": "fallback", "levels": ["lax"], "releases": ["2.9"], "rules": ["undefined-name"]},
    ]}
    found = [
        {"id": "FEb", "message": "kept", "type": "", "source": "c++", "where": "y.cc",
         "category": "parse-resolve", "levels": list(LEVELS)},
        {"id": "FEc", "message": "new", "type": "", "source": "c++", "where": "y.cc",
         "category": "parse-resolve", "levels": list(LEVELS)},
    ]
    new, added, removed = tool.merge(old, found, "2.10")
    by_id = {e["id"]: e for e in new["message"]}
    assert [e["id"] for e in added] == ["FEc"] and removed == []
    assert by_id["FEa"]["releases"] == ["2.9"]
    assert by_id["FEb"]["releases"] == ["2.9", "2.10"]
    assert by_id["FEb"]["rules"] == ["undefined-name"] and by_id["FEb"]["category"] == "fallback"
    assert by_id["FEb"]["where"] == "y.cc"
    again, _, removed = tool.merge(new, found, "2.9")
    assert [e["id"] for e in removed] == ["FEa"]


@pytest.mark.compiler
def test_the_map_is_current_with_the_installed_mindspore():
    """No message missing, none recorded for this release that it lacks.

    Regenerate with: python tools/frontend_errors.py (with MindSpore's Python).
    """
    if importlib.util.find_spec("mindspore") is None:
        pytest.skip("MindSpore is not installed")
    assert _tool().main(["--check"]) == 0, "run: python tools/frontend_errors.py"
