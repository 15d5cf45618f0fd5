"""Extract the error messages of MindSpore's graph front end into msgraphlint's coverage map.

Run it with a Python that has MindSpore installed (it never imports MindSpore: it finds the
installed package and reads its files):

    .venv/bin/python tools/frontend_errors.py            # update the data file for that release
    .venv/bin/python tools/frontend_errors.py --check    # exit 1 if a message is missing from it
    /work/venvs/ms29/bin/python tools/frontend_errors.py # the same for another release

Two sources:

- The Python parse layer of the wheel (``mindspore/_extends/parse``, ``mindspore/graph/_parse``,
  ``mindspore/graph/_utils`` and ``mindspore/ops/composite`` with its ``multitype_ops``): every
  ``raise X(<message>)`` and every call of the ``raise_*_error(<message>)`` helpers of
  ``_constexpr_utils``, whose message is a string, an f-string, a ``+`` of them, ``%`` or
  ``.format`` on one. The holes of the message become ``*``. Messages built elsewhere (a variable,
  ``validator.check_*``) are not seen: their text is not in the code that raises them.
- The C++ front end, from the strings of the shared libraries (a ``strings``-like scan of
  printable runs). The C++ compiler keeps each message as the literal pieces between ``<<``, so an
  entry is one piece ("Unsupported statement '"), matched by "the message contains it". MindSpore
  logs with the source file's path (``FILE_NAME``), and the linker keeps each object file's
  strings together, so a piece is attributed to the nearest ``.cc`` path before it in the
  library. That is a guess, not a fact: an object file's path string can sit anywhere in its block
  of strings, so a piece near the border of two blocks goes to the neighbour (the SliceMember
  messages of ``operator/composite/composite.cc`` are attributed to ``cc_implementations.cc``,
  which comes just before it; the jit-forbidden API message, "Failed to compile in GRAPH_MODE
  because the ... is not supported in 'construct'", to ``load_mindir.cc``, which is scanned for
  that reason). The category follows the directory, which neighbours usually
  share; MindSpore's source is the authority for the exact file. Only pieces attributed to the
  front end's files are kept (``CPP_FILES``, less ``CPP_SKIP_FILES``) and only those that read as
  a message (``looks_like_message``): at least three words and 15 characters, a phrase of an error
  (``MESSAGE_PHRASES``), not a debug line by its look (``DEBUG_MARKERS``), not libstdc++'s or
  pybind11's own texts. The strings do not say whether a piece is raised (``MS_EXCEPTION``,
  ``MS_LOG(EXCEPTION)``) or only logged (``MS_LOG(DEBUG)``, ``MS_LOG(WARNING)``): the few known
  log lines are mapped as ``internal`` with a note. The messages live in
  ``lib/libmindspore_frontend.so`` and ``lib/libmindspore_core.so`` (the abstract values' joins
  and the binding of call arguments); ``_c_expression*.so`` only binds them to Python, and is
  scanned too. What the scan misses: a message whose every piece lacks an error phrase (it has
  to be added to ``MESSAGE_PHRASES``), and messages of the operators' own infer functions
  (``libmindspore_ops.so``), which are not the front end's.

The data file (``msgraphlint/knowledge/data/frontend_errors.toml``) keeps the fields written by
hand (``rules``, ``reason``, ``note``, ``category``, ``levels``) of every entry that is already in
it; the tool only adds entries, records the releases that have each message and drops an entry no
release has any more. It prints what it added and removed, so a new release shows what is new.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.metadata
import importlib.util
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "msgraphlint" / "knowledge" / "data" / "frontend_errors.toml"

sys.path.insert(0, str(ROOT))  # the tables below, without installing msgraphlint
from msgraphlint.knowledge.frontend_errors import CATEGORIES, LEVELS  # noqa: E402

HAND_FIELDS = ("category", "levels", "rules", "reason", "note")

# --- the Python layer ---------------------------------------------------------------------------

PY_DIRS = ("_extends/parse", "graph/_parse", "graph/_utils", "ops/composite")
PY_SKIP = ("deprecated_tensor_method.py", "third_party_modules.py", "_pijit", "pijit_context.py",
           "mindir_util.py")
RAISE_HELPERS = {"raise_value_error": "ValueError", "raise_index_error": "IndexError",
                 "raise_type_error": "TypeError", "raise_unimplemented_error": "NotImplementedError"}


def _pattern(node: ast.AST) -> str | None:
    """The message an expression builds, holes as '*'; None when it is not built from a string."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                parts.append("*")
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _pattern(node.left), _pattern(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else "*") + (right if right is not None else "*")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = _pattern(node.left)
        return None if left is None else re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdrfgixXe]", "*", left)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"):
        base = _pattern(node.func.value)
        return None if base is None else re.sub(r"\{[^{}]*\}", "*", base)
    return None


