"""The per-file result cache: an unchanged file is not analysed again.

A file's findings depend on more than its own text: on its base classes in other files, on the
helpers it calls and on the Cells in other files that call its functions. While a file is checked,
the project records every answer's reads (``ReadLog``): the files it parsed (with their content
digest), the dotted module names it looked up (and where they were found, or not), and the
importer queries it made. An entry is used only while all of those still give the same answer, so
editing a base class in another file, adding a module that shadows a lookup, or adding a file that
imports this one and compiles its helpers all make it a miss.

The cache is keyed by the tool's own code (version and the digest of its package files) and the
project's roots; settings that only filter findings (select, ignore, level) are applied after it.

Location: ``$MSGRAPHLINT_CACHE_DIR/static``, else ``$XDG_CACHE_HOME/msgraphlint/static``, else
``~/.cache/msgraphlint/static``. A damaged or unreadable cache is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import tempfile
from dataclasses import asdict, fields
from functools import cache
from pathlib import Path

from ..version import __version__
from ..knowledge import catalogue
from ..knowledge.catalogue import Level
from .findings import Edit, Finding, Fix
from ..syntax.project import Project, outermost, walk_python_files
from ..syntax.source import content_digest

FORMAT_VERSION = 4


def cache_home() -> Path:
    """Where msgraphlint keeps its caches (static results, confirmations)."""
    if explicit := os.environ.get("MSGRAPHLINT_CACHE_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "msgraphlint"


@cache
def tool_fingerprint() -> str:
    """The version and the digest of every source and rule file of the installed tool: a
    development checkout invalidates the cache when its code changes, not only on release."""
    # Where the rule families are installed (checkers/ in a checkout), without importing them.
    families = Path(importlib.util.find_spec("msgraphlint.checkers").origin).parent
    digest = hashlib.sha256(f"{FORMAT_VERSION}:{__version__}".encode())
    for package in (Path(__file__).parents[1], families):  # the whole msgraphlint package
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".toml", ".json") and "__pycache__" not in path.parts:
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def finding_record(finding: Finding) -> dict:
    record = asdict(finding)
    if (fix := record["fix"]) is not None:  # kept: a re-run then parses no file for its fixes
        fix["edits"] = [{**edit, "path": str(edit["path"])} for edit in fix["edits"]]
    for key in ("path", "target_path"):
        record[key] = str(record[key]) if record[key] is not None else None
    record["level_override"] = finding.level_override.value if finding.level_override else None
    record["args"] = [str(arg) for arg in finding.args]
    return record


def finding_from(record: dict) -> Finding:
    values = {f.name: record[f.name] for f in fields(Finding)}
    values["path"] = Path(values["path"])
    if values["target_path"] is not None:
        values["target_path"] = Path(values["target_path"])
    if values["level_override"] is not None:
        values["level_override"] = Level(values["level_override"])
    values["args"] = tuple(values["args"])
    values["evidence"] = tuple(tuple(pair) for pair in values["evidence"])
    if (fix := values["fix"]) is not None:
        values["fix"] = Fix(fix["applicability"], fix["description"], tuple(
            Edit(**{**edit, "path": Path(edit["path"])}) for edit in fix["edits"]))
    return Finding(**values)


class ResultCache:
    """Entries for one project (its roots) and one build of the tool, in one JSON file.

    Reads are interned: one table of every (kind, name, answer) seen, each checked once per run;
    a file's entry and a unit hold indices into it, so an unchanged re-run checks each distinct
    read once and then only compares integers. Units (per-module reach work, shared by every file
    whose importer closure contains the module) are kept once per module; a file relies on its
    own module's unit and, through the recorded importer queries, on the units of every module
    upstream of it.
    """

    def __init__(self, folder: Path | None = None):
        self.folder = folder or cache_home() / "static"
        self.file: Path | None = None
        self.results: dict[str, dict] = {}  # checked file -> digest, reads (indices), findings
        self.units: dict[str, list[int]] = {}  # module file -> its reads (indices)
        self.reads: list[tuple] = []  # the interned reads
        self._index: dict[tuple, int] | None = None  # read -> index, made only to store
        self._valid: list[bool | None] = []  # per read: still the same answer (None: not asked)
        self.hits = 0
        self._stale: set[str] | None = None
        self._changed = False  # anything stored since the file was read: only then is it written
        # The stat stamp of every file below the project's roots, when this run began, and the one
        # kept from the run that wrote the cache: equal, no file there has changed since.
        self._tree_now = ""
        self._tree_then: str | None = None
        self._same_tree = False
        self._stamped: frozenset[str] = frozenset()  # the files the stamp covers

    def open(self, project: Project, settings: str = "",
             listed: dict[Path, list[Path]] | None = None) -> None:
        """Load the results kept for this tool, these project roots and these settings (the
        JIT module lists change which calls are host calls). ``listed``: folders this run has
        walked already, with their files (not walked again for the stamp)."""
        key = json.dumps([tool_fingerprint(), sorted(str(r) for r in project.scan_roots), settings])
        self.file = self.folder / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"
        self._stale, self._changed, self._same_tree = None, False, False
        self._tree_now, self._stamped = tree_stamp(outermost(list(project.scan_roots)),
                                                   lambda path: str(project.real_path(path)), listed)
        self.results, self.units, self.reads, self._tree_then = {}, {}, [], None
        try:
            loaded = json.loads(self.file.read_text("utf-8"))
        except FileNotFoundError:
            loaded = None
        except (OSError, ValueError, RecursionError):  # unreadable, not JSON, or nested too deep
            loaded = {}
        if loaded is not None and not valid_document(loaded):
            self._changed = True  # not used, and written anew at the end of the run
        elif loaded is not None:
            self.reads = [_hashable(item) for item in loaded["reads"]]
            self.units = loaded["units"]
            self.results = loaded["results"]
            self._tree_then = loaded["tree"]
            self._same_tree = bool(self._tree_now) and self._tree_then == self._tree_now
        self._valid = [None] * len(self.reads)

    def lookup(self, path: Path, project: Project) -> list[Finding] | None:
        """The cached findings of ``path``, if nothing they depend on has changed."""
        entry = self.results.get(os.path.abspath(path))
        if entry is None:
            return None
        real = str(project.real_path(path))
        if not self._still(("file", real, entry["digest"]), project):
            return None
        if not self._all_still(entry["reads"], project):
            return None
        if real not in self.units or real in self._stale_units(project):
            return None
        self.hits += 1
        return [finding_from(record) for record in entry["findings"]]

    def _stale_units(self, project: Project) -> set[str]:
        """Units whose reads changed, and every module they import (transitively): a module's
        compiled functions come from the targets of its importers, so a change upstream makes
        everything downstream stale. The import edges are the units' own importer queries."""
        if self._stale is None:
            imported_by: dict[str, list[str]] = {}
            stale: set[str] = set()
            for name, indices in self.units.items():
                if not self._all_still(indices, project):
                    stale.add(name)
                for index in indices:
                    kind, _, answer = self.reads[index]
                    if kind == "importers":
                        for importer in answer:
                            if importer == name:
                                continue
                            imported_by.setdefault(importer, []).append(name)
                            if importer not in self.units:
                                stale.add(name)  # an importer never reached: unknown
            pending = list(stale)
            while pending:
                for downstream in imported_by.get(pending.pop(), ()):
                    if downstream not in stale:
                        stale.add(downstream)
                        pending.append(downstream)
            self._stale = stale
        return self._stale

    def _all_still(self, indices: list[int], project: Project) -> bool:
        """Whether every read of ``indices`` gives the same answer now (each asked once a run;
        a plain loop: a quarter of a million of them on a model zoo)."""
        valid = self._valid
        for index in indices:
            known = valid[index]
            if known is None:
                known = valid[index] = self._still(self.reads[index], project)
            if not known:
                return False
        return True

    def _still(self, item: tuple, project: Project) -> bool:
        """Whether a recorded read gives the same answer now. When no file below the roots has
        changed since the cache was written (by size, times and inode, as git and mypy judge),
        the files there and who imports whom are the same without reading them again."""
        kind, name = item[0], item[1]
        if self._same_tree and kind in ("file", "importers") and name in self._stamped:
            return True
        return _gives_the_same(item, project)

    def _intern(self, reads) -> list[int]:
        if self._index is None:
            self._index = {read: i for i, read in enumerate(self.reads)}
        indices = []
        for item in reads:
            read = _hashable(item)
            index = self._index.get(read)
            if index is None:
                index = self._index[read] = len(self.reads)
                self.reads.append(read)
                self._valid.append(True)  # just recorded by this run
            indices.append(index)
        return indices

    def store(self, run_records: dict[str, dict], unit_reads: dict[str, frozenset[tuple]]) -> None:
        if not run_records and not unit_reads:
            return
        self._changed = True
        for name, record in run_records.items():
            self.results[name] = {**record, "reads": self._intern(record["reads"])}
        self.units.update({name: self._intern(reads) for name, reads in unit_reads.items()})
        self._stale = None

    def save(self) -> None:
        """Write atomically; entries of files that no longer exist are dropped, and reads no
        entry uses. Best effort: a cache that cannot be written costs speed, never the run. An
        unchanged re-run writes nothing (writing the same file again was half of its time)."""
        if self.file is None:
            return
        if not self._changed and self._same_tree:
            return  # nothing stored, and the file's stamp is already this tree's
        renumbered: dict[int, int] = {}

        def keep(indices: list[int]) -> list[int]:
            return [renumbered.setdefault(i, len(renumbered)) for i in indices]

        results = {
            name: {**entry, "reads": keep(entry["reads"])}
            for name, entry in self.results.items()
            if os.path.exists(name)
        }
        units = {name: keep(indices) for name, indices in self.units.items() if os.path.exists(name)}
        # The stamp vouches for every read kept: only when this run checked them all (a run of a
        # few files, or one that stopped at a changed read, leaves others for the next run).
        every_read_checked = all(self._valid[old] is not None for old in renumbered)
        stamp = self._tree_now if every_read_checked else ""
        if not self._changed and (not every_read_checked or stamp == self._tree_then):
            return
        table = [self.reads[old] for old in renumbered]  # in the order of their new numbers
        document = {"format": FORMAT_VERSION, "tree": stamp, "reads": table, "units": units,
                    "results": results}
        write_json_atomically(self.file, document, separators=(",", ":"))


