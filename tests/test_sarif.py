"""SARIF 2.1.0 logs validate against the OASIS schema and carry what code scanning reads."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from msgraphlint.analyze import Engine
from msgraphlint.config import Config
from msgraphlint.report import RunResult
from msgraphlint.report.sarif import render_sarif

from .samples_index import ROOT, SAMPLES

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
        pytest.skip(f"no SARIF schema at {path}; set {SCHEMA_ENV}")
    return jsonschema.Draft7Validator(json.loads(path.read_text("utf-8")))


def has_null(value) -> bool:
    if value is None:
        return True
    if isinstance(value, dict):
        return any(has_null(v) for v in value.values())
    if isinstance(value, list):
        return any(has_null(v) for v in value)
    return False


def sarif_for(paths, root: Path, config: Config = Config()) -> str:
    engine = Engine()
    findings = sorted((f for p in paths for f in engine.check_file(p)), key=lambda f: f.sort_key())
    return render_sarif(RunResult(findings, config, len(paths), root=root), category="msgraphlint/cpu")


def test_samples_log_validates_and_is_deterministic(validator):
    paths = sorted(SAMPLES.rglob("*.py"))
    text = sarif_for(paths, ROOT)
    validator.validate(json.loads(text))
    assert text == sarif_for(paths, ROOT)
    run = json.loads(text)["runs"][0]
    assert run["tool"]["driver"]["name"] == "msgraphlint"
    assert run["automationDetails"]["id"] == "msgraphlint/cpu"
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
