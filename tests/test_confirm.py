"""``--confirm``: each finding checked against the real MindSpore (CPU), in child processes.

Expensive runs are shared through module-scoped fixtures: the samples are confirmed once per
level, the hostile project once. Every run gets its own cache folder, so the tests never see
each other's (or the user's) cached results, except the runs on the samples in place: they share
the session's verdicts (tests/shared_verdicts.py), so that a target is compiled by a child once
per level and session. The hanging import's run, which spends a minute waiting for the import
limit, is started before the first test and runs beside the others.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("mindspore", reason="install the confirm extra: pip install '.[confirm]'")

from msgraphlint.knowledge import catalogue  # noqa: E402
from msgraphlint.pipeline import new_engine  # noqa: E402
from msgraphlint.knowledge.catalogue import Level, Verdict  # noqa: E402
from msgraphlint.config import Config, ConfigError, from_pyproject  # noqa: E402
from msgraphlint.confirm.run import ConfirmOptions, confirm_findings  # noqa: E402
from msgraphlint.confirm_settings import ConfirmSettings, TargetSettings  # noqa: E402
from msgraphlint.syntax.project import walk_python_files  # noqa: E402

from .samples_index import ROOT, Sample, sample_path  # noqa: E402
from .shared_verdicts import cli_cache_home, verdicts_cache  # noqa: E402

pytestmark = pytest.mark.compiler
ENTRY_POINT = Path(sys.executable).with_name("msgraphlint")

# One sample per kind of evidence: compile errors, frozen values (output), a lost gradient, host
# effects, a custom bprop, an error only the compiler finds, files that do not import, and a
# finding on a Cell class rather than in compiled code.
SAMPLE_RULES = ("unsupported-statement", "host-call-on-tensor", "random-frozen", "asnumpy-in-graph",
                "asnumpy-under-bprop", "host-concurrency", "graph-compile-error", "syntax-error",
                "removed-ms-function", "forward-without-construct")


def samples(kind: str) -> list[Sample]:
    return [Sample(catalogue.rule(s), kind, sample_path(catalogue.rule(s), kind)) for s in SAMPLE_RULES]


def sample_settings() -> ConfirmSettings:
    """A sample's SAMPLE_INPUTS become its targets' inputs, as a user's pyproject would say."""
    targets = {}
    for sample in samples("bad") + samples("good"):
        try:
            tree = ast.parse(sample.path.read_bytes())
        except (SyntaxError, ValueError):
            continue  # the input family's samples: nothing to call
        inputs = next((ast.literal_eval(node.value) for node in tree.body
                       if isinstance(node, ast.Assign)
                       and any(getattr(t, "id", "") == "SAMPLE_INPUTS" for t in node.targets)), None)
        if inputs:
            relative = sample.path.relative_to(ROOT).as_posix()
            for node in tree.body:
                if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
                    targets[f"{relative}::{node.name}"] = TargetSettings(tuple(inputs))
    return ConfirmSettings(targets=targets, timeout=120)


def confirm(paths, config: Config, cache: Path, *, every: bool = False, use_cache: bool = True):
    engine = new_engine()
    run = engine.check_paths(paths, config.excludes)
    selected = [f for f in run.findings if config.wants(f)]
    files = [f for p in paths for f in walk_python_files(p)] if every else []
    options = ConfirmOptions(all_targets=every, jobs=2, use_cache=use_cache, progress=False,
                             cache_dir=cache)
    return confirm_findings(engine, selected, config, files, options)


def by_line(outcome, path: Path) -> dict[tuple[str, int], object]:
    return {(f.rule.symbol, f.line): f for f in outcome.findings
            if os.path.realpath(f.path) == os.path.realpath(path)}


@pytest.fixture(scope="module", params=[Level.STRICT, Level.LAX], ids=lambda level: level.value)
def samples_run(request):
    config = Config(level=request.param, confirm=sample_settings(), source=ROOT / "pyproject.toml")
    paths = [s.path for s in samples("bad") + samples("good")]
    # The session's shared verdicts (tests/shared_verdicts.py): the children's results on these
    # samples serve the other tests that confirm the samples in place.
    outcome = confirm(paths, config, verdicts_cache(), every=True)
    return request.param, outcome


def test_samples_findings_are_confirmed_by_the_compiler(samples_run):
    _, outcome = samples_run
    for sample in samples("bad"):
        found = by_line(outcome, sample.path)
        assert set(found) == sample.expected(), sample.path.name
        unconfirmed = {key: (f.confirmation, f.evidence) for key, f in found.items()
                       if f.confirmation != "confirmed"}
        assert unconfirmed == {}, sample.path.name
    for sample in samples("good"):
        assert by_line(outcome, sample.path) == {}, sample.path.name
    # Targets without findings were run too (--confirm=all): none failed in the harness.
    failed = [t.result for t in outcome.targets if "child process" in str(t.result.get("reason"))]
    assert failed == []


