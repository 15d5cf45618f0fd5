"""``--fix --confirm``: a fixed file is written only when MindSpore accepts what the fixes made.

The project is copied to a scratch folder with the fixed texts in place, and every Cell and jit
function of each fixed file, and of the files importing it, whose compiled code touches the fixed
file is compiled at the run's level on its device (in the child processes of ``--confirm``) and
compared with PyNative by the referee. A file's fixes are verified when each such target compiles
and matches; otherwise none of them is applied, and the compiler's reason is given. A file
without such a target cannot be verified, and is left as it was too.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..confirm.scratch import scratch_copy


@dataclass
class Verdict:
    verified: bool
    detail: str  # what MindSpore did: "2 targets compile at LAX and match PyNative", or why not


def verify(new_texts: dict[Path, str], config, jobs: int | None, progress: bool | None,
           make_engine) -> dict[Path, Verdict]:
    """Each fixed file's verdict. ``make_engine`` builds the engine for the scratch copy (the
    pipeline's, so that this stage needs nothing above it)."""
    from ..confirm.run import ConfirmOptions, confirm_findings

    with tempfile.TemporaryDirectory(prefix="msgraphlint-fix-") as scratch:
        copies = scratch_copy(new_texts, Path(scratch))
        engine = make_engine()
        files = set(copies.values())
        for copy in copies.values():
            engine.project.add_project_of(copy)
            files.update(engine.project.importers_of(copy))
        outcome = confirm_findings(engine, [], config, sorted(files),
                                   ConfirmOptions(all_targets=True, jobs=jobs or 0,
                                                  use_cache=False, progress=progress))
        verdicts = {}
        for original, copy in copies.items():
            touching = [t for t in outcome.targets if t.result is not None and t.kind != "module"
                        and any(_same(path, copy) for path, _, _ in t.functions)]
            verdicts[original] = _judge(touching, config)
        return verdicts


def _same(a, b) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def _judge(targets, config) -> Verdict:
    where = f"at {config.level.name} on {config.device}"
    if not targets:
        return Verdict(False, "no Cell or jit function compiles this file's code on its own")
    for target in targets:
        result = target.result
        if result["status"] == "rejected":
            return Verdict(False, f"MindSpore rejects {target.label} {where}: {result.get('error')}")
        if result["status"] != "compiled":
            return Verdict(False, f"{target.label} could not be compiled on its own:"
                                  f" {result.get('reason') or 'no answer from MindSpore'}")
        if result.get("evidence"):
            details = "; ".join(detail for _, detail in result["evidence"])
            return Verdict(False, f"{target.label} compiles {where} but {details}")
    count = len(targets)
    return Verdict(True, f"{count} target{'s' * (count != 1)} compile {where} and match PyNative")
