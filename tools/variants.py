"""Variants: every rule's samples respelled as real code spells them, each judged by the compiler.

    python tools/variants.py [--levels strict,lax] [--limit N] [--seed S] [--jobs N]
                             [--out DIR] [--cold] [--sources DIR ...]

From every bad and good sample in samples/ (and any other folder of one-file cases given with
--sources) it writes variants, one small standalone file each, by transformations that keep what
the code does and change how it is written:

- ``rename``: the parameters and locals of every function renamed;
- ``import-spelling``: ``from mindspore import ops`` as ``import mindspore.ops as P`` (and nn,
  ``mindspore as ms``), every use renamed;
- ``helper``: each Cell's construct body moved into a module-level function that construct calls
  (``forward(self, x)``), and each jit function's body into a helper it calls;
- ``cell-to-jit``: a Cell that keeps no state becomes a ``@jit`` function;
- ``jit-to-cell``: a ``@jit`` function becomes a Cell whose construct is its body.

Each variant is compiled at each level by the same referee as ``--confirm`` and the compiler
tests (msgraphlint.confirm, in its child processes, results cached by content), and compared
with msgraphlint's static verdict for the file: an error-level finding at the level predicts a
rejection; where neither rejects, each warning's claim must be what the referee observes (its
finding confirmed). The report gives agreement per rule and per transformation, at each level,
and writes the disagreeing variants to ``--out``/disagreements. docs/variants.md says more.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import shutil
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TRANSFORMATIONS: dict[str, callable] = {}


def transformation(name):
    def register(function):
        TRANSFORMATIONS[name] = function
        return function
    return register


@dataclass
class Variant:
    name: str  # the file's stem: v0001_rename__detach_call_bad
    transformation: str
    origin: Path
    rule: str  # the sample's rule symbol ("" for a case of another folder)
    kind: str  # "bad" | "good" | "case"
    text: str


# ----- transformations ------------------------------------------------------------------------

def _is_jit_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name == "jit"


def _jit_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [node for node in tree.body if isinstance(node, ast.FunctionDef)
            and any(_is_jit_decorator(d) for d in node.decorator_list)]


def _cells(tree: ast.Module) -> list[ast.ClassDef]:
    """Module-level classes with a construct method (Cells, as far as the text says)."""
    return [node for node in tree.body if isinstance(node, ast.ClassDef)
            and any(isinstance(m, ast.FunctionDef) and m.name == "construct" for m in node.body)]


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | None:
    return next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == name), None)


def _simple_signature(function: ast.FunctionDef) -> bool:
    args = function.args
    return not (args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs)


def _uses(node: ast.AST, *names: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


@transformation("rename")
def _rename(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    suffix = rng.choice(["_v", "_in", "_2", "_local"])
    keyword_names = {k.arg for n in ast.walk(tree) if isinstance(n, ast.Call) for k in n.keywords}
    changed = False
    for function in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        declared = {name for n in ast.walk(function) if isinstance(n, (ast.Global, ast.Nonlocal))
                    for name in n.names}
        params = [a.arg for a in [*function.args.args, *function.args.kwonlyargs]]
        stored = {n.id for n in ast.walk(function) if isinstance(n, ast.Name)
                  and isinstance(n.ctx, ast.Store)}
        renamed = {name: name + suffix for name in [*params, *stored]
                   if name not in ("self", "cls") and name not in declared
                   and name not in keyword_names}
        if not renamed:
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and node.id in renamed:
                node.id = renamed[node.id]
            elif isinstance(node, ast.arg) and node.arg in renamed:
                node.arg = renamed[node.arg]
        changed = True
    return tree if changed else None


_SPELLINGS = {  # module -> the name a variant imports it as
    "mindspore.ops": "P",
    "mindspore.nn": "mnn",
    "mindspore": "mindspore_",
}


@transformation("import-spelling")
def _import_spelling(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    bound: dict[str, str] = {}  # local name -> module
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.module == "mindspore" \
                and statement.level == 0:
            for alias in statement.names:
                if f"mindspore.{alias.name}" in _SPELLINGS:
                    bound[alias.asname or alias.name] = f"mindspore.{alias.name}"
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.name in _SPELLINGS and (alias.asname or "." not in alias.name):
                    bound[alias.asname or alias.name] = alias.name
    if not bound:
        return None
    chosen = rng.choice(sorted(bound))
    module = bound[chosen]
    alias = _SPELLINGS[module]
    if _uses(tree, alias):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == chosen:
            node.id = alias
    tree.body.insert(_after_docstring(tree), ast.Import(names=[ast.alias(module, alias)]))
    return tree


def _after_docstring(tree: ast.Module) -> int:
    first = tree.body[0] if tree.body else None
    return 1 if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str) else 0


def _moves(body: list[ast.stmt]) -> bool:
    """A body that can run in another function: no super(), no yield, no nonlocal."""
    block = ast.Module(body=body, type_ignores=[])
    return not any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Nonlocal)) for n in ast.walk(block)) \
        and not _uses(block, "super", "__class__")


def _move_body(tree: ast.Module, function: ast.FunctionDef, helper_name: str,
               before: ast.stmt) -> bool:
    """``function``'s body moved into a module-level ``helper_name`` placed before ``before``,
    which ``function`` calls with its own parameters; False when the body cannot move."""
    if not _simple_signature(function) or not _moves(function.body) or function.args.defaults:
        return False
    params = [a.arg for a in function.args.args]
    helper = ast.FunctionDef(name=helper_name, args=function.args, body=function.body,
                             decorator_list=[], returns=None, type_params=[])
    function.body = [ast.Return(ast.Call(func=ast.Name(helper_name, ast.Load()),
                                         args=[ast.Name(p, ast.Load()) for p in params],
                                         keywords=[]))]
    function.args = ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params],
                                  kwonlyargs=[], kw_defaults=[], defaults=[])
    tree.body.insert(tree.body.index(before), helper)
    return True


@transformation("helper")
def _helper(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    changed = False
    for cls in _cells(tree):
        changed |= _move_body(tree, _method(cls, "construct"), f"_{cls.name}_forward", cls)
    for function in _jit_functions(tree):
        changed |= _move_body(tree, function, f"_{function.name}_body", function)
    return tree if changed else None


def _jit_import(tree: ast.Module, name: str) -> None:
    tree.body.insert(_after_docstring(tree), ast.ImportFrom("mindspore", [ast.alias("jit", name)], 0))


@transformation("cell-to-jit")
def _cell_to_jit(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    changed = False
    for cls in _cells(tree):
        construct = _method(cls, "construct")
        init = _method(cls, "__init__")
        stateless = init is None or all(
            isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and _uses(s, "super")
            or isinstance(s, ast.Pass) for s in init.body)
        others = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and m.name not in ("construct", "__init__")]
        if not stateless or others or len(cls.body) > 2 + bool(ast.get_docstring(cls)) \
                or not _simple_signature(construct) or _uses(ast.Module(construct.body, []), "self"):
            continue
        function = ast.FunctionDef(
            name=f"{cls.name.lower()}_fn", args=ast.arguments(
                posonlyargs=[], args=construct.args.args[1:], kwonlyargs=[], kw_defaults=[],
                defaults=construct.args.defaults),
            body=construct.body, decorator_list=[ast.Name("_variant_jit", ast.Load())],
            returns=None, type_params=[])
        tree.body.insert(tree.body.index(cls) + 1, function)
        tree.body.remove(cls)
        changed = True
    if changed:
        _jit_import(tree, "_variant_jit")
    return tree if changed else None


@transformation("jit-to-cell")
def _jit_to_cell(tree: ast.Module, rng: random.Random) -> ast.Module | None:
    changed = False
    for function in _jit_functions(tree):
        if not _simple_signature(function) or not _moves(function.body) \
                or any(isinstance(d, ast.Call) for d in function.decorator_list):
            continue  # jit(fullgraph=...) sets a level a Cell would not have
        construct = ast.FunctionDef(
            name="construct", args=ast.arguments(
                posonlyargs=[], args=[ast.arg("self"), *function.args.args], kwonlyargs=[],
                kw_defaults=[], defaults=function.args.defaults),
            body=function.body, decorator_list=[], returns=None, type_params=[])
        cls = ast.ClassDef(name="".join(p.title() for p in function.name.split("_")) + "Cell",
                           bases=[ast.Attribute(ast.Name("_variant_nn", ast.Load()), "Cell",
                                                ast.Load())],
                           keywords=[], body=[construct], decorator_list=[], type_params=[])
        tree.body[tree.body.index(function)] = cls
        changed = True
    if changed:
        tree.body.insert(_after_docstring(tree),
                         ast.ImportFrom("mindspore", [ast.alias("nn", "_variant_nn")], 0))
    return tree if changed else None


# ----- generation -----------------------------------------------------------------------------

def _sources(extra: list[Path]) -> list[tuple[Path, str, str]]:
    """(path, rule symbol, kind) of every sample, then every case of the extra folders."""
    from msgraphlint.knowledge.catalogue import rules

    found = []
    by_stem = {rule.symbol.replace("-", "_"): rule.symbol for rule in rules()}
    for path in sorted((ROOT / "samples").rglob("*_bad.py")) + sorted((ROOT / "samples").rglob("*_good.py")):
        stem, kind = path.stem.rsplit("_", 1)
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue  # the samples of unreadable input: nothing to respell
        # SAMPLE_INPUTS: inputs the compiler tests give, which --confirm does not read; a
        # graph-compile-error sample is an error no static rule can predict, by definition.
        if stem in by_stem and "SAMPLE_INPUTS" not in text and stem != "graph_compile_error":
            found.append((path, by_stem[stem], kind))
    for folder in extra:
        found.extend((path, "", "case") for path in sorted(folder.glob("*.py")))
    return found


def generate(seed: int, extra: list[Path] = ()) -> list[Variant]:
    """Every transformation that applies to every source, in a fixed order: the same list for
    the same seed and sources."""
    variants: list[Variant] = []
    for path, rule, kind in _sources(list(extra)):
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        for name, function in TRANSFORMATIONS.items():
            rng = random.Random(f"{seed}:{path.name}:{name}")
            try:
                tree = function(ast.parse(text), rng)
            except (SyntaxError, ValueError, RecursionError):
                continue
            if tree is None:
                continue
            ast.fix_missing_locations(tree)
            new = ast.unparse(tree) + "\n"
            if new == ast.unparse(ast.parse(text)) + "\n":
                continue
            stem = f"v{len(variants):04d}_{name.replace('-', '_')}__{path.stem}"
            variants.append(Variant(stem, name, path, rule, kind, new))
    return variants


# ----- judging --------------------------------------------------------------------------------

@dataclass
class Judged:
    variant: Variant
    level: str
    predicted_reject: bool
    rejected: bool | None  # None: no target could be run (nothing to compare)
    unconfirmed: list[str] = field(default_factory=list)  # warnings the referee did not show

    @property
    def agrees(self) -> bool | None:
        if self.rejected is None:
            return None
        return self.predicted_reject == self.rejected and not (
            not self.rejected and self.unconfirmed)


def judge(variants: list[Variant], folder: Path, level_name: str, jobs: int,
          cache_dir: Path) -> list[Judged]:
    from msgraphlint.config import Config
    from msgraphlint.confirm.run import ConfirmOptions, confirm_findings
    from msgraphlint.knowledge.catalogue import Level, Verdict
    from msgraphlint.pipeline import new_engine, select

    level = Level[level_name.upper()]
    config = Config(level=level)
    engine = new_engine()
    paths = [folder / f"{v.name}.py" for v in variants]
    findings = select(engine.check_files(paths).findings, config)
    outcome = confirm_findings(engine, findings, config, paths, ConfirmOptions(
        all_targets=True, counterfactuals=False, jobs=jobs, use_cache=True, progress=None,
        cache_dir=cache_dir))
    by_file: dict[str, list] = defaultdict(list)
    for finding in outcome.findings:
        by_file[Path(finding.path).stem].append(finding)
    targets: dict[str, list] = defaultdict(list)
    for target in outcome.targets:
        targets[target.path.stem].append(target)
    judged = []
    for variant in variants:
        own = [f for f in by_file[variant.name] if not f.suppressed]
        static = [f for f in own if f.rule.symbol != "graph-compile-error"]
        predicted = any(f.rule.verdict(f.level_override or level, "CPU", f.case) == Verdict.REJECTED
                        for f in static)
        results = [t.result for t in targets[variant.name] if t.result is not None
                   and t.result["status"] in ("compiled", "rejected")]
        rejected = any(r["status"] == "rejected" for r in results) if results else None
        unconfirmed = [f.rule.symbol for f in static if f.confirmation not in ("confirmed", None)
                       and f.rule.verdict(level, "CPU", f.case) == Verdict.MISBEHAVES]
        judged.append(Judged(variant, level_name, predicted, rejected, unconfirmed))
    return judged


# ----- report ---------------------------------------------------------------------------------

def _rate(rows: list[Judged]) -> tuple[int, int, float]:
    judged = [r for r in rows if r.agrees is not None]
    agreed = sum(1 for r in judged if r.agrees)
    return agreed, len(judged), agreed / len(judged) if judged else float("nan")


def report(results: list[Judged], seconds: float, count: int) -> str:
    lines = [f"{count} variants, {len(results)} compiled verdicts in {seconds:.0f} s", ""]
    for level in sorted({r.level for r in results}):
        rows = [r for r in results if r.level == level]
        agreed, judged, rate = _rate(rows)
        predicted = [r for r in rows if r.predicted_reject and r.rejected is not None]
        held = sum(1 for r in predicted if r.rejected)
        lines.append(f"{level.upper()}: agreement {agreed}/{judged} = {rate:.3f};"
                     f" predicted to fail and failed {held}/{len(predicted)}"
                     f"; not compiled {len(rows) - judged}")
        lines.append("")
        lines.append("| transformation | agreed | judged | agreement |")
        lines.append("|---|---:|---:|---:|")
        for name in TRANSFORMATIONS:
            a, j, r = _rate([x for x in rows if x.variant.transformation == name])
            if j:
                lines.append(f"| {name} | {a} | {j} | {r:.3f} |")
        lines.append("")
        lines.append("| rule | agreed | judged | agreement |")
        lines.append("|---|---:|---:|---:|")
        for rule in sorted({r.variant.rule for r in rows}):
            a, j, r = _rate([x for x in rows if x.variant.rule == rule])
            if j and r < 1.0:
                lines.append(f"| {rule or '(cases)'} | {a} | {j} | {r:.3f} |")
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="strict,lax")
    parser.add_argument("--limit", type=int, default=0, help="only the first N variants")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("build/variants"))
    parser.add_argument("--cold", action="store_true", help="start from an empty result cache")
    parser.add_argument("--sources", type=Path, nargs="*", default=[])
    args = parser.parse_args(argv)

    variants = generate(args.seed, args.sources)
    if args.limit:
        variants = variants[:args.limit]
    folder = args.out / "files"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for variant in variants:
        (folder / f"{variant.name}.py").write_text(variant.text, "utf-8")
    cache_dir = args.out / "cache"
    if args.cold:
        shutil.rmtree(cache_dir, ignore_errors=True)
    started = time.perf_counter()
    results: list[Judged] = []
    for level in args.levels.split(","):
        results.extend(judge(variants, folder, level.strip(), args.jobs, cache_dir))
    seconds = time.perf_counter() - started
    text = report(results, seconds, len(variants))
    disagreements = args.out / "disagreements"
    shutil.rmtree(disagreements, ignore_errors=True)
    disagreements.mkdir(parents=True)
    for row in results:
        if row.agrees is False:
            why = (f"# {row.level}: msgraphlint predicts {'a rejection' if row.predicted_reject else 'no rejection'},"
                   f" MindSpore {'rejects' if row.rejected else 'compiles'}"
                   + (f"; warnings not shown by the referee: {', '.join(row.unconfirmed)}"
                      if row.unconfirmed else "")
                   + f"\n# from {row.variant.origin.relative_to(ROOT) if row.variant.origin.is_relative_to(ROOT) else row.variant.origin}"
                     f" by {row.variant.transformation}\n")
            (disagreements / f"{row.level}_{row.variant.name}.py").write_text(why + row.variant.text)
    (args.out / "report.md").write_text(text + "\n")
    (args.out / "results.json").write_text(json.dumps([
        {"variant": r.variant.name, "transformation": r.variant.transformation,
         "rule": r.variant.rule, "kind": r.variant.kind, "level": r.level,
         "predicted_reject": r.predicted_reject, "rejected": r.rejected,
         "unconfirmed": r.unconfirmed, "agrees": r.agrees} for r in results], indent=1))
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