def test_the_evidence_is_the_one_the_rule_names(samples_run):
    """Rejected: the compiler's message and line; misbehaves: the catalogue's kind of evidence."""
    level, outcome = samples_run
    for sample in samples("bad"):
        for finding in by_line(outcome, sample.path).values():
            kinds = {kind for kind, _ in finding.evidence}
            verdict = finding.rule.verdict(finding.level(level), case=finding.case)
            if finding.rule.evidence == "import":
                assert "import" in kinds, finding
            elif verdict == Verdict.REJECTED:
                assert "compile" in kinds and finding.compiler_message, finding
            elif verdict == Verdict.MISBEHAVES and finding.confirmation == "confirmed":
                # --confirm checks the claim: the consequence the message states was shown.
                assert finding.rule.evidence in kinds, finding


def test_frozen_values_zero_gradient_and_host_effects_at_lax(samples_run):
    level, outcome = samples_run
    if level != Level.LAX:
        pytest.skip("at STRICT these samples are rejected, not run")
    details: dict[str, str] = {}
    for finding in outcome.findings:  # every finding of the rule, in every bad sample's target
        details[finding.rule.symbol] = " ".join(
            [details.get(finding.rule.symbol, ""), *(d for _, d in finding.evidence)])
    assert "frozen at compile time" in details["random-frozen"]
    assert "gradient is zero" in details["asnumpy-in-graph"]
    assert "host side effects" in details["host-concurrency"]
    # A Cell with a custom bprop compiles at LAX; the host copy is a PyExecute node (fallback).
    assert "PyExecute" in details["asnumpy-under-bprop"]


def test_compiler_only_error_is_a_finding_of_its_own(samples_run):
    level, outcome = samples_run
    bad = sample_path(catalogue.rule("graph-compile-error"), "bad")
    (finding,) = [f for f in outcome.findings if f.rule.symbol == "graph-compile-error"]
    assert os.path.realpath(finding.path) == os.path.realpath(bad)
    assert "MatMulExt" in finding.message and "Projection" in finding.message
    assert finding.severity(level) == catalogue.Severity.ERROR
    assert finding.confirmation == "confirmed"


# ----- a finding the compiler does not reproduce, inputs and constructor arguments -----------

UNUSED_CLOCK = """
import time

from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        started = time.time()
        return x * 2
"""

NEEDS_INIT = """
import numpy as np
from mindspore import Tensor, nn


class Scaled(nn.Cell):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def construct(self, x, y):
        return x * self.scale + Tensor(np.where(y.asnumpy() > 0, 1.0, 0.0).astype(np.float32))
"""


@pytest.fixture(scope="module")
def small_project(tmp_path_factory):
    root = tmp_path_factory.mktemp("small")
    (root / "unused_clock.py").write_text(UNUSED_CLOCK)
    (root / "scaled.py").write_text(NEEDS_INIT)
    (root / "unconfigured.py").write_text(NEEDS_INIT)
    (root / "pyproject.toml").write_text(textwrap.dedent("""
        [tool.msgraphlint]
        syntax-level = "strict"

        [tool.msgraphlint.confirm]
        inputs = ["float32[2,2]", "float32[None,2]"]

        [tool.msgraphlint.confirm.targets."scaled.py::Scaled"]
        init = { scale = 3 }

        [tool.msgraphlint.confirm.targets."unused_clock.py::Net"]
        inputs = ["float32[2,2]"]
    """))
    config = from_pyproject(root / "pyproject.toml")
    lax = Config(level=Level.LAX, confirm=config.confirm, source=config.source)
    cache = tmp_path_factory.mktemp("cache")
    return root, confirm([root], config, cache), confirm([root / "unused_clock.py"], lax, cache)


def test_a_frozen_clock_is_shown_by_its_call_count(small_project):
    # The value never reaches the output, but the read is made once, while compiling: on the
    # second call GRAPH_MODE reads no clock and PyNative reads one, which is what the message says.
    root, _, lax = small_project
    (finding,) = by_line(lax, root / "unused_clock.py").values()
    assert finding.rule.symbol == "clock-frozen"
    assert finding.confirmation == "confirmed"
    assert "(time.time): 0 in GRAPH_MODE, 1 in PyNative" in finding.evidence[0][1]


def test_configured_inputs_and_init(small_project):
    root, strict, _ = small_project
    scaled = by_line(strict, root / "scaled.py")
    assert scaled and {f.confirmation for f in scaled.values()} == {"confirmed"}
    unconfigured = by_line(strict, root / "unconfigured.py")
    assert {f.confirmation for f in unconfigured.values()} == {"unverified"}
    reasons = {d for f in unconfigured.values() for _, d in f.evidence}
    assert any("missing 1 required positional argument: 'scale'" in r for r in reasons)


