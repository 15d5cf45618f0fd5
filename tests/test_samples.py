"""Every rule has a bad and a good sample; the engine flags exactly the lines marked `# expect:`."""

from __future__ import annotations

import ast
import re

import pytest

from msgraphlint.knowledge import catalogue
from msgraphlint.pipeline import new_engine

from .samples_index import FOUND_BY_CONFIRM, MADE_IN_TESTS, SAMPLES, all_samples, sample_path

SAMPLE_LIST = all_samples()


@pytest.mark.parametrize("rule", catalogue.rules(), ids=lambda r: r.symbol)
def test_every_rule_has_a_bad_and_a_good_sample(rule):
    if rule.symbol in MADE_IN_TESTS:
        pytest.skip("its bad input is made by the test that needs it")
    assert sample_path(rule, "bad").is_file()
    assert sample_path(rule, "good").is_file()


@pytest.mark.parametrize("sample", SAMPLE_LIST, ids=lambda s: s.id)
def test_engine_flags_exactly_the_expected_lines(sample):
    findings = new_engine().check_file(sample.path)
    got = {(f.rule.symbol, f.line) for f in findings}
    expected = sample.static_expected()
    if sample.kind == "bad" and sample.rule.symbol not in FOUND_BY_CONFIRM:
        assert any(symbol == sample.rule.symbol for symbol, _ in expected), (
            "a bad sample must mark at least one line with its own rule"
        )
    else:
        assert expected == set()
    assert got == expected


def test_no_sample_file_is_outside_the_convention():
    known = {s.path for s in SAMPLE_LIST}
    models = SAMPLES / "models"
    stray = [
        path
        for path in SAMPLES.rglob("*.py")
        if path not in known and models not in path.parents
    ]
    assert stray == []


# A level word: what the compiler does at each level lives in the catalogue (msgraphlint explain).
_LEVEL_WORD = re.compile(
    r"\b(STRICT|COMPATIBLE|LAX|every level|any level|all levels|syntax level)\b", re.IGNORECASE
)


@pytest.mark.parametrize("sample", SAMPLE_LIST, ids=lambda s: s.id)
def test_sample_docstring_names_no_level(sample):
    if sample.rule.family == "input":
        pytest.skip("samples/input/ holds files that are not UTF-8 Python on purpose")
    docstring = ast.get_docstring(ast.parse(sample.path.read_text(encoding="utf-8"))) or ""
    # Rule symbols are names, not level claims (dict-return-at-strict ends in "strict").
    for symbol in sorted((r.symbol for r in catalogue.rules()), key=len, reverse=True):
        docstring = docstring.replace(symbol, "")
    assert not _LEVEL_WORD.search(docstring), (
        f"{sample.path.name}'s docstring restates a per-level fact; the catalogue holds those"
    )