def _normal(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"\*(\s*\*)+", "*", text)


def _level_guard(stack: list[ast.AST], node: ast.AST) -> list[str]:
    """The levels at which a raise is reached, from the syntax-level tests of the ifs around it."""
    levels = set(LEVELS)
    for parent, child in zip(stack, stack[1:] + [node]):
        if not isinstance(parent, ast.If):
            continue
        test = ast.unparse(parent.test)
        if not re.search(r"strict|lax|syntax_level|allow_fallback|COMPATIBLE", test, re.I):
            continue
        in_body = any(child is n for n in parent.body)
        negated = test.lstrip().startswith("not ")
        positive = in_body != negated
        if re.search(r"is_strict|strict", test, re.I) and not re.search(r"lax", test, re.I):
            want = {"strict"} if positive else {"compatible", "lax"}
            if "!=" in test:
                want = set(LEVELS) - want
        elif re.search(r"lax|allow_fallback", test, re.I):
            want = {"lax"} if positive else {"strict", "compatible"}
            if "!=" in test:
                want = set(LEVELS) - want
        else:
            continue
        levels &= want
    return [level for level in LEVELS if level in levels]


class _Raises(ast.NodeVisitor):
    def __init__(self, where: str):
        self.where = where
        self.stack: list[ast.AST] = []
        self.functions: list[str] = []
        self.found: list[dict] = []

    def generic_visit(self, node):
        self.stack.append(node)
        super().generic_visit(node)
        self.stack.pop()

    def visit_FunctionDef(self, node):
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    def _add(self, node, exc_type: str, message_node):
        message = _pattern(message_node)
        if message is None or not re.search(r"[A-Za-z]{3}", message):
            return
        self.found.append({
            "message": _normal(message), "type": exc_type,
            "where": f"{self.where}:{'.'.join(self.functions) or '<module>'}",
            "levels": _level_guard(self.stack, node),
        })

    def visit_Raise(self, node):
        exc = node.exc
        if isinstance(exc, ast.Call) and exc.args:
            func = exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name.endswith(("Error", "Exception", "Warning")):
                self._add(node, name, exc.args[0])
        self.generic_visit(node)

    def visit_Call(self, node):
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if name in RAISE_HELPERS and node.args:
            self._add(node, RAISE_HELPERS[name], node.args[0])
        self.generic_visit(node)


def python_messages(package: Path) -> list[dict]:
    found = []
    for folder in PY_DIRS:
        for path in sorted((package / folder).rglob("*.py")):
            rel = path.relative_to(package.parent).as_posix()
            if any(skip in rel for skip in PY_SKIP):
                continue
            visitor = _Raises(rel)
            visitor.visit(ast.parse(path.read_text("utf-8"), rel))
            found += visitor.found
    for entry in found:
        entry["source"] = "python"
    return found


# --- the C++ front end --------------------------------------------------------------------------

LIBRARIES = ("lib/libmindspore_frontend.so", "lib/libmindspore_core.so", "lib/libmindspore_common.so",
             "_c_expression*.so")
# The front end's files (paths below mindspore/, older releases spell pipeline/jit for
# frontend/jit). Pipeline actions, executors, caches, parallel, PIJit and the backend are not the
# graph syntax's front end.
CPP_FILES = re.compile(
    r"(frontend|pipeline)/jit/(ps/)?(parse/|static_analysis/|fallback\.cc|validator\.cc|load_mindir\.cc)"
    r"|frontend/operator/(composite/|cc_implementations\.cc|ops_front_infer_function\.cc)"
    r"|utils/operator/primitive_utils\.cc"
    r"|frontend/optimizer/fallback_rewriter\.cc"
    r"|core/abstract/(abstract_value|abstract_join|abstract_function)\.cc"
    r"|core/ir/func_graph_extends\.cc")
CPP_SKIP_FILES = re.compile(r"parameter_forward_hook|custom_infer_registry|auto_monad|"
                            r"async_eval_result|stack_frame|order_enforce|event_method|vmap")