def test_wrong_number_of_inputs_is_unverified_with_the_reason(tmp_path):
    (tmp_path / "scaled.py").write_text(NEEDS_INIT)
    settings = ConfirmSettings(inputs=("float32[2,2]",))
    outcome = confirm([tmp_path], Config(level=Level.STRICT, confirm=settings), tmp_path / "c")
    assert outcome.findings and {f.confirmation for f in outcome.findings} == {"unverified"}
    assert "construct takes 2 input(s) but 1 are configured" in outcome.findings[0].evidence[0][1]
    assert outcome.stats.children == 0  # decided before any child was started


@pytest.mark.parametrize("content, message", [
    ('[tool.msgraphlint.confirm]\ninputs = ["float32(2,2)"]', "not of the form dtype[d0,d1,...]"),
    ('[tool.msgraphlint.confirm]\ninputs = ["floaty[2]"]', "unknown dtype 'floaty'"),
    ('[tool.msgraphlint.confirm]\ntimeout = -1', "timeout must be a positive number"),
    ('[tool.msgraphlint.confirm]\nspeed = 1', "unknown key(s) speed"),
    ('[tool.msgraphlint.confirm.targets."net.py"]\ninputs = []', "relative/path.py::Name"),
    ('[tool.msgraphlint.confirm.targets."net.py::Net"]\ninit = 3', "init must be a table"),
    ('[tool.msgraphlint.confirm.targets."net.py::step"]\nentry = "main"', "entry must be"),
])
def test_bad_confirm_configuration_is_a_clear_error(tmp_path, content, message):
    (tmp_path / "pyproject.toml").write_text(content)
    with pytest.raises(ConfigError, match=None) as error:
        from_pyproject(tmp_path / "pyproject.toml")
    assert message in str(error.value) and "[tool.msgraphlint.confirm]" in str(error.value)


# ----- hostile modules cost only their own targets -------------------------------------------

CELL = """
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.where(x.asnumpy() > 0, 1.0, 0.0).astype(np.float32))
"""
SLOW_THEN_FINE = """
import time

import numpy as np
from mindspore import Tensor, nn


class Sleeps(nn.Cell):
    def construct(self, x):
        time.sleep(3600)
        return x + Tensor(np.where(x.asnumpy() > 0, 1.0, 0.0).astype(np.float32))


class Fine(nn.Cell):
    def construct(self, x):
        return x + Tensor(np.where(x.asnumpy() > 0, 1.0, 0.0).astype(np.float32))
"""
HOSTILE = {
    "exits.py": "import os\nos._exit(3)\n" + CELL,
    "loops.py": "while True:\n    pass\n" + CELL,
    "segfault.py": "import ctypes\nctypes.string_at(0)\n" + CELL,
    "raises.py": "raise ImportError('no such thing')\n" + CELL,
    "normal.py": CELL,
    "sleeps.py": SLOW_THEN_FINE,
    # Grows by 1 GB a second until the parent stops it at the memory limit.
    "hog.py": "import time\nheap = []\nwhile True:\n    heap.append(b'x' * 50_000_000)\n"
              "    time.sleep(0.05)\n" + CELL,
}


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    for name, text in HOSTILE.items():
        (root / name).write_text(text)
    config = Config(level=Level.LAX, confirm=ConfirmSettings(timeout=10, import_timeout=8,
                                                             memory_limit_mb=1500))
    return root, confirm([root], config, tmp_path_factory.mktemp("cache"))


@pytest.mark.parametrize("name, reason", [
    ("exits.py", "importing the module: the child process exited with status 3"),
    ("loops.py", "importing the module: the child process did not finish within the 8 s import"
                 " limit (import-timeout in [tool.msgraphlint.confirm])"),
    ("segfault.py", "importing the module: the child process crashed with SIGSEGV"),
    ("raises.py", "importing the module raised ImportError: no such thing"),
    ("hog.py", "MB memory limit (memory-limit-mb in [tool.msgraphlint.confirm])"),
])
def test_a_hostile_module_costs_only_its_own_targets(hostile_run, name, reason):
    root, outcome = hostile_run
    found = by_line(outcome, root / name)
    assert found
    for finding in found.values():
        # A module that raises fails before anything compiles: the findings fail elsewhere. One
        # that exits, hangs, crashes or eats memory gives no answer at all.
        expected = "fails-elsewhere" if name == "raises.py" else "unverified"
        assert finding.confirmation == expected
        assert reason in finding.evidence[0][1]


