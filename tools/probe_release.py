"""Compile every sample's targets with the MindSpore this Python has, at LAX and STRICT, the way
the compiler tests judge them (the referee), and write the verdicts as JSON; or compare two such
files. A cheap probe of whether the catalogue's verdicts, seen with 2.10, hold on another release:

    PYTHONPATH=. ~/venvs/mindspore-2.7/bin/python tools/probe_release.py > ms27.json
    PYTHONPATH=. .venv/bin/python tools/probe_release.py > ms210.json
    python tools/probe_release.py --compare ms210.json ms27.json

Differences go into the rule's ``other_releases`` in the catalogue (or, for an API that moved, are
the API snapshots' business: mindspore-call-mismatch's history)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED_FOLDERS = ("models", "input", "compiler")  # whole programs, imports, the compiler's own


def probe(pattern: str) -> dict[str, str]:
    from msgraphlint.confirm.plan import Planner
    from msgraphlint.confirm.referee import judge, load_module
    from msgraphlint.confirm_settings import ConfirmSettings
    from msgraphlint.knowledge.catalogue import Level
    from msgraphlint.model.reach import ReachModel
    from msgraphlint.syntax.project import Project

    verdicts: dict[str, str] = {}
    for path in sorted((ROOT / "samples").glob(pattern)):
        if path.parent.name in SKIPPED_FOLDERS:
            continue
        name = str(path.relative_to(ROOT))
        try:
            module = load_module(path)
        except Exception as error:  # noqa: BLE001 - a sample this release cannot import
            verdicts[name] = f"import fails: {type(error).__name__}"
            continue
        inputs = getattr(module, "SAMPLE_INPUTS", None)
        settings = ConfirmSettings(inputs=tuple(inputs)) if inputs else ConfirmSettings()
        for level in (Level.LAX, Level.STRICT):
            project = Project()
            planner = Planner(ReachModel(project), settings, level, ROOT)
            planner.add_module(project.module(path))
            for target in planner.targets.values():
                if target.kind == "module" or target.reason is not None:
                    continue
                key = f"{name}::{target.label}@{target.level.value}"
                try:
                    verdicts[key] = judge(module, target.spec).verdict.value
                except Exception as error:  # noqa: BLE001 - reported, not fatal
                    verdicts[key] = f"error {type(error).__name__}"
    return verdicts


def compare(first: Path, second: Path) -> int:
    a, b = (json.loads(path.read_text("utf-8")) for path in (first, second))
    differing = sorted(key for key in a.keys() | b.keys() if a.get(key) != b.get(key))
    for key in differing:
        print(f"{key}: {a.get(key)} -> {b.get(key)}")
    print(f"{len(differing)} of {len(a.keys() | b.keys())} targets differ", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", default="*/*.py", help="glob below samples/")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    options = parser.parse_args()
    if options.compare:
        return compare(*options.compare)
    sys.path.insert(0, str(ROOT))
    json.dump(probe(options.samples), sys.stdout, indent=0, sort_keys=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
