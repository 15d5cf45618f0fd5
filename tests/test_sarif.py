"""SARIF 2.1.0 logs validate against the OASIS schema and carry what code scanning reads."""

from __future__ import annotations

import gzip
import json
import os
import re
import shlex
from datetime import datetime, timedelta, timezone
from pathlib import Path

import jsonschema
import pytest

from msgraphlint.knowledge import catalogue
from msgraphlint import pipeline
from msgraphlint.knowledge.catalogue import Level
from msgraphlint.config import Config
from msgraphlint.report import RunResult
from msgraphlint.report import sarif as sarif_module
from msgraphlint.report.sarif import Limits, RunTimes, render_sarif, sarif_report

from .samples_index import ROOT, SAMPLES
from .test_cli import run as run_cli  # the CLI in-process: (exit code, stdout, stderr)

SCHEMA_ENV = "MSGRAPHLINT_SARIF_SCHEMA"


def schema_path() -> Path:
    """$MSGRAPHLINT_SARIF_SCHEMA, else ../shared/sarif/ beside the project."""
    if os.environ.get(SCHEMA_ENV):
        return Path(os.environ[SCHEMA_ENV])
    return ROOT.parent / "shared" / "sarif" / "sarif-schema-2.1.0.json"


@pytest.fixture(scope="module")
def validator():
    path = schema_path()
    if not path.is_file():
        message = f"no SARIF schema at {path}; set {SCHEMA_ENV}"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI has ../shared beside the clone: never validate nothing
        pytest.skip(message)
    return jsonschema.Draft7Validator(json.loads(path.read_text("utf-8")))


def has_null(value) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(has_null(v) for v in value)
    return False


def run_result(paths, root: Path, config: Config = Config()) -> RunResult:
    """What the CLI would report: the pipeline's findings (fingerprinted) for these files."""
    outcome = pipeline.run(pipeline.Request(paths, config, jobs=1, use_cache=False, progress=False))
    return RunResult(outcome.findings, config, outcome.files_checked, root=root)


def sarif_for(paths, root: Path, config: Config = Config()) -> str:
    return render_sarif(run_result(paths, root, config), category="msgraphlint/cpu")


def test_samples_log_validates_and_is_deterministic(validator):
    paths = sorted(SAMPLES.rglob("*.py"))
    text = sarif_for(paths, ROOT)
    validator.validate(json.loads(text))
    assert text == sarif_for(paths, ROOT)
    run = json.loads(text)["runs"][0]
    assert run["tool"]["driver"]["name"] == "msgraphlint"
    assert run["automationDetails"]["id"] == "msgraphlint/cpu/"  # GitHub: category before the last /
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file://")
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert not uri.startswith(("/", "./")) and "\\" not in uri
        assert not has_null(result)


