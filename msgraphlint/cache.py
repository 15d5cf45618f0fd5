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

from .version import __version__
from .catalogue import Level
from .findings import Finding
from .project import Project
from .source import content_digest

FORMAT_VERSION = 3


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
    families = Path(importlib.util.find_spec(f"{__package__}.checkers").origin).parent
    digest = hashlib.sha256(f"{FORMAT_VERSION}:{__version__}".encode())
    for package in (Path(__file__).parent, families):
        for path in sorted(package.rglob("*")):
            if path.suffix in (".py", ".toml", ".json") and "__pycache__" not in path.parts:
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


def finding_record(finding: Finding) -> dict:
    record = asdict(finding)
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
    return Finding(**values)


class ResultCache:
    """Entries for one project (its roots) and one build of the tool, in one JSON file.

    Reads are interned: one table of every (kind, name, answer) seen, each checked once per run;
    a file's entry holds indices into it. Units (per-module reach work,
    shared by every file whose importer closure contains the module) are kept once per module;
    a file relies on its own module's unit and, through the recorded importer queries, on the
    units of every module upstream of it.
    """

    def __init__(self, folder: Path | None = None):
        self.folder = folder or cache_home() / "static"
        self.file: Path | None = None
        self.results: dict[str, dict] = {}  # checked file -> digest, reads, units, findings
        self.units: dict[str, list[tuple]] = {}  # module file -> its reads
        self.hits = 0
        self._valid: dict[tuple, bool] = {}
        self._stale: set[str] | None = None

    def open(self, project: Project, settings: str = "") -> None:
        """Load the results kept for this tool, these project roots and these settings (the
        JIT module lists change which calls are host calls)."""
        key = json.dumps([tool_fingerprint(), sorted(str(r) for r in project.scan_roots), settings])
        self.file = self.folder / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"
        try:
            loaded = json.loads(self.file.read_text("utf-8"))
            if not (isinstance(loaded, dict) and loaded.get("format") == FORMAT_VERSION):
                return
            table = [_hashable(item) for item in loaded["reads"]]
            expand = lambda indices: [table[i] for i in indices]  # noqa: E731
            self.units = {name: expand(indices) for name, indices in loaded["units"].items()}
            for name, entry in loaded["results"].items():
                entry["reads"] = expand(entry["reads"])
                self.results[name] = entry
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            self.results, self.units = {}, {}

    def lookup(self, path: Path, project: Project) -> list[Finding] | None:
        """The cached findings of ``path``, if nothing they depend on has changed."""
        entry = self.results.get(os.path.abspath(path))
        if entry is None:
            return None
        try:
            real = str(project.real_path(path))
            if not self._still(("file", real, entry["digest"]), project):
                return None
            if not all(self._still(item, project) for item in entry["reads"]):
                return None
            if real not in self.units or real in self._stale_units(project):
                return None
            findings = [finding_from(record) for record in entry["findings"]]
        except (KeyError, TypeError, ValueError):
            return None  # an entry from a damaged cache
        self.hits += 1
        return findings

    def _stale_units(self, project: Project) -> set[str]:
        """Units whose reads changed, and every module they import (transitively): a module's
        compiled functions come from the targets of its importers, so a change upstream makes
        everything downstream stale. The import edges are the units' own importer queries."""
        if self._stale is None:
            imported_by: dict[str, list[str]] = {}
            stale: set[str] = set()
            for name, reads in self.units.items():
                if not all(self._still(item, project) for item in reads):
                    stale.add(name)
                for kind, _, answer in reads:
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

    def _still(self, item: tuple, project: Project) -> bool:
        """Whether a recorded read gives the same answer now."""
        if item not in self._valid:
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
            self._valid[item] = now == answer
        return self._valid[item]

    def store(self, run_records: dict[str, dict], unit_reads: dict[str, frozenset[tuple]]) -> None:
        self.results.update(run_records)
        self.units.update({name: list(reads) for name, reads in unit_reads.items()})
        self._stale = None

    def save(self) -> None:
        """Write atomically; entries of files that no longer exist are dropped. Best effort: a
        cache that cannot be written costs speed, never the run."""
        if self.file is None:
            return
        table: dict[tuple, int] = {}

        def intern(reads) -> list[int]:
            return [table.setdefault(_hashable(item), len(table)) for item in reads]

        results = {
            name: {**entry, "reads": intern(entry["reads"])}
            for name, entry in self.results.items()
            if os.path.exists(name)
        }
        units = {name: intern(reads) for name, reads in self.units.items() if os.path.exists(name)}
        document = {"format": FORMAT_VERSION, "reads": list(table), "units": units, "results": results}
        write_json_atomically(self.file, document, separators=(",", ":"))


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
            json.dump(document, out, **dump_options)
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