MESSAGE_PHRASES = re.compile(
    r"not support|[Uu]nsupport|[Cc]annot|[Cc]an not|should be|should not|must be|must have|"
    r"Multiply values|JIT strict mode|is not defined|not allowed|[Ii]nvalid|[Ee]xpect|but got|"
    r"[Oo]nly support|not callable|has no attribute|out of range|requires|[Nn]o active|"
    r"JIT_SYNTAX_LEVEL|jit_syntax_level|[Ff]ailed to|is not an? |[Dd]o not support|"
    r"does not support|inconsistent|mismatch|at least|at most|not found|is not|"
    r"[Uu]nexpected|not be|can only|[Bb]ut got|[Ii]llegal|Join Failed|number of provided|Miss argument|Failed calling")
DEBUG_MARKERS = re.compile(
    r"^(Start|End|Begin|Finish|Process|Parse ast|Resolve |Get |Set |Add |Found |Record |Skip )"
    r"|node:$|debug|\bfg:|func_graph:?$|->|\bptr\b|nullptr|\[\w+\] |CNode|ValueNode|FuncGraph\b|"
    r"regex|brace expression|bracket expression|character class|collate element|"
    r"equivalence class|back-reference|escape character|after a dash|open parenthesis|max_size\(\)|"
    r"generic_type:|kw_only\(\)")


def _strings(data: bytes, least: int = 6):
    for match in re.finditer(rb"[\x20-\x7e\t]{%d,}" % least, data):
        yield match.group().decode("ascii")


# Pieces too short for the three-word test that open a message users see.
SHORT_MESSAGES = {"Failed calling"}


def looks_like_message(text: str) -> bool:
    if text.strip() in SHORT_MESSAGES:
        return True
    words = text.split()
    return (len(words) >= 3 and len(text.strip()) >= 15 and bool(MESSAGE_PHRASES.search(text))
            and not DEBUG_MARKERS.search(text.strip()))


def cpp_messages(package: Path) -> list[dict]:
    """The message pieces of the front end's files, each with the file it is attributed to."""
    found: dict[str, dict] = {}
    for pattern in LIBRARIES:
        for library in sorted(package.glob(pattern)):
            current = None
            for text in _strings(library.read_bytes()):
                if text.endswith(".cc") and "/mindspore/" in text:
                    current = text.split("/mindspore/mindspore/")[-1].split("/mindspore/")[-1]
                    continue
                if (current is None or not CPP_FILES.search(current)
                        or CPP_SKIP_FILES.search(current) or not looks_like_message(text)):
                    continue
                message = _normal(text)
                found.setdefault(message, {
                    "message": message, "type": "", "where": current, "levels": list(LEVELS),
                    "source": "c++"})
    return list(found.values())


# --- deriving what the hand does not write ------------------------------------------------------

SEQUENCE_WORDS = re.compile(r"\b(list|tuple|dict|str|string|sequence|index|slice|pop|insert|"
                            r"append|extend|key|getitem|setitem)\b", re.I)


def derive_levels(entry: dict) -> list[str]:
    message = entry["message"]
    if "JIT_SYNTAX_LEVEL is STRICT" in message:
        return ["strict"]
    if re.search(r"JIT strict mode|set jit_syntax_level to LAX|JIT_SYNTAX_LEVEL is not set to LAX|"
                 r"MS_DEV_JIT_SYNTAX_LEVEL'\] = '2'", message):
        return ["strict", "compatible"]
    return entry["levels"]


def derive_category(entry: dict) -> str:
    where, message = entry["where"], entry["message"]
    if re.search(r"fallback", where) or "fallen back" in message:
        return "fallback"
    if re.search(r"attribute|getattr|setattr|hasattr", message, re.I):
        return "attribute-access"
    if re.search(r"list_operation|dict_operation|starred|tensor_index|zip_operation|unpack_call|"
                 r"_compile_utils|_constexpr_utils|getitem_impl|setitem_impl", where):
        return "sequence-dict-str"
    if re.search(r"composite|cc_implementations|standard_method|trope|builtin", where):
        return ("sequence-dict-str"
                if "standard_method" in where and SEQUENCE_WORDS.search(message)
                else "builtins-composite")
    if re.search(r"static_analysis|core/abstract|func_graph_extends|validator", where):
        return "static-analysis"
    return "parse-resolve"


def entry_id(entry: dict) -> str:
    key = f"{entry['source']}|{entry['type']}|{entry['message']}"
    return "FE" + hashlib.sha1(key.encode()).hexdigest()[:8]