def test_columns_are_characters_after_chinese_text(tmp_path, validator):
    path = tmp_path / "m.py"
    path.write_text(
        "import math\nfrom mindspore import nn\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        "        说明 = '中文'; return math.sqrt(x.sum())\n",
        "utf-8",
    )
    log = json.loads(sarif_for([path], tmp_path))
    validator.validate(log)
    (result,) = log["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    line = path.read_text("utf-8").splitlines()[4]
    assert region["startColumn"] == line.index("math") + 1
    assert log["runs"][0]["columnKind"] == "unicodeCodePoints"


def test_fingerprint_survives_lines_added_above(tmp_path):
    body = "import math\nfrom mindspore import nn\nclass Net(nn.Cell):\n    def construct(self, x):\n        return math.sqrt(x.sum())\n"
    path = tmp_path / "m.py"
    path.write_text(body)
    before = json.loads(sarif_for([path], tmp_path))["runs"][0]["results"][0]
    path.write_text("# a new comment\n\n" + body)
    after = json.loads(sarif_for([path], tmp_path))["runs"][0]["results"][0]
    assert after["locations"][0]["physicalLocation"]["region"]["startLine"] == 7
    assert before["partialFingerprints"] == after["partialFingerprints"]


def test_suppressed_findings_are_kept_with_a_suppression(tmp_path, validator):
    path = tmp_path / "m.py"
    path.write_text(
        "import math\nfrom mindspore import nn\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        "        return math.sqrt(x.sum())  # pylint: disable=host-call-on-tensor\n"
    )
    log = json.loads(sarif_for([path], tmp_path))
    validator.validate(log)
    (result,) = log["runs"][0]["results"]
    assert result["suppressions"] == [{"kind": "inSource"}]


BAD = (
    "import math\nfrom mindspore import nn\nclass Net(nn.Cell):\n    def construct(self, x):\n"
    "        return math.sqrt(x.sum())\n"
)


def test_every_level_is_stated_even_the_schema_default(validator):
    """to_json drops values equal to their default ("warning"); code scanning must still see it."""
    log = json.loads(sarif_for(sorted(SAMPLES.rglob("*.py")), ROOT))
    validator.validate(log)
    run = log["runs"][0]
    assert not has_null(log)
    levels = {rule["id"]: rule["defaultConfiguration"]["level"] for rule in run["tool"]["driver"]["rules"]}
    assert set(levels.values()) == {"error", "warning", "note"}
    assert all(result["level"] in {"error", "warning", "note"} for result in run["results"])
    assert "warning" in {result["level"] for result in run["results"]}


def test_rule_metadata_is_what_code_scanning_reads():
    driver = json.loads(sarif_for([], ROOT))["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("msgraphlint", __import__("msgraphlint").__version__)
    assert driver["informationUri"].startswith("https://")
    assert len(driver["rules"]) == len(catalogue.rules())
    for rule in driver["rules"]:
        assert rule["name"] and rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["helpUri"] in rule["help"]["markdown"]
        assert rule["helpUri"].endswith(f"/docs/rules/{rule['name']}.md")
        assert rule["properties"]["precision"] == "high"
        assert rule["properties"]["problem.severity"] in {"error", "warning", "recommendation"}
        assert 0 < len(rule["properties"]["tags"]) <= 20  # GitHub rejects more than 20 tags


def test_the_severity_follows_the_syntax_level(tmp_path):
    (tmp_path / "m.py").write_text(BAD)
    strict = json.loads(sarif_for([tmp_path / "m.py"], tmp_path, Config(level=Level.STRICT)))
    (result,) = strict["runs"][0]["results"]
    rules = strict["runs"][0]["tool"]["driver"]["rules"]
    assert result["level"] == "error" == rules[result["ruleIndex"]]["defaultConfiguration"]["level"]


def test_no_timestamps_unless_asked_for(tmp_path, validator):
    (tmp_path / "m.py").write_text(BAD)
    result = run_result([tmp_path / "m.py"], tmp_path)
    (invocation,) = json.loads(render_sarif(result))["runs"][0]["invocations"]
    assert invocation == {"executionSuccessful": True, "exitCode": 1}
    start = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=timezone.utc)
    timed = json.loads(render_sarif(result, times=RunTimes(start, start + timedelta(seconds=2))))
    validator.validate(timed)
    (invocation,) = timed["runs"][0]["invocations"]
    assert invocation["startTimeUtc"] == "2026-01-02T03:04:05.678Z"
    assert invocation["endTimeUtc"] == "2026-01-02T03:04:07.678Z"


def test_cli_timestamps_flag(tmp_path):
    (tmp_path / "m.py").write_text(BAD)
    plain = [run_cli("check", "m.py", "--format", "sarif", cwd=tmp_path)[1] for _ in range(2)]
    assert plain[0] == plain[1]
    _, timed, _ = run_cli("check", "m.py", "--format", "sarif", "--sarif-timestamps", cwd=tmp_path)
    (invocation,) = json.loads(timed)["runs"][0]["invocations"]
    assert invocation["startTimeUtc"] <= invocation["endTimeUtc"]
    assert invocation["exitCode"] == 1


def test_category_already_ending_in_a_slash_is_kept(tmp_path):
    result = run_result([], tmp_path)
    assert json.loads(render_sarif(result, "ms/"))["runs"][0]["automationDetails"] == {"id": "ms/"}
    assert "automationDetails" not in json.loads(render_sarif(result))["runs"][0]


def test_past_the_result_limit_the_most_severe_are_kept(tmp_path, validator):
    """Three findings, room for two: the STRICT error and a warning, and the invocation says so."""
    (tmp_path / "m.py").write_text(
        "import math\nimport mindspore as ms\nfrom mindspore import nn\n\n"
        "class Quiet(nn.Cell):\n    def construct(self, x):\n        return math.sqrt(x.sum())\n\n"
        "class Loud(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.set_jit_config(ms.JitConfig(jit_syntax_level=ms.STRICT))\n\n"
        "    def construct(self, x):\n        return math.sqrt(x.sum())\n\n"
        "class Also(nn.Cell):\n    def construct(self, x):\n        return math.floor(x.sum())\n"
    )
    result = run_result([tmp_path / "m.py"], tmp_path)
    assert sorted(result.severity(f).value for f in result.findings) == ["error", "warning", "warning"]
    report = sarif_report(result, limits=Limits(max_results=2))
    log = json.loads(report.text)
    validator.validate(log)
    run = log["runs"][0]
    assert [r["level"] for r in run["results"]] == ["warning", "error"]  # still in reading order
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in run["results"]] == [7, 15]
    (notice,) = report.notices
    assert notice.startswith("1 of 3 results left out")
    (invocation,) = run["invocations"]
    assert invocation["toolExecutionNotifications"] == [{"level": "warning", "message": {"text": notice}}]
    assert invocation["exitCode"] == 1  # the exit code still counts every finding