def tree_stamp(roots: list[Path], real=os.path.realpath,
               listed: dict[Path, list[Path]] | None = None) -> tuple[str, frozenset[str]]:
    """A digest of the size, times and inode of every Python file below ``roots`` (what changes
    when a file is edited, added, removed or replaced: a stat each, no read), and the real paths
    of the files it covers (not those in skipped folders, nor other files checked by name).
    ``real`` resolves a path (the project's resolver remembers folders); ``listed`` holds the
    files of folders already walked in this run."""
    digest = hashlib.sha256()
    stamped: set[str] = set()
    for root in sorted(roots):
        files = listed.get(root) if listed else None
        for path in files if files is not None else walk_python_files(root):
            try:
                stat = path.stat()
            except OSError:
                continue
            digest.update(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}\0{stat.st_ctime_ns}\0"
                          f"{stat.st_ino}\n".encode())
            stamped.add(real(path))
    return digest.hexdigest(), frozenset(stamped)


def _gives_the_same(item: tuple, project: Project) -> bool:
    kind, name, answer = item
    if kind == "file":
        try:
            now = content_digest(Path(name).read_bytes()).hex()
        except OSError:
            now = None
    elif kind == "lookup":
        found = project.locate(name)
        now = str(found) if found else ""
    else:
        now = tuple(str(p) for p in project.importer_paths(Path(name)))
        answer = tuple(answer)
    return now == answer


