"""Every sample's findings exactly as users read them, pinned in tests/expected/ (docs/testing.md).

tests/expected/<path of the sample below samples/, .py replaced by .txt> holds one line per
finding, sorted by position:

    12:9-12:20 W8720 host-call-on-tensor lax=warning strict=error | <message>

that is line:column-end_line:end_column (1-based, columns in characters, the end exclusive, as
in the JSON output), rule id, symbol, the severity at LAX and at STRICT ("-" when the finding is
not reported at that level) and the full message. A sample without findings has an empty file.

The findings come from one check of the whole samples/ tree per level, configured and filtered
as `msgraphlint check samples --format json --syntax-level <level>` does (a helper module's
findings depend on the files that import it, so files are never checked alone).
`pytest --update-expected` rewrites the files that differ, deletes those whose sample is gone,
and lists what it changed at the end of the run.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from msgraphlint.knowledge import catalogue
from msgraphlint.pipeline import new_engine
from msgraphlint.cli import LevelChoice, resolve_config
from msgraphlint.report import RunResult
from msgraphlint.report.json import finding_records

from .conftest import UPDATE_EXPECTED, changed_expected_files
from .samples_index import ROOT, SAMPLES

EXPECTED = Path(__file__).resolve().parent / "expected"
LEVELS = (LevelChoice.lax, LevelChoice.strict)
UPDATE_HINT = "run `python -m pytest tests/test_expected_output.py --update-expected` to write it"


def config_for(level: LevelChoice | None = None):
    """The configuration `msgraphlint check samples [--syntax-level level]` runs with, every
    rule selected: the opt-in (style) rules' samples pin what users read once they turn them on."""
    config = resolve_config([SAMPLES], None, level, None, None, None, None, None)
    return replace(config, select=frozenset(rule.id for rule in catalogue.rules()))


def checked_samples() -> list[str]:
    """Paths (relative to samples/, forward slashes) of every file the CLI checks there."""
    files = new_engine().files_below([SAMPLES], config_for().excludes)
    return sorted({path.relative_to(SAMPLES).as_posix() for path in files})


def expected_file(sample: str) -> Path:
    """tests/expected/<sample>, its .py suffix replaced by .txt (a .pyi keeps it: foo.pyi.txt)."""
    name = sample[: -len(".py")] if sample.endswith(".py") else sample
    return EXPECTED / f"{name}.txt"


def display(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


SAMPLE_FILES = checked_samples()


@dataclass(frozen=True)
class Output:
    """Per checked sample, the lines of its expected file; and the files the runs checked."""

    lines: dict[str, list[str]]
    checked: frozenset[str]


def level_records(level: LevelChoice) -> tuple[list[dict], set[str]]:
    config = config_for(level)
    run = new_engine().check_paths([SAMPLES], config.excludes, jobs=1)
    assert run.internal_errors == [], "the engine crashed on a sample"
    selected = [finding for finding in run.findings if config.wants(finding)]
    result = RunResult(selected, config, run.files, root=SAMPLES)
    checked = {path.relative_to(SAMPLES).as_posix() for path in run.checked}
    return finding_records(result), checked


def finding_line(key: tuple, severities: dict[str, str]) -> str:
    _path, line, column, end_line, end_column, rule_id, symbol, message = key
    levels = " ".join(f"{level.value}={severities.get(level.value, '-')}" for level in LEVELS)
    # One finding, one line, whatever a message may hold.
    message = message.replace("\\", "\\\\").replace("\r", "\\r").replace("\n", "\\n")
    return f"{line}:{column}-{end_line}:{end_column} {rule_id} {symbol} {levels} | {message}"


@pytest.fixture(scope="session")
def current_output() -> Output:
    """What users read today: the samples/ tree checked once per level, lines grouped by file."""
    # A finding is the same at every level but for its severity: match them up by everything
    # else (a Counter, in case one span carries the same message twice).
    severities: dict[tuple, list[dict[str, str]]] = {}
    checked: set[str] = set()
    for level in LEVELS:
        records, level_checked = level_records(level)
        checked |= level_checked
        seen: Counter = Counter()
        for record in records:
            key = (
                record["path"], record["line"], record["column"], record["end_line"],
                record["end_column"], record["rule_id"], record["symbol"], record["message"],
            )
            slots = severities.setdefault(key, [])
            if seen[key] == len(slots):
                slots.append({})
            slots[seen[key]][level.value] = record["severity"]
            seen[key] += 1
    lines: dict[str, list[str]] = {path: [] for path in checked}
    for key in sorted(severities, key=lambda k: (k[0], *k[1:5], k[5], k[7])):
        for by_level in severities[key]:
            lines.setdefault(key[0], []).append(finding_line(key, by_level))
    return Output(lines, frozenset(checked))


def text_of(lines: list[str]) -> str:
    return "".join(f"{line}\n" for line in lines)


def test_every_checked_sample_has_a_test(current_output):
    """The parametrized list below is what the CLI checks, and no finding is outside it."""
    assert SAMPLE_FILES, "no sample found"
    assert sorted(current_output.checked) == SAMPLE_FILES
    assert sorted(current_output.lines) == SAMPLE_FILES


@pytest.mark.parametrize("sample", SAMPLE_FILES)
def test_output_matches_expected_file(sample, current_output, request):
    path = expected_file(sample)
    current = text_of(current_output.lines[sample])
    if request.config.getoption(UPDATE_EXPECTED):
        if not path.is_file() or path.read_text("utf-8") != current:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(current, "utf-8", newline="\n")
            changed_expected_files(request.config).append(("wrote", display(path)))
        return
    if not path.is_file():
        pytest.fail(f"samples/{sample} has no expected output {display(path)}: {UPDATE_HINT}",
                    pytrace=False)
    expected = path.read_text("utf-8")
    if expected != current:
        diff = difflib.unified_diff(
            expected.splitlines(), current.splitlines(),
            fromfile=f"{display(path)} (expected)", tofile=f"samples/{sample} (current output)",
            lineterm="",
        )
        pytest.fail(
            f"samples/{sample}: what users read changed ('-' expected, '+' now).\n"
            + "\n".join(diff)
            + "\nIf the change is intended, run `python -m pytest tests/test_expected_output.py"
            " --update-expected` and commit the rewritten file.",
            pytrace=False,
        )


def test_no_expected_file_without_its_sample(request):
    wanted = {expected_file(sample) for sample in SAMPLE_FILES}
    stale = sorted(path for path in EXPECTED.rglob("*") if path.is_file() and path not in wanted)
    if request.config.getoption(UPDATE_EXPECTED):
        for path in stale:
            path.unlink()
            changed_expected_files(request.config).append(("deleted", display(path)))
        for folder in sorted(EXPECTED.rglob("*"), reverse=True):  # deepest first
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        return
    if stale:
        pytest.fail(
            "expected output for samples that no longer exist (or are no longer checked): "
            + ", ".join(display(path) for path in stale)
            + "; delete them, or run `python -m pytest tests/test_expected_output.py"
            " --update-expected`",
            pytrace=False,
        )



def test_expected_file_names_map_back_to_their_samples():
    """The mapping never sends two samples to one file (foo.py and foo.pyi, say)."""
    names = Counter(expected_file(sample) for sample in SAMPLE_FILES)
    assert [path for path, count in names.items() if count > 1] == []
    assert expected_file("models/resnet_port/model.py") == EXPECTED / "models/resnet_port/model.txt"
    assert expected_file("stubs/thing.pyi") == EXPECTED / "stubs/thing.pyi.txt"