def test_past_the_size_limit_results_are_dropped_until_it_fits(validator):
    result = run_result(sorted(SAMPLES.rglob("*.py")), ROOT)
    full = sarif_report(result)
    assert not full.notices
    limit = len(gzip.compress(full.text.encode(), mtime=0)) * 3 // 4
    report = sarif_report(result, limits=Limits(max_gzipped_bytes=limit))
    assert len(gzip.compress(report.text.encode(), mtime=0)) <= limit
    kept = len(json.loads(report.text)["runs"][0]["results"])
    assert 0 < kept < len(result.findings)
    assert report.notices[0].startswith(f"{len(result.findings) - kept} of {len(result.findings)}")
    validator.validate(json.loads(report.text))


def test_cli_says_on_stderr_what_the_log_left_out(tmp_path, monkeypatch):
    (tmp_path / "m.py").write_text(BAD + BAD.replace("Net", "Other").split("\n", 2)[2])
    monkeypatch.setattr(sarif_module, "GITHUB_LIMITS", Limits(max_results=1))
    code, out, err = run_cli("check", "m.py", "--format", "sarif", cwd=tmp_path)
    assert code == 1
    assert len(json.loads(out)["runs"][0]["results"]) == 1
    assert "msgraphlint: 1 of 2 results left out to stay within GitHub code scanning's" in err


def test_uris_are_percent_encoded_and_outside_files_absolute(tmp_path, tmp_path_factory, validator):
    inside = tmp_path / "模型 v2" / "net.py"
    inside.parent.mkdir()
    inside.write_text(BAD)
    outside = tmp_path_factory.mktemp("elsewhere") / "other.py"
    outside.write_text(BAD)
    log = json.loads(sarif_for([inside, outside], tmp_path))
    validator.validate(log)
    locations = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in log["runs"][0]["results"]]
    assert {"uri": "%E6%A8%A1%E5%9E%8B%20v2/net.py", "uriBaseId": "%SRCROOT%"} in locations
    assert {"uri": outside.resolve().as_uri()} in locations