def test_modules_beside_hostile_ones_are_still_confirmed(hostile_run):
    root, outcome = hostile_run
    normal = by_line(outcome, root / "normal.py")
    assert normal and {f.confirmation for f in normal.values()} == {"confirmed"}
    sleeps = [f for f in outcome.findings if f.path.name == "sleeps.py"]
    slow = {f.confirmation for f in sleeps if f.target == "Sleeps.construct"}
    fine = {f.confirmation for f in sleeps if f.target == "Fine.construct"}
    # The endless construct is stopped at its time limit; the Cell after it runs in a new child.
    assert slow == {"unverified"} and fine == {"confirmed"}
    assert any("time limit" in d for f in sleeps for _, d in f.evidence)


# ----- the cache ------------------------------------------------------------------------------

COUNTED = """
from pathlib import Path

import numpy as np
from mindspore import Tensor, nn

from helpers import offset


class Net(nn.Cell):
    def construct(self, x):
        return x + offset() + Tensor(np.where(x.asnumpy() > 0, 1.0, 0.0).astype(np.float32))
"""


def test_an_unchanged_rerun_compiles_nothing(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "counted.py").write_text(COUNTED)
    (project / "helpers.py").write_text("def offset():\n    return 1\n")
    config = Config(level=Level.STRICT)
    cache = tmp_path / "cache"

    first = confirm([project / "counted.py"], config, cache)
    # (The module cannot count its imports in a file: the sandbox makes its folder read-only.)
    assert (first.stats.compiled, first.stats.children) == (1, 1)
    statuses = [(f.rule_id, f.line, f.confirmation, f.evidence) for f in first.findings]
    assert {s[2] for s in statuses} == {"confirmed"}

    again = confirm([project / "counted.py"], config, cache)
    assert (again.stats.compiled, again.stats.cached, again.stats.children) == (0, 1, 0)
    # children == 0 above: the module was not even imported
    assert [(f.rule_id, f.line, f.confirmation, f.evidence) for f in again.findings] == statuses

    # A project file the module imported changed: compiled again.
    (project / "helpers.py").write_text("def offset():\n    return 2\n")
    changed = confirm([project / "counted.py"], config, cache)
    assert (changed.stats.compiled, changed.stats.children) == (1, 1)
    # Another level is another entry; --no-cache never reads one.
    assert confirm([project / "counted.py"], Config(level=Level.LAX), cache).stats.compiled == 1
    assert confirm([project / "counted.py"], config, cache, use_cache=False).stats.compiled == 1


# ----- the command line, through the installed entry point ------------------------------------