def extract(package: Path) -> list[dict]:
    entries = {}
    for entry in python_messages(package) + cpp_messages(package):
        entry["id"] = entry_id(entry)
        entry["levels"] = derive_levels(entry)
        entry["category"] = derive_category(entry)
        if entry["id"] in entries:  # the same message raised twice: keep the first place, widen levels
            kept = entries[entry["id"]]
            kept["levels"] = [lv for lv in LEVELS if lv in kept["levels"] or lv in entry["levels"]]
            continue
        entries[entry["id"]] = entry
    return sorted(entries.values(), key=lambda e: e["id"])


# --- the data file ------------------------------------------------------------------------------

def _release_key(release: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", release))


def load(path: Path = DATA) -> dict:
    if not path.exists():
        return {"message": []}
    return tomllib.loads(path.read_text("utf-8"))


def _toml_str(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def _toml_value(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return _toml_str(str(value))


FIELD_ORDER = ("id", "message", "type", "source", "where", "category", "levels", "releases",
               "rules", "reason", "note")


def dump(data: dict) -> str:
    lines = [
        "# Every user-facing error message of MindSpore's graph front end, mapped to the rules that",
        "# predict it or the reason none can. Written by tools/frontend_errors.py (run it with a",
        "# Python that has MindSpore); rules, reason, note, category and levels are written by hand",
        "# and kept when the tool runs again. docs/frontend-errors.md is generated from this file.",
        "",
    ]
    for entry in data["message"]:
        lines.append("[[message]]")
        for field in FIELD_ORDER:
            if entry.get(field) not in ("", None, []):
                lines.append(f"{field} = {_toml_value(entry[field])}")
        lines.append("")
    return "\n".join(lines)


def merge(data: dict, found: list[dict], release: str) -> tuple[dict, list[dict], list[dict]]:
    """The data with this release's messages: (new data, added entries, entries dropped)."""
    by_id = {entry["id"]: dict(entry) for entry in data.get("message", [])}
    found_ids = {entry["id"] for entry in found}
    added = []
    for entry in found:
        kept = by_id.get(entry["id"])
        releases = set(kept.get("releases", [])) if kept else set()
        releases.add(release)
        fresh = {k: entry[k] for k in ("id", "message", "type", "source", "where")}
        if kept is None:
            fresh.update(category=entry["category"], levels=entry["levels"])
            added.append(fresh)
        else:
            newest = max(kept.get("releases", []) or [release], key=_release_key)
            if _release_key(release) < _release_key(newest):
                fresh["where"] = kept["where"]  # where the newest release raises it
            fresh.update({k: kept[k] for k in HAND_FIELDS if k in kept})
        fresh["releases"] = sorted(releases, key=_release_key)
        by_id[entry["id"]] = fresh
    removed = []
    for entry_id_, entry in list(by_id.items()):
        if entry_id_ in found_ids:
            continue
        releases = [r for r in entry.get("releases", []) if r != release]
        if releases:
            entry["releases"] = releases
        else:
            removed.append(by_id.pop(entry_id_))
    ordered = sorted(by_id.values(), key=lambda e: (list(CATEGORIES).index(e["category"]),
                                                     e["source"] != "python", e["where"],
                                                     e["message"]))
    return {"message": ordered}, added, removed


def installed() -> tuple[Path, str]:
    spec = importlib.util.find_spec("mindspore")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("MindSpore is not installed for this Python")
    version = importlib.metadata.version("mindspore")
    return Path(list(spec.submodule_search_locations)[0]), ".".join(version.split(".")[:2])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a message of this MindSpore is missing from the"
                        " data, or the data holds one for this release that it no longer has")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)
    package, release = installed()
    found = extract(package)
    data = load(args.data)
    new, added, removed = merge(data, found, release)
    sources = {s: sum(e["source"] == s for e in found) for s in ("python", "c++")}
    print(f"MindSpore {release}: {len(found)} messages"
          f" ({sources['python']} Python, {sources['c++']} C++)")
    if args.check:
        known = {e["id"]: e for e in data.get("message", []) if release in e.get("releases", [])}
        found_ids = {e["id"] for e in found}
        missing = [e for e in found if e["id"] not in known]
        stale = [e for entry_id_, e in known.items() if entry_id_ not in found_ids]
        for entry in missing:
            print(f"missing: {entry['id']} {entry['where']}: {entry['message']}")
        for entry in stale:
            print(f"not found any more: {entry['id']} {entry['where']}: {entry['message']}")
        return 1 if missing or stale else 0
    for entry in added:
        print(f"added: {entry['id']} {entry['where']}: {entry['message']}")
    for entry in removed:
        print(f"removed: {entry['id']} {entry['where']}: {entry['message']}")
    args.data.write_text(dump(new), "utf-8")
    print(f"wrote {args.data}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
