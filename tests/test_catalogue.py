"""The catalogue is well formed, and everything generated from it is current."""

from __future__ import annotations

import re

import pytest

from msgraphlint.knowledge import catalogue
from msgraphlint.knowledge.catalogue import SEVERITY_OF_VERDICT, Level
from msgraphlint.checkers import FAMILIES
from msgraphlint.docgen import expected_pages

from .samples_index import ROOT

RULES = catalogue.rules()
LETTER = {"error": "E", "warning": "W", "advice": "C"}
EVIDENCE = {"compile", "import", "output", "gradient", "effect", "stale"}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.symbol)
def test_rule_entry_is_complete(rule):
    assert re.fullmatch(r"[CWE]\d{4}", rule.id) and rule.id[1:3] in catalogue.PYLINT_CHECKER_IDS
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


# Level facts live in the verdicts; a template that names a level would say it a second time.
LEVEL_WORDS = re.compile(r"\b(STRICT|COMPATIBLE|LAX|every level|any level|all levels|syntax level)\b",
                         re.IGNORECASE)
# Rules about reading the file or importing it, and the compiler's own errors, have no levels
# to speak of: the file never reaches the graph compiler.
NO_CONSEQUENCE = {r.symbol for r in RULES if r.evidence == "import" or r.family == "compiler"}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.symbol)
def test_message_templates_name_no_level_and_state_the_consequence(rule):
    assert not LEVEL_WORDS.search(rule.message), rule.message
    verdicts = set(rule.verdicts.values())
    if rule.symbol in NO_CONSEQUENCE or verdicts == {catalogue.Verdict.ACCEPTED}:
        assert "{consequence}" not in rule.message
    else:
        assert rule.message.count("{consequence}") == 1
    # The clauses exist exactly where the consequence uses them.
    assert bool(rule.misbehaves) == (catalogue.Verdict.MISBEHAVES in verdicts)
    if rule.accepted:
        assert verdicts > {catalogue.Verdict.ACCEPTED}


def test_consequence_follows_the_verdicts():
    host = catalogue.rule("host-call-on-tensor")
    assert catalogue.consequence(host).startswith(
        "rejected at STRICT and COMPATIBLE, at LAX it runs in the interpreter and the gradient"
        " through it is lost"
    )
    assert catalogue.consequence(catalogue.rule("detach-call")) == "rejected at every level"
    assert catalogue.consequence(catalogue.rule("random-frozen")).startswith("at every level, ")
    # A device whose verdicts differ is named by the devices the text holds for.
    assert catalogue.consequence(catalogue.rule("inplace-random-init")).endswith("on CPU and GPU")
    assert "{consequence}" not in host.template and "rejected at STRICT" in host.template


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.symbol)
def test_every_front_end_states_what_the_catalogue_says(rule):
    """pylint's message table, SARIF's rule metadata and `msgraphlint rules` all derive from the
    rule: the same template and the same severity at each level."""
    from msgraphlint.config import Config
    from msgraphlint.plugin import make_checker_class
    from msgraphlint.report import RunResult
    from msgraphlint.report.sarif import SARIF_LEVEL, rule_descriptor

    family = next((f for f in FAMILIES if f.name == rule.family), None)
    if family is not None:
        checker = make_checker_class(family, rule.id[1:3], with_options=False)
        # A rule with cases passes its whole message, the case's consequence written in.
        expected = "%s%s" if rule.cases else rule.template + "%s"
        assert checker.msgs[rule.id][0] == expected
    for level in Level:
        result = RunResult([], Config(level=level), 0)
        descriptor = rule_descriptor(rule, result)
        assert descriptor.default_configuration.level == SARIF_LEVEL[rule.severity(level)]
        assert rule.severity(level).rank <= rule.compiler_severity(level).rank
        if rule.static_severity is None:
            assert rule.severity(level) == SEVERITY_OF_VERDICT[rule.verdict(level)]


def test_the_rules_command_shows_the_catalogues_severities():
    import json

    from typer.testing import CliRunner

    from msgraphlint.cli import app

    for level in Level:
        shown = json.loads(
            CliRunner().invoke(app, ["rules", "--format", "json", "--syntax-level", level.value]).output
        )
        assert {r["id"]: r["severity"] for r in shown} == {
            r.id: r.severity(level).value for r in RULES
        }
        assert {r["id"] for r in shown if r["opt_in"]} == {r.id for r in RULES if r.opt_in}
        assert {r["id"]: r["fix"] for r in shown} == {r.id: r.autofix or None for r in RULES}


def test_replacement_tables_are_data():
    host = catalogue.rule("host-call-on-tensor")
    assert host.replacement_for("numpy.where").startswith("ops.where")
    assert host.replacement_for("scipy.linalg.inv") == "mindspore.scipy.linalg.inv"
    assert host.replacement_for("numpy.unheard_of") == catalogue.replacement_table("host")["default"]
    assert catalogue.rule("random-frozen").replacement_for("random.random") == "ops.rand"