def cli(*args, cwd: Path, env: dict | None = None):
    return subprocess.run([str(ENTRY_POINT), *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=600)


@pytest.fixture(scope="module")
def cli_project(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    (root / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (root / "net.py").write_text(CELL)
    shutil.copy(sample_path(catalogue.rule("graph-compile-error"), "bad"), root / "projection.py")
    return root, {"MSGRAPHLINT_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}


def test_cli_confirm_all_sarif_validates_and_carries_the_status(cli_project):
    jsonschema = pytest.importorskip("jsonschema")
    from .test_sarif import schema_path

    if not schema_path().is_file():
        pytest.skip(f"no SARIF schema at {schema_path()}")
    root, env = cli_project
    done = cli("check", "--confirm=all", "--syntax-level", "strict", "--format", "sarif", "-j", "2",
               ".", cwd=root, env=env)
    assert done.returncode == 1, done.stderr
    log = json.loads(done.stdout)
    jsonschema.Draft7Validator(json.loads(schema_path().read_text("utf-8"))).validate(log)
    results = log["runs"][0]["results"]
    assert results and {r["properties"]["confirmation"] for r in results} == {"confirmed"}
    assert all(r["properties"]["evidence"] for r in results)
    compile_errors = [r for r in results if r["ruleId"] == "E8705"]
    assert len(compile_errors) == 1
    assert "MatMulExt" in compile_errors[0]["properties"]["compilerMessage"]
    expected = next(number for number, line in enumerate(
        (root / "projection.py").read_text().splitlines(), 1) if "expect: graph-compile-error" in line)
    assert compile_errors[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == expected
    assert "Confirmation with MindSpore" in done.stderr


def test_cli_text_and_json_carry_the_status(cli_project):
    root, env = cli_project
    done = cli("check", "--confirm", "--syntax-level", "strict", "net.py", cwd=root, env=env)
    assert done.returncode == 1, done.stderr
    assert "\n    confirmed: MindSpore rejects Net at STRICT on CPU" in done.stdout
    assert "Confirmation with MindSpore" in done.stdout.splitlines()[-1]
    done = cli("check", "--confirm", "--syntax-level", "strict", "--format", "json", "net.py",
               cwd=root, env=env)
    records = json.loads(done.stdout)
    assert records and all(r["confirmation"] == "confirmed" for r in records)
    assert all("In file" in r["compiler_message"] for r in records)
    assert "0 compiled, 1 cached" in done.stderr  # the text run above filled the cache


class Background:
    """The CLI started now and waited for later (``cli``'s arguments): its output, and how long
    it ran from its start to its end, whatever ran in this process meanwhile."""

    def __init__(self, *args, cwd: Path):
        self.started = time.monotonic()
        self.process = subprocess.Popen([str(ENTRY_POINT), *args], cwd=cwd, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.stdout = self.stderr = ""
        self.elapsed = None
        self.thread = threading.Thread(target=self._wait, daemon=True)
        self.thread.start()

    def _wait(self):
        self.stdout, self.stderr = self.process.communicate()
        self.elapsed = time.monotonic() - self.started

    def result(self, timeout: float = 600) -> Background:
        self.thread.join(timeout)
        return self

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()  # the CLI ends its fork server and children on SIGTERM
        self.thread.join(30)
        if self.process.poll() is None:
            self.process.kill()


HANGING_TEST = "test_a_hanging_import_costs_at_most_a_minute_by_default"


@pytest.fixture(scope="module", autouse=True)
def hanging_import(request, tmp_path_factory):
    """The hanging import's run, started before this file's first test: most of its minute is
    the hanging child asleep, so the other tests run meanwhile instead of after it. Started
    only when that test is to run."""
    if not any(item.name == HANGING_TEST and item.module is request.module
               for item in request.session.items):
        yield None
        return
    folder = tmp_path_factory.mktemp("hangs")
    (folder / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (folder / "hangs.py").write_text("import time\ntime.sleep(3600)\n" + CELL)
    (folder / "net.py").write_text(CELL)
    run = Background("check", "--confirm", "--no-cache", "--format", "json", "-j", "2", ".",
                     cwd=folder)
    yield run
    run.stop()


def test_a_hanging_import_costs_at_most_a_minute_by_default(hanging_import):
    done = hanging_import.result()
    elapsed = done.elapsed
    assert elapsed is not None, "the run did not end within 10 minutes"
    records = {r["path"]: r for r in json.loads(done.stdout)}
    assert records["net.py"]["confirmation"] == "confirmed"
    hung = records["hangs.py"]
    assert hung["confirmation"] == "unverified"
    assert "did not finish within the 60 s import limit" in json.dumps(hung["evidence"])
    # The default limit, plus MindSpore's start and the other module's compile.
    assert 60 <= elapsed < 60 + 45, elapsed


def test_confirm_without_mindspore_says_how_to_install_it(tmp_path):
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(textwrap.dedent("""
        import sys

        class NoMindSpore:
            def find_spec(self, name, path=None, target=None):
                if name == "mindspore" or name.startswith("mindspore."):
                    raise ModuleNotFoundError("No module named 'mindspore'", name=name)
                return None

        sys.meta_path.insert(0, NoMindSpore())
    """))
    (tmp_path / "net.py").write_text(CELL)
    env = {"PYTHONPATH": str(shim), "MSGRAPHLINT_CACHE_DIR": str(tmp_path / "cache")}
    done = cli("check", "--confirm", "net.py", cwd=tmp_path, env=env)
    assert done.returncode == 2
    assert "pip install 'msgraphlint[confirm]'" in done.stderr
    assert "Traceback" not in done.stderr
    # The static check never needed MindSpore.
    assert cli("check", "net.py", cwd=tmp_path, env=env).returncode == 1


def test_confirm_needs_files_on_disk_not_stdin():
    from .test_cli import run

    code, _, err = run("check", "-", "--confirm", stdin=CELL)
    assert code == 2 and "cannot confirm stdin" in err


# ----- targets built and fed as the project does; findings confirmed by their own failure ---------

PORTED = {
    "pyproject.toml": "[project]\nname = 'ported'\n",
    "blocks.py": textwrap.dedent('''
        import numpy as np
        import mindspore as ms
        from mindspore import nn


        def leaky(x):
            return ms.Tensor(np.where(x > 0, x, 0.1 * x))


        class Block(nn.Cell):
            def __init__(self, channels):
                super().__init__()
                self.conv1 = nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False)
                self.bn1 = nn.BatchNorm2d(channels)
                self.conv2 = nn.Conv2d(channels, channels, 3, pad_mode="same", has_bias=False)
                self.bn2 = nn.BatchNorm2d(channels)

            def construct(self, x):
                # The host result feeds layers that need its shape while compiling.
                out = leaky(self.bn1(self.conv1(x)))
                out = self.bn2(self.conv2(out))
                return leaky(out + x)


        class Net(nn.Cell):
            def __init__(self, channels=4):
                super().__init__()
                self.stem = nn.Conv2d(3, channels, 3, pad_mode="same")
                self.blocks = nn.SequentialCell([Block(channels) for _ in range(2)])

            def construct(self, images):
                return self.blocks(self.stem(images)).detach()
    '''),
    "elsewhere.py": textwrap.dedent('''
        from mindspore import nn


        class Net(nn.Cell):
            def construct(self, x):
                y = x.reshape(7, 7, 7)  # 4 elements cannot take that shape: no finding says so
                return y.detach()
    '''),
    "driven.py": textwrap.dedent('''
        import numpy as np
        import mindspore as ms


        @ms.jit
        def halve(x):
            return x.reshape(35) / 2


        def main():
            x = ms.Tensor(np.ones((5, 7), np.float32))
            print(halve(x))
    '''),
    "nested.py": textwrap.dedent('''
        import numpy as np
        import mindspore as ms
        from mindspore import nn


        def train(batches):
            @ms.jit
            def step(x):
                return x.reshape(35).detach()
            return [step(x) for x in batches]


        def check():
            class Flat(nn.Cell):
                def construct(self, x):
                    return x.reshape(35) * 2
            return Flat()(ms.Tensor(np.ones((7, 5), np.float32)))


        def main():
            train([ms.Tensor(np.ones((5, 7), np.float32))])
    '''),
    "guards.py": textwrap.dedent('''
        import numpy as np
        import mindspore as ms
        from mindspore import nn


        def check():
            class Guarded(nn.Cell):
                def construct(self, x):
                    if x.sum() > 10:
                        raise ValueError(f"too big: {x.shape}")
                    return x * 2
            return Guarded()(ms.Tensor(np.ones(20, np.float32)))
    '''),
}


@pytest.fixture(scope="module")
def ported_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("ported")
    for name, text in PORTED.items():
        (root / name).write_text(text)
    outcome = confirm([root], Config(level=Level.LAX), tmp_path_factory.mktemp("cache"),
                      every=True)
    return root, outcome


def test_targets_are_built_and_fed_as_the_project_does(ported_run):
    _, outcome = ported_run
    targets = {t.label: t for t in outcome.targets if t.path.name != "elsewhere.py"}
    # Block(channels) in Net.__init__(self, channels=4): built with 4, fed 4-channel images.
    assert dict(targets["Block"].init) == {"channels": 4}
    assert targets["Block"].inputs == ("float32[2,4,8,8]",)
    assert targets["Net"].inputs == ("float32[2,3,8,8]",)  # its stem: nn.Conv2d(3, ...)
    assert targets["halve"].inputs == ("float32[5,7]",)  # what main() passes it
    assert targets["halve"].result["status"] == "compiled"  # reshape(35) fits 5x7, not 2x2


def test_targets_defined_inside_functions_are_reached_by_running_them(ported_run):
    # step, defined in train(), is reached through main(); Flat through check(), which takes no
    # argument. Each is called with what that code passes it (reshape(35) fits 5x7 and 7x5,
    # not the 2x2 default), stopped at its first call and compiled on its own.
    root, outcome = ported_run
    targets = {t.label: t for t in outcome.targets if t.path.name == "nested.py"}
    assert (targets["step"].via["run"], targets["Flat"].via["run"]) == ("main", "check")
    assert targets["Flat"].result["status"] == "compiled"
    assert targets["step"].result["status"] == "rejected"
    (detach,) = by_line(outcome, root / "nested.py").values()
    assert detach.rule.symbol == "detach-call" and detach.confirmation == "confirmed"
    assert "detach" in detach.evidence[0][1]


def test_the_codes_own_raise_is_no_compile_error(ported_run):
    # check() gives Guarded twenty ones: the branch that raises is taken, as the code says. The
    # graph compiled; the raise is no graph-compile-error.
    root, outcome = ported_run
    (guarded,) = [t for t in outcome.targets if t.path.name == "guards.py"]
    assert guarded.result["status"] == "compiled"
    assert "raised the code's own ValueError: too big" in guarded.result["note"]
    assert by_line(outcome, root / "guards.py") == {}


def test_an_error_naming_no_line_confirms_the_finding_whose_rewrite_gets_past_it(ported_run):
    root, outcome = ported_run
    found = by_line(outcome, root / "blocks.py")
    host_call = next(f for (symbol, _), f in found.items() if symbol == "host-call-on-tensor")
    assert host_call.confirmation == "confirmed"
    assert any("ops.where in the graph" in detail and "gets past that error" in detail
               for _, detail in host_call.evidence)
    # Net stops at the same error first; with the host call rewritten, at its own detach().
    detach = next(f for (symbol, _), f in found.items() if symbol == "detach-call")
    assert detach.confirmation == "confirmed"
    assert "with the findings shown to fail before it rewritten" in detach.evidence[0][1]
    assert "'Tensor' object has no attribute 'detach'" in detach.evidence[0][1]
    # Every error is a finding's own: no compile error of its own is left.
    assert not any(f.rule.symbol == "graph-compile-error" for f in found.values())


def test_a_target_failing_for_another_reason_confirms_nothing(ported_run):
    root, outcome = ported_run
    found = by_line(outcome, root / "elsewhere.py")
    detach = next(f for (symbol, _), f in found.items() if symbol == "detach-call")
    assert detach.confirmation == "fails-elsewhere"
    assert "stopped at an earlier error" in detach.evidence[0][1]
    assert any(symbol == "graph-compile-error" for symbol, _ in found)  # the reshape's own


@pytest.mark.parametrize("level", ["lax", "strict"])
def test_the_bundled_resnet_port_is_confirmed_by_its_own_errors(tmp_path, level):
    shutil.copytree(ROOT / "samples" / "models" / "resnet_port", tmp_path / "resnet_port")
    done = cli("check", "--confirm", "--no-cache", "--format", "json", "-j", "2", "resnet_port",
               "--syntax-level", level, cwd=tmp_path)
    records = json.loads(done.stdout)
    statuses = {(r["symbol"], r["confirmation"]) for r in records}
    # No compile error left unexplained: each error is some finding's own.
    assert not any(symbol == "graph-compile-error" for symbol, _ in statuses), statuses
    # train()'s jit step too, reached by running main() up to its first call.
    assert {status for _, status in statuses} == {"confirmed"}
    assert {symbol for symbol, _ in statuses} == {
        "tensor-size-call", "global-list-mutation", "detach-call", "numpy-reduction-on-tensor",
        "host-call-on-tensor", "asnumpy-in-graph"}
    evidence = {r["symbol"]: " ".join(e["detail"] for e in r["evidence"]) for r in records}
    # LAX names no line for np.where (its rewrite into ops.where gets past it); STRICT does.
    assert ("call ops.where in the graph" if level == "lax" else "(In file utils.py:20)") \
        in evidence["host-call-on-tensor"]
    assert "0 in GRAPH_MODE, 1 in PyNative" in evidence["global-list-mutation"]


@pytest.mark.parametrize("port", ["resnet_port", "transformer_port"])
def test_fix_confirm_applies_every_safe_fix_of_the_bundled_ported_models(tmp_path, port):
    # resnet_port's fixes leave np.where and np.amax, transformer_port's np.tanh and
    # np.random.rand, in the Cells the fixes touch: those stop or change the compile as their
    # own findings say, which does not keep the fixes from being verified.
    shutil.copytree(ROOT / "samples" / "models" / port, tmp_path / port)
    before = cli("check", "--no-cache", "--format", "json", port, cwd=tmp_path)
    safe = {(r["path"], r["symbol"]) for r in json.loads(before.stdout)
            if (r.get("fix") or {}).get("applicability") == "safe"}
    assert safe
    done = cli("check", "--fix", "--confirm", "--no-cache", "--format", "json", "-j", "2", port,
               cwd=tmp_path)
    assert "not applied" not in done.stderr, done.stderr
    assert "verified" in done.stderr
    after = {(r["path"], r["symbol"]) for r in json.loads(done.stdout)}
    assert safe.isdisjoint(after), safe & after


@pytest.mark.parametrize("level", ["lax", "strict"])
def test_the_bundled_torch_port_is_confirmed_finding_by_finding(tmp_path, level):
    # The module does not import (ms_function), the Cell stops at .cuda(), then its sub-Cell has
    # no construct, then .size(0), np.mean and .detach(): each is shown by its own error, with
    # the ones before it rewritten.
    shutil.copytree(ROOT / "samples" / "models" / "torch_port", tmp_path / "torch_port")
    done = cli("check", "--confirm", "--no-cache", "--format", "json", "-j", "2", "torch_port",
               "--syntax-level", level, cwd=tmp_path)
    records = json.loads(done.stdout)
    assert records and {r["confirmation"] for r in records} == {"confirmed"}, [
        (r["symbol"], r["confirmation"], r["evidence"][0]["detail"][:120]) for r in records]
    assert len(records) == 6


@pytest.mark.parametrize("level", ["lax", "strict"])
def test_the_bundled_transformer_port_is_fed_what_its_driver_builds(tmp_path, level):
    # train_step(*random_batch(rng)): the batch a helper builds from module constants; each
    # encoder layer's input has the rank its attention unpacks; eval_step = ms.jit(eval_fn) is
    # called by its alias. At STRICT the attribute EncoderLayer writes stops the classifier's
    # compile first: written to a local name, the findings behind it are reached.
    shutil.copytree(ROOT / "samples" / "models" / "transformer_port", tmp_path / "transformer_port")
    done = cli("check", "--confirm", "--no-cache", "--format", "json", "-j", "2",
               "transformer_port", "--syntax-level", level, cwd=tmp_path)
    records = json.loads(done.stdout)
    assert records and {r["confirmation"] for r in records} == {"confirmed"}, [
        (r["symbol"], r["confirmation"], r["evidence"][0]["detail"][:160]) for r in records]
    frozen = [r for r in records if r["symbol"] in ("clock-frozen", "random-frozen")]
    assert frozen and all(e["kind"] in ("output", "effect", "fallback")
                          for r in frozen for e in r["evidence"])


@pytest.mark.parametrize("level", ["strict", "lax"])
def test_every_bad_samples_findings_are_confirmed_and_good_samples_clean(tmp_path, level):
    # Its confirmation cache is the session's shared verdicts (tests/shared_verdicts.py): a
    # target another test's children ran at this level, with the same spec, is that child's
    # result; the static results' cache is this run's own.
    done = cli("check", "--confirm", "--syntax-level", level, "--format", "json",
               "-j", "2", "samples", cwd=ROOT, env=cli_cache_home(tmp_path / "cache"))
    records = json.loads(done.stdout)
    bad = [r for r in records if r["path"].endswith("_bad.py")]
    good = [r for r in records if r["path"].endswith("_good.py")]
    assert bad and good == []
    assert [(r["path"], r["line"], r["symbol"], r["confirmation"]) for r in bad
            if r["confirmation"] != "confirmed"] == []
    assert all(r["evidence"] for r in bad)
    # Each is confirmed by the consequence its message states: a rejection by the compiler's
    # error, a misbehaviour by its kind of evidence (a zero gradient, a frozen value, a host call
    # run once, a stale read), never by the PyExecute node alone.
    wrong = []
    for record in bad:
        rule = catalogue.rule(record["symbol"])
        verdict = rule.verdict(Level(record["level"]), case=record.get("case", ""))
        kinds = {e["kind"] for e in record["evidence"]}
        details = " ".join(e["detail"] for e in record["evidence"])
        if verdict == Verdict.REJECTED:
            ok = "compile" in kinds or "import" in kinds
        elif verdict == Verdict.MISBEHAVES:
            stated = {rule.evidence, *(case.evidence or rule.evidence for case in rule.cases.values())}
            ok = bool(kinds & stated) or (rule.family == "frozen" and "0 in GRAPH_MODE" in details)
            # A case whose message says the graph may be rejected where the result is used.
            ok = ok or ("where the result is used" in details
                        and any(case.may_reject for case in rule.cases.values()))
            # Rejected at its line because of another finding there that predicts it.
            ok = ok or ("compile" in kinds and any(
                other["line"] == record["line"] and other["path"] == record["path"]
                and catalogue.rule(other["symbol"]).verdict(Level(other["level"])) == Verdict.REJECTED
                for other in bad))
        else:
            ok = bool(kinds & {"compile", "import"})
        if not ok:
            wrong.append((record["path"], record["line"], record["symbol"], sorted(kinds)))
    assert wrong == []


def test_compile_only_asks_whether_it_compiles_and_nothing_more(tmp_path):
    """tools/variants.py's mode for files whose findings claim no misbehaviour: the first
    GRAPH_MODE call only, no PyNative run, no gradient; a rejection is still a rejection."""
    (tmp_path / "net.py").write_text(CELL)
    (tmp_path / "broken.py").write_text(
        "from mindspore import nn\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        "        return x.detach()\n")
    engine = new_engine()
    paths = [tmp_path / "net.py", tmp_path / "broken.py"]
    findings = engine.check_paths(paths).findings
    options = ConfirmOptions(all_targets=True, counterfactuals=False, jobs=2, progress=False,
                             cache_dir=tmp_path / "cache", compile_only=True)
    outcome = confirm_findings(engine, findings, Config(level=Level.LAX), paths, options)
    results = {t.path.name: t.result for t in outcome.targets}
    assert results["net.py"]["status"] == "compiled"
    assert results["net.py"]["evidence"] == [] and results["net.py"]["gradient"] is None
    assert "only the compile" in results["net.py"]["note"]
    assert results["broken.py"]["status"] == "rejected"


def test_a_draw_graph_mode_repeats_once_is_not_a_frozen_value():
    """GRAPH_MODE repeating a draw between two calls while PyNative's change is frozen at
    compile time only when a fresh build repeats too (MindSpore's CPU draws now and then
    repeat once: ops.randn at COMPATIBLE in a CI run)."""
    from msgraphlint.confirm.referee import Observation, compare

    repeated = Observation(True, outputs=(1.5, 1.5))
    drawn, drawn_again = Observation(True, outputs=(1.1, 0.9)), Observation(True, outputs=(0.7, 1.3))
    frozen = [kind for kind, _ in compare(repeated, drawn, drawn_again, repeated)]
    assert frozen == ["output"]
    assert compare(repeated, drawn, drawn_again, Observation(True, outputs=(1.2, 0.8))) == []
    assert [kind for kind, _ in compare(repeated, drawn, drawn_again)] == ["output"]