def test_a_helper_finding_points_at_its_compiled_root(tmp_path, validator):
    path = tmp_path / "m.py"
    path.write_text(
        "import math\nfrom mindspore import nn\n\ndef norm(x):\n    return math.sqrt(x.sum())\n\n"
        "class Net(nn.Cell):\n    def construct(self, x):\n        return norm(x)\n"
    )
    log = json.loads(sarif_for([path], tmp_path))
    validator.validate(log)
    (result,) = log["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 5
    (related,) = result["relatedLocations"]
    assert related["physicalLocation"]["artifactLocation"] == {"uri": "m.py", "uriBaseId": "%SRCROOT%"}
    assert related["physicalLocation"]["region"] == {"startLine": 8}
    assert related["message"]["text"] == "compiled root Net.construct"
    assert result["properties"]["reachedFrom"].startswith("reached from Net.construct")


def test_internal_errors_are_tool_notifications(tmp_path, validator):
    result = RunResult([], Config(), 1, root=tmp_path, internal_errors=["m.py: ValueError: boom"])
    log = json.loads(render_sarif(result))
    validator.validate(log)
    (invocation,) = log["runs"][0]["invocations"]
    assert invocation == {
        "executionSuccessful": False,
        "exitCode": 2,
        "toolExecutionNotifications": [{"level": "error", "message": {"text": "m.py: ValueError: boom"}}],
    }


# ----- GitLab code quality: the other code-review report, fingerprinted the same way ----------


def gitlab_issues(project: Path, *args: str) -> tuple[int, list[dict]]:
    code, out, _ = run_cli("check", "--format", "gitlab", *args, cwd=project)
    return code, json.loads(out)


def test_gitlab_report_has_the_fields_gitlab_reads(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "m.py").write_text(BAD)
    code, issues = gitlab_issues(tmp_path)
    assert code == 1
    (issue,) = issues
    assert issue == {
        "description": issue["description"],
        "check_name": "host-call-on-tensor",
        "fingerprint": issue["fingerprint"],
        "severity": "major",
        "location": {"path": "models/m.py", "lines": {"begin": 5}},
    }
    assert issue["description"].startswith("W8720 host-call-on-tensor: 'math.sqrt' is host Python")
    assert len(issue["fingerprint"]) == 32 and int(issue["fingerprint"], 16) >= 0
    _, strict = gitlab_issues(tmp_path, "--syntax-level", "strict")
    assert strict[0]["severity"] == "critical"


def test_gitlab_fingerprints_are_unique_and_survive_lines_added_above(tmp_path):
    (tmp_path / "a.py").write_text(BAD)
    (tmp_path / "b.py").write_text(BAD)
    _, before = gitlab_issues(tmp_path)
    assert len({issue["fingerprint"] for issue in before}) == 2  # same line, two files
    (tmp_path / "a.py").write_text("# 新的注释\n\n" + BAD)
    _, after = gitlab_issues(tmp_path)
    assert [i["fingerprint"] for i in after] == [i["fingerprint"] for i in before]
    assert after[0]["location"]["lines"]["begin"] == 7


def test_gitlab_leaves_out_suppressed_findings_and_is_a_pyproject_format(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.msgraphlint]\nformat = "gitlab"\n')
    (tmp_path / "m.py").write_text(BAD.replace("x.sum())\n", "x.sum())  # pylint: disable=W8720\n"))
    code, out, _ = run_cli("check", cwd=tmp_path)
    assert code == 0 and json.loads(out) == []


# ----- the CI recipes of docs/ci.md, run as written ------------------------------------------


def documented_ci(marker: str) -> dict:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit (the test extra)")
    text = (ROOT / "docs" / "ci.md").read_text("utf-8")
    block = re.search(rf"<!-- {marker} -->\s*```yaml\n(.*?)```", text, re.S)
    assert block, f"docs/ci.md lost its <!-- {marker} --> block"
    return yaml.safe_load(block.group(1))


def run_documented_command(command: str, project: Path) -> int:
    words = shlex.split(command)
    assert words[0] == "msgraphlint"
    return run_cli(*words[1:], cwd=project)[0]


def test_github_workflow_uploads_the_log_msgraphlint_writes(tmp_path, validator):
    (tmp_path / "m.py").write_text(BAD)
    (job,) = documented_ci("github-workflow")["jobs"].values()
    assert job["permissions"]["security-events"] == "write"
    actions = {step["uses"].split("@")[0]: step for step in job["steps"] if "uses" in step}
    upload = actions["github/codeql-action/upload-sarif"]
    (lint,) = [step["run"] for step in job["steps"] if step.get("run", "").startswith("msgraphlint ")]
    assert run_documented_command(lint, tmp_path) == 1
    log = json.loads((tmp_path / upload["with"]["sarif_file"]).read_text("utf-8"))
    validator.validate(log)
    assert log["runs"][0]["automationDetails"]["id"] == "msgraphlint/"
    assert "always()" in upload["if"] or "cancelled()" in upload["if"]  # uploads after a failure


def test_gitlab_job_writes_the_report_it_declares(tmp_path):
    (tmp_path / "m.py").write_text(BAD)
    (job,) = documented_ci("gitlab-ci").values()
    (command,) = [line for line in job["script"] if line.startswith("msgraphlint ")]
    assert run_documented_command(command, tmp_path) == 1
    report = json.loads((tmp_path / job["artifacts"]["reports"]["codequality"]).read_text("utf-8"))
    assert [issue["check_name"] for issue in report] == ["host-call-on-tensor"]
