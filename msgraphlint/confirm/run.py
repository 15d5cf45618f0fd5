"""``msgraphlint check --confirm``: static findings in, findings with MindSpore's evidence out.

The only entry point the CLI needs (:func:`confirm_findings`). It plans the targets from the
engine's scope model, answers what it can from the cache, runs the rest in child processes
(msgraphlint.confirm.pool) and annotates the findings (msgraphlint.confirm.match). Importing
this module imports neither MindSpore nor user code.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ..engine.findings import Finding
from ..progress import ProgressBar
from .cache import Cache
from .counterfactual import confirm_past_the_error
from .match import STATUSES, annotate
from .plan import ConfirmTarget, Planner, import_spec
from .pool import INSTALL_HINT, ChildPool, MindSporeMissing, RunStats

__all__ = ["ConfirmOptions", "ConfirmOutcome", "MindSporeMissing", "INSTALL_HINT",
           "confirm_findings"]


@dataclass(frozen=True)
class ConfirmOptions:
    all_targets: bool = False  # every compiled target, not only those with findings
    # findings whose target fails with an error naming no line: compile it again with each one's
    # rewrite applied (confirm/counterfactual.py)
    counterfactuals: bool = True
    jobs: int = 0  # children at once; 0: every core
    use_cache: bool = True
    progress: bool | None = None  # None: a progress bar when stderr is a terminal
    cache_dir: Path | None = None  # None: msgraphlint.confirm.cache.cache_dir()
    # Only whether each target compiles (tools/variants.py, for files whose findings claim no
    # misbehaviour): the first GRAPH_MODE call, nothing compared with PyNative.
    compile_only: bool = False


@dataclass
class ConfirmOutcome:
    findings: list[Finding]
    stats: RunStats
    targets: list[ConfirmTarget]

    def summary(self, device: str) -> str:
        counts = Counter(f.confirmation for f in self.findings if f.confirmation)
        statuses = ", ".join(f"{counts[s]} {s.replace('-', ' ')}" for s in STATUSES)
        stats = self.stats
        count = len(self.targets)
        return (
            f"Confirmation with MindSpore {stats.mindspore or '?'} on {device}: {statuses};"
            f" {count} target{'s' * (count != 1)} ({stats.compiled} compiled, {stats.cached}"
            f" cached, {stats.unverified} unverified) in {stats.seconds:.1f} s."
        )


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def confirm_findings(engine, findings: list[Finding], config, files: Iterable[Path],
                     options: ConfirmOptions = ConfirmOptions()) -> ConfirmOutcome:
    """Raises MindSporeMissing when MindSpore cannot be imported (the CLI exits 2)."""
    base = config.source.parent if config.source is not None else Path.cwd()
    planner = Planner(engine.model, config.confirm, config.level, base)
    modules = {}
    active = [f for f in findings if not f.suppressed]
    wanted = list(files) if options.all_targets else [
        f.target_path if f.target_path is not None else f.path for f in active
    ]
    for path in wanted:
        real = os.path.realpath(path)
        if real not in modules:
            modules[real] = engine.project.module(Path(path))
    for real in sorted(modules):
        if modules[real] is not None:
            planner.add_module(modules[real])
    if options.all_targets:
        # Findings of other files (a fix's verification is given the whole project's) are
        # confirmed where a planned Cell compiles their sub-Cell.
        planner.attach_held()
    for finding in active:
        planner.add_finding(finding, modules.get(os.path.realpath(finding.path)))
    if options.all_targets:
        chosen = list(planner.targets.values())
    else:
        chosen = []
        for finding in findings:
            target = planner.for_finding(finding) if not finding.suppressed else None
            if target is not None and target not in chosen:
                chosen.append(target)
    chosen.sort(key=lambda t: (str(t.path), t.roots[0].node.lineno if t.roots else 0, t.attr))
    for target in chosen:
        target.compile_only = options.compile_only
    specs = {path: import_spec(path) for path in {target.path for target in chosen}}
    # Shown at once (delay 0): every target takes a compile, so the run is never a moment.
    with ProgressBar("confirming with MindSpore", len(chosen), options.progress, delay=0) as bar:
        runner = ChildPool(config.device, options.jobs or default_jobs(), config.confirm.timeout,
                           config.confirm.memory_limit_mb, Cache(options.cache_dir, options.use_cache),
                           bar.advance, config.confirm.import_timeout, config.confirm.pass_env)
        stats = runner.run(chosen, specs)
    annotated = annotate(findings, planner, config.device)
    if options.counterfactuals:
        inner = replace(options, all_targets=True, use_cache=False, progress=False,
                        counterfactuals=False)
        annotated = confirm_past_the_error(
            engine, annotated, planner, config,
            lambda scratch_engine, files, static: confirm_findings(scratch_engine, static, config,
                                                                   files, inner))
    # graph-compile-error findings answer to --ignore like any rule (not to --select: an error
    # the compiler found is shown whatever static families were chosen).
    annotated = [f for f in annotated if f.rule_id not in config.ignore]
    return ConfirmOutcome(annotated, stats, chosen)
