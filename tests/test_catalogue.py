"""The catalogue is well formed, and everything generated from it is current."""

from __future__ import annotations

import re

import pytest

from msgraphlint import catalogue
from msgraphlint.catalogue import SEVERITY_OF_VERDICT, Level
from msgraphlint.checkers import FAMILIES
from msgraphlint.docgen import expected_pages

from .samples_index import ROOT

RULES = catalogue.rules()
LETTER = {"error": "E", "warning": "W", "advice": "C"}
EVIDENCE = {"compile", "import", "output", "gradient", "effect"}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.symbol)
def test_rule_entry_is_complete(rule):
    assert re.fullmatch(rf"[CWE]{catalogue.PYLINT_CHECKER_ID}\d\d", rule.id)
    # pylint fixes a message's category in its id: it is the severity at MindSpore's default level.
    assert rule.id[0] == LETTER[SEVERITY_OF_VERDICT[rule.verdict(Level.LAX, "CPU")].value]
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", rule.symbol)
    assert rule.evidence in EVIDENCE
    for text in (rule.title, rule.message, rule.rationale, rule.example, rule.fix, rule.seen_with):
        assert text.strip()
    assert set(rule.compiler) == set(Level)
    assert rule.doc.startswith("https://")
    assert rule.help_uri.endswith(f"/docs/rules/{rule.symbol}.md")
    if any(v.value == "misbehaves" for v in rule.verdicts.values()):
        assert rule.evidence in {"output", "gradient", "effect"}


def test_ids_and_symbols_are_unique():
    numbers = [r.id[1:] for r in RULES]
    symbols = [r.symbol for r in RULES]
    assert len(set(numbers)) == len(numbers)
    assert len(set(symbols)) == len(symbols)


def test_every_family_with_rules_has_a_checker_and_back():
    checked = {family.name for family in FAMILIES}
    # input problems come from reading files, compiler ones from --confirm (msgraphlint.confirm)
    with_rules = set(catalogue.families()) - {"input", "compiler"}
    assert with_rules == checked


def test_selectors():
    assert catalogue.select_rules(["third-party"]) == {
        r.id for r in RULES if r.family == "third-party"
    }
    assert catalogue.select_rules(["W8720", "syntax-error"]) == {"W8720", "E8700"}
    with pytest.raises(KeyError):
        catalogue.select_rules(["nothing-like-this"])


def test_docs_pages_are_current():
    """Regenerate with: python -m msgraphlint.docgen docs/rules"""
    folder = ROOT / "docs" / "rules"
    pages = expected_pages()
    on_disk = {p.name: p.read_text("utf-8") for p in folder.glob("*.md")}
    assert sorted(on_disk) == sorted(pages), "run: python -m msgraphlint.docgen docs/rules"
    stale = [name for name, text in pages.items() if on_disk[name] != text]
    assert stale == [], "run: python -m msgraphlint.docgen docs/rules"