# ----- what a cache file must hold to be used ----------------------------------------------------


def _text(value) -> bool:
    return isinstance(value, str)


def _position(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _flag(value) -> bool:
    return isinstance(value, bool)


def _optional(check):
    return lambda value: value is None or check(value)


def _list_of(check):
    return lambda value: isinstance(value, list) and all(check(item) for item in value)


_LEVELS = frozenset(level.value for level in Level)
_texts = _list_of(_text)
EDIT_FIELDS = {"path": _text, "line": _position, "column": _position, "end_line": _position,
               "end_column": _position, "content": _text}
FIX_FIELDS = {
    "applicability": _text,
    "description": _text,
    "edits": _list_of(lambda edit: _fields_valid(edit, EDIT_FIELDS)),
}


def _fields_valid(record, checks: dict) -> bool:
    """A dict with exactly these keys, each value passing its check."""
    return (isinstance(record, dict) and record.keys() == checks.keys()
            and all(check(record[name]) for name, check in checks.items()))


# finding_record's output, field by field: what finding_from and every later stage rely on.
FINDING_FIELDS = {
    "path": _text,
    "rule_id": lambda value: isinstance(value, str) and value in _rule_ids(),
    "message": _text,
    "line": _position,
    "column": _position,
    "end_line": _position,
    "end_column": _position,
    "reached_from": _optional(_text),
    "target": _optional(_text),
    "target_line": _optional(_position),
    "target_path": _optional(_text),
    "level_override": _optional(lambda value: value in _LEVELS),
    "advice_only": _flag,
    "suppressed": _flag,
    "args": _texts,
    "case": _text,
    "confirmation": _optional(_text),
    "compiler_message": _optional(_text),
    "evidence": _list_of(lambda pair: _texts(pair) and len(pair) == 2),
    "fingerprint": _optional(_text),
    "fix": _optional(lambda value: _fields_valid(value, FIX_FIELDS)),
    "fix_sought": _flag,
}


@cache
def _rule_ids() -> frozenset[str]:
    return frozenset(known.id for known in catalogue.rules())


def _valid_read(item) -> bool:
    """("file", path, digest), ("lookup", dotted name, path or ""), ("importers", path, paths)."""
    if not (isinstance(item, list) and len(item) == 3 and _text(item[1])):
        return False
    kind, _, answer = item
    if kind == "importers":
        return _texts(answer)
    return kind in ("file", "lookup") and _text(answer)


def _valid_finding(record) -> bool:
    return _fields_valid(record, FINDING_FIELDS)


def valid_document(document) -> bool:
    """Whether a cache file read back holds what ``save`` writes, each value of the type its
    reader expects: anything else (damaged, truncated, edited by hand) is not used at all, since
    one bad value would fail the run far from here (a string line number fails the sort)."""
    if not (isinstance(document, dict) and document.get("format") == FORMAT_VERSION):
        return False
    reads, units, results = document.get("reads"), document.get("units"), document.get("results")
    if not (_list_of(_valid_read)(reads) and isinstance(units, dict) and isinstance(results, dict)
            and _text(document.get("tree"))):
        return False
    count = len(reads)

    def indices(value) -> bool:
        # Half a million of them in a large project's cache: checked at C speed (type() is int
        # excludes bool), not item by item.
        return isinstance(value, list) and (not value or (
            set(map(type, value)) == {int} and min(value) >= 0 and max(value) < count))

    return all(indices(unit) for unit in units.values()) and all(
        isinstance(entry, dict) and entry.keys() == {"digest", "reads", "findings"}
        and _text(entry["digest"]) and indices(entry["reads"])
        and _list_of(_valid_finding)(entry["findings"])
        for entry in results.values())


def write_json_atomically(target: Path, document, **dump_options) -> None:
    """Write a cache file whole or not at all (a concurrent run never reads half of one). Best
    effort: a folder that cannot be written costs the next run speed, never this run."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(json.dumps(document, **dump_options))  # the C encoder; json.dump is Python
        os.replace(temporary, target)
    except OSError:
        pass
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _hashable(item) -> tuple:
    kind, name, answer = item
    return (kind, name, tuple(answer) if isinstance(answer, list) else answer)


def file_record(digest: bytes, findings: list[Finding], reads: set[tuple]) -> dict:
    """What to keep for one checked file: its findings and what they were computed from."""
    return {
        "digest": digest.hex(),
        "reads": list(reads),
        "findings": [finding_record(f) for f in findings],
    }
