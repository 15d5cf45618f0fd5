"""Baselines as a user adopts them: record today's findings, then only new ones fail."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from .test_cli import run

BAD = textwrap.dedent(
    """
    import math
    from mindspore import nn

    class Net(nn.Cell):
        def construct(self, x):
            return x * math.sqrt(x.sum())
    """
).lstrip()
FLAGGED = "        return x * math.sqrt(x.sum())\n"
assert FLAGGED in BAD


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "net.py").write_text(BAD)
    return tmp_path


def recorded(project: Path, name: str = "baseline.json") -> dict:
    code, _, err = run("check", "--write-baseline", name, cwd=project)
    assert code == 0, err
    return json.loads((project / name).read_text("utf-8"))


def test_recorded_findings_no_longer_fail(project):
    assert run("check", cwd=project)[0] == 1
    baseline = recorded(project)
    assert baseline == {
        "msgraphlint_baseline": 1,
        "findings": [
            {
                "fingerprint": baseline["findings"][0]["fingerprint"],
                "path": "models/net.py",
                "rule_id": "W8720",
                "symbol": "host-call-on-tensor",
            }
        ],
    }
    code, out, err = run("check", "--baseline", "baseline.json", cwd=project)
    assert code == 0
    assert "No problems found" in out
    assert "1 finding left out: recorded in baseline baseline.json" in err


def test_lines_added_above_do_not_bring_a_finding_back(project):
    recorded(project)
    net = project / "models" / "net.py"
    net.write_text('"""A docstring."""\n\n# 一个中文注释\n' + BAD)
    assert run("check", "--baseline", "baseline.json", cwd=project)[0] == 0


def test_a_new_finding_still_fails_and_is_the_only_one_reported(project):
    recorded(project)
    net = project / "models" / "net.py"
    net.write_text(BAD.replace("import math\n", "import math\nimport numpy as np\n").replace(
        FLAGGED, "        y = np.where(x > 0, x, 0)\n" + FLAGGED))
    code, out, _ = run("check", "--baseline", "baseline.json", "--format", "json", cwd=project)
    assert code == 1
    (new,) = json.loads(out)
    assert (new["line"], new["symbol"]) == (7, "host-call-on-tensor") and "np.where" in new["message"]


def test_the_same_problem_on_one_more_line_is_new(project):
    recorded(project)
    net = project / "models" / "net.py"
    net.write_text(BAD.replace(FLAGGED, FLAGGED.replace("return ", "y = ") + FLAGGED))
    code, out, _ = run("check", "--baseline", "baseline.json", "--format", "json", cwd=project)
    assert code == 1
    assert len(json.loads(out)) == 1  # two flagged lines now, one recorded


def test_changing_the_flagged_line_brings_it_back(project):
    recorded(project)
    net = project / "models" / "net.py"
    net.write_text(BAD.replace("x * math.sqrt", "2 * x * math.sqrt"))
    assert run("check", "--baseline", "baseline.json", cwd=project)[0] == 1


def test_identical_lines_are_told_apart_by_occurrence(project):
    twice = BAD.replace(FLAGGED, FLAGGED.replace("return", "y =") * 2 + FLAGGED)
    (project / "models" / "net.py").write_text(twice)
    fingerprints = sorted(f["fingerprint"] for f in recorded(project)["findings"])
    assert [f.rsplit(":", 1)[1] for f in fingerprints] == ["1", "1", "2"]
    assert len({f.rsplit(":", 1)[0] for f in fingerprints}) == 2


def test_paths_are_relative_to_the_baseline_file_so_any_folder_works(project):
    recorded(project, "ci/msgraphlint-baseline.json")
    entry = json.loads((project / "ci" / "msgraphlint-baseline.json").read_text())["findings"][0]
    assert entry["path"] == "../models/net.py"
    code, _, _ = run("check", ".", "--baseline", "../ci/msgraphlint-baseline.json",
                     cwd=project / "models")
    assert code == 0


def test_pyproject_baseline_is_relative_to_the_pyproject(project, tmp_path_factory):
    recorded(project)
    (project / "pyproject.toml").write_text('[tool.msgraphlint]\nbaseline = "baseline.json"\n')
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    assert run("check", str(project / "models"), cwd=elsewhere)[0] == 0
    assert run("check", str(project / "models"), "--baseline", str(project / "none.json"),
               cwd=elsewhere)[0] == 2  # the command line wins over the pyproject


def test_an_editor_buffer_is_matched_by_its_own_content(project):
    """A finding in an unsaved buffer (stdin) matches by the buffer's lines, not the file's."""
    recorded(project)
    buffer = "# lines typed above, not saved yet\n\n" + BAD
    code, _, _ = run("check", "-", "--stdin-filename", "models/net.py", "--baseline",
                     "baseline.json", cwd=project, stdin=buffer)
    assert code == 0


def test_the_baseline_fingerprint_is_the_sarif_one(project):
    entry = recorded(project)["findings"][0]
    _, out, _ = run("check", "--format", "sarif", cwd=project)
    (result,) = json.loads(out)["runs"][0]["results"]
    assert result["partialFingerprints"]["primaryLocationLineHash"] == entry["fingerprint"]


def test_inline_suppressed_findings_are_not_recorded(project):
    (project / "models" / "net.py").write_text(
        BAD.replace("x.sum())\n", "x.sum())  # pylint: disable=host-call-on-tensor\n")
    )
    assert recorded(project)["findings"] == []


def test_writing_is_deterministic(project):
    (project / "models" / "other.py").write_text(BAD)
    first = (recorded(project), (project / "baseline.json").read_bytes())
    assert [f["path"] for f in first[0]["findings"]] == ["models/net.py", "models/other.py"]
    assert (recorded(project), (project / "baseline.json").read_bytes()) == first


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "baseline file baseline.json does not exist (record one with --write-baseline"),
        ("{", "baseline.json: not a msgraphlint baseline: invalid JSON"),
        ("[]", "baseline.json: not a msgraphlint baseline (no 'msgraphlint_baseline' key"),
        ('{"msgraphlint_baseline": 2, "findings": []}', "baseline format 2 is not supported"),
        ('{"msgraphlint_baseline": 1, "findings": [{"path": "a.py"}]}',
         "'findings' must be a list of objects with string 'fingerprint', 'path'"),
        ('{"msgraphlint_baseline": 1}', "'findings' must be a list"),
    ],
)
def test_a_bad_baseline_is_a_clear_usage_error(project, content, message):
    if content is not None:
        (project / "baseline.json").write_text(content)
    code, out, err = run("check", "--baseline", "baseline.json", cwd=project)
    assert code == 2
    assert message in err
    assert "Traceback" not in out + err


@pytest.mark.parametrize("value", ["1", '""', "[]"])
def test_a_bad_pyproject_baseline_value_is_a_usage_error(project, value):
    (project / "pyproject.toml").write_text(f"[tool.msgraphlint]\nbaseline = {value}\n")
    code, _, err = run("check", cwd=project)
    assert code == 2 and "baseline must be the path of a baseline file" in err


def test_an_unwritable_baseline_is_a_usage_error(project):
    code, out, err = run("check", "--write-baseline", "models/net.py/baseline.json", cwd=project)
    assert code == 2
    assert "cannot write baseline models/net.py/baseline.json" in err
    assert "Traceback" not in out + err


def test_leaving_out_recorded_findings_does_not_renumber_the_others(project):
    """A new copy of a recorded line keeps the fingerprint it has without the baseline."""
    assigned = FLAGGED.replace("return ", "y = ")
    net = project / "models" / "net.py"
    net.write_text(BAD.replace(FLAGGED, assigned + "        return y\n"))
    recorded(project)
    net.write_text(BAD.replace(FLAGGED, assigned * 2 + "        return y\n"))
    _, plain, _ = run("check", "--format", "sarif", cwd=project)
    fingerprints = [r["partialFingerprints"]["primaryLocationLineHash"]
                    for r in json.loads(plain)["runs"][0]["results"]]
    assert [f.rsplit(":", 1)[1] for f in fingerprints] == ["1", "2"]
    _, baselined, _ = run("check", "--format", "sarif", "--baseline", "baseline.json", cwd=project)
    (new,) = json.loads(baselined)["runs"][0]["results"]
    assert new["partialFingerprints"]["primaryLocationLineHash"] == fingerprints[1]
    _, gitlab, _ = run("check", "--format", "gitlab", "--baseline", "baseline.json", cwd=project)
    _, everything, _ = run("check", "--format", "gitlab", cwd=project)
    assert json.loads(gitlab) == json.loads(everything)[1:]
