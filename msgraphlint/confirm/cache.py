"""The confirmation cache: an unchanged re-run compiles nothing.

An entry is keyed by the target (module contents, name, kind), MindSpore's version, the device,
the syntax level, the inputs and constructor arguments, and this harness's version. It also
records the hash of every project file the module imported when it ran (the child reports them),
and is only used while all of them are unchanged: editing a helper module the Cell imports is a
miss, as it should be.

Location: $MSGRAPHLINT_CACHE_DIR/confirm, else $XDG_CACHE_HOME/msgraphlint/confirm, else
~/.cache/msgraphlint/confirm (beside the static results' cache). Entries are small JSON files,
written atomically; a damaged entry is a miss, never an error.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..engine.cache import cache_home, write_json_atomically

HARNESS_VERSION = "1"  # bump when what the child measures, or how, changes


def cache_dir() -> Path:
    return cache_home() / "confirm"


def file_hash(path: str | Path) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def entry_key(target_spec: dict, module_path: Path, ms_version: str, device: str) -> str | None:
    content = file_hash(module_path)
    if content is None:
        return None
    material = json.dumps(
        {"harness": HARNESS_VERSION, "module": content, "target": target_spec,
         "mindspore": ms_version, "device": device},
        sort_keys=True, default=repr,
    )
    return hashlib.sha256(material.encode()).hexdigest()


class Cache:
    def __init__(self, folder: Path | None = None, enabled: bool = True):
        self.folder = folder or cache_dir()
        self.enabled = enabled

    def _file(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def get(self, key: str | None) -> dict | None:
        if not self.enabled or key is None:
            return None
        try:
            entry = json.loads(self._file(key).read_text("utf-8"))
            dependencies = entry["dependencies"]
            result = entry["result"]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if not isinstance(dependencies, dict) or not isinstance(result, dict):
            return None
        if any(file_hash(path) != digest for path, digest in dependencies.items()):
            return None
        return result

    def put(self, key: str | None, result: dict, dependencies: list[str]) -> None:
        if not self.enabled or key is None:
            return
        entry = {"dependencies": {path: file_hash(path) for path in dependencies},
                 "result": result}
        # A read-only or full cache folder only costs the next run a compile.
        write_json_atomically(self._file(key), entry, sort_keys=True)
