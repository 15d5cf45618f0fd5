"""How compile errors no finding explains become graph-compile-error findings (confirm/match.py),
without MindSpore: the targets carry the results a child would give."""

from __future__ import annotations

from pathlib import Path

from msgraphlint.confirm.match import annotate
from msgraphlint.confirm.plan import ConfirmTarget
from msgraphlint.knowledge.catalogue import Level

ERROR = "RuntimeError: For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2]"


class Planned:
    """What annotate reads of a Planner: its targets."""

    def __init__(self, targets):
        self.targets = {(t.label,): t for t in targets}

    def for_finding(self, finding):
        return None


def rejected(label: str, path: Path, guessed: int) -> ConfirmTarget:
    target = ConfirmTarget(f"net.py::{label}", label, "cell", label, path, Level.LAX, False,
                           inputs=("float32[2,2]",), guessed_inputs=guessed)
    target.result = {"status": "rejected", "error": ERROR, "primary": [str(path), 7, 4],
                     "locations": [[str(path), 7, 4]], "level": Level.LAX.value}
    return target


def test_an_error_on_guessed_inputs_is_unverified_and_names_the_guess(tmp_path):
    (finding,) = annotate([], Planned([rejected("Net", tmp_path / "net.py", 1)]), "CPU")
    assert finding.rule.symbol == "graph-compile-error"
    assert finding.confirmation == "unverified"
    assert "with inputs msgraphlint guessed (float32[2,2])" in finding.message
    assert any(kind == "reason" and "[tool.msgraphlint.confirm.targets]" in detail
               for kind, detail in finding.evidence)


def test_the_same_error_reached_with_shown_inputs_is_confirmed_with_both_evidences(tmp_path):
    path = tmp_path / "net.py"
    (finding,) = annotate([], Planned([rejected("Guessed", path, 1), rejected("Shown", path, 0)]),
                          "CPU")
    assert finding.confirmation == "confirmed"
    assert "guessed" not in finding.message
    compiled = [detail for kind, detail in finding.evidence if kind == "compile"]
    assert len(compiled) == 2 and any("Guessed" in d for d in compiled) \
        and any("Shown" in d for d in compiled)
    assert not any(kind == "reason" for kind, _ in finding.evidence)
