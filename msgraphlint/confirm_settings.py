"""``[tool.msgraphlint.confirm]``: inputs, constructor arguments and limits for ``--confirm``.

Parsed in the linter's own process, so nothing here imports MindSpore or numpy. It lives at the
package's top level, not in msgraphlint.confirm, because config.py reads it and the configuration
layer must not depend on the confirmation machinery. Every problem is a ConfigError naming the
key, which the CLI turns into exit code 2::

    [tool.msgraphlint.confirm]
    inputs = ["float32[2,2]"]          # default for every target: one per parameter of construct
    timeout = 300                      # seconds per target (compiling and running it)
    import-timeout = 60                # seconds for importing a module
    memory-limit-mb = 8192             # resident memory of one child process
    pass-env = ["WANDB_MODE", "MYLAB_*"] # environment variables the children also see (names,
                                       # or prefixes ending in *): others are scrubbed

    [tool.msgraphlint.confirm.targets."models/net.py::Net"]
    inputs = ["float32[None,3,32,32]"] # None: a dynamic dimension (2 in the tensor compiled with)
    init = { num_classes = 10 }        # keyword arguments for Net(...)

    [tool.msgraphlint.confirm.targets."models/train.py::step"]
    entry = "scripts/run.py::main"     # a Cell or jit function defined inside a function: what
                                       # to run, with no arguments, to reach it ("::__main__":
                                       # the module run as a script)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from .knowledge.mindspore import INPUT_DTYPES

SPEC = re.compile(r"^\s*(\w+)\s*\[([^\]]*)\]\s*$")
DIM = re.compile(r"^\s*(None|\d+)\s*$")
DEFAULT_INPUT = "float32[2,2]"
DEFAULT_TIMEOUT = 300.0
# A module's import is not where a large model spends its time (compiling is): one that has not
# finished in a minute hangs, and must not cost a whole target's limit.
DEFAULT_IMPORT_TIMEOUT = 60.0
DEFAULT_MEMORY_MB = 8192


class SettingsError(ValueError):
    """Raised by the parsers here; config.py wraps it into its ConfigError."""


@dataclass(frozen=True)
class TargetSettings:
    inputs: tuple[str, ...] | None = None
    init: tuple[tuple[str, object], ...] = ()  # sorted keyword arguments (hashable, stable)
    entry: str | None = None  # "relative/path.py::function" (or "::__main__") that reaches it


@dataclass(frozen=True)
class ConfirmSettings:
    inputs: tuple[str, ...] | None = None  # None: one DEFAULT_INPUT per positional parameter
    timeout: float = DEFAULT_TIMEOUT
    import_timeout: float = DEFAULT_IMPORT_TIMEOUT
    memory_limit_mb: int = DEFAULT_MEMORY_MB
    pass_env: tuple[str, ...] = ()  # variables (or NAME_* prefixes) passed to the children
    targets: dict[str, TargetSettings] = field(default_factory=dict, hash=False)

    def for_target(self, key: str) -> TargetSettings:
        """``key`` is "relative/path.py::Name" (relative to the pyproject.toml's folder)."""
        found = self.targets.get(key, TargetSettings())
        return TargetSettings(found.inputs if found.inputs is not None else self.inputs, found.init,
                              found.entry)


def check_spec(spec: object, where: str) -> str:
    """``dtype[d0,d1,...]`` with known dtype and dims that are integers or None."""
    if not isinstance(spec, str):
        raise SettingsError(f"{where}: input {spec!r} must be a string such as \"float32[2,2]\"")
    match = SPEC.match(spec)
    if not match:
        raise SettingsError(f"{where}: input {spec!r} is not of the form dtype[d0,d1,...]"
                            " (e.g. \"float32[None,3,32,32]\")")
    dtype, dims = match.groups()
    if dtype not in INPUT_DTYPES:
        raise SettingsError(f"{where}: input {spec!r}: unknown dtype {dtype!r}"
                            f" (known: {', '.join(sorted(INPUT_DTYPES))})")
    if dims.strip() and not all(DIM.match(d) for d in dims.split(",")):
        raise SettingsError(f"{where}: input {spec!r}: each dimension must be an integer or None")
    return spec.strip()


def _inputs(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise SettingsError(f"{where}: inputs must be a list such as [\"float32[2,2]\"]")
    return tuple(check_spec(spec, where) for spec in value)


def _positive(value: object, where: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise SettingsError(f"{where}: {key} must be a positive number, not {value!r}")
    return value


def _target(key: str, value: object, where: str) -> TargetSettings:
    here = f"{where} targets.{key!r}"
    if "::" not in key or not key.split("::", 1)[1]:
        raise SettingsError(f"{here}: a target is named \"relative/path.py::Name\"")
    if not isinstance(value, dict):
        raise SettingsError(f"{here} must be a table with inputs, init and/or entry")
    unknown = sorted(set(value) - {"inputs", "init", "entry"})
    if unknown:
        raise SettingsError(f"{here}: unknown key(s) {', '.join(unknown)}"
                            " (known: entry, init, inputs)")
    entry = value.get("entry")
    if entry is not None and (not isinstance(entry, str) or "::" not in entry
                              or not all(entry.split("::", 1))):
        raise SettingsError(f"{here}: entry must be \"relative/path.py::function\" (a function"
                            " that takes no arguments) or \"relative/path.py::__main__\"")
    init = value.get("init", {})
    if not isinstance(init, dict):
        raise SettingsError(f"{here}: init must be a table of keyword arguments")
    inputs = _inputs(value["inputs"], here) if "inputs" in value else None
    return TargetSettings(inputs, tuple(sorted(init.items())),
                          _normalise_key(entry) if entry is not None else None)


KNOWN = frozenset({"inputs", "timeout", "import-timeout", "memory-limit-mb", "pass-env",
                   "targets"})
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*\*?$")


def _pass_env(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise SettingsError(f"{where}: pass-env must be a list of environment variable names"
                            f" such as [\"WANDB_MODE\", \"MYLAB_*\"], not {value!r}")
    for name in value:
        if not ENV_NAME.match(name):
            raise SettingsError(f"{where}: pass-env: {name!r} is not an environment variable name"
                                " (letters, digits and _, optionally ending in * for a prefix)")
    return tuple(value)


def parse_confirm(value: object, where: str) -> ConfirmSettings:
    where = (where.replace("[tool.msgraphlint]", "[tool.msgraphlint.confirm]")
             if "[tool.msgraphlint]" in where else f"{where} confirm")
    if not isinstance(value, dict):
        raise SettingsError(f"{where} must be a table")
    unknown = sorted(set(value) - KNOWN)
    if unknown:
        raise SettingsError(f"{where}: unknown key(s) {', '.join(unknown)}"
                            f" (known: {', '.join(sorted(KNOWN))})")
    targets = value.get("targets", {})
    if not isinstance(targets, dict):
        raise SettingsError(f"{where}: targets must be a table of \"path.py::Name\" tables")
    return ConfirmSettings(
        inputs=_inputs(value["inputs"], where) if "inputs" in value else None,
        timeout=float(_positive(value.get("timeout", DEFAULT_TIMEOUT), where, "timeout")),
        import_timeout=float(_positive(value.get("import-timeout", DEFAULT_IMPORT_TIMEOUT), where,
                                       "import-timeout")),
        memory_limit_mb=int(_positive(value.get("memory-limit-mb", DEFAULT_MEMORY_MB), where,
                                      "memory-limit-mb")),
        pass_env=_pass_env(value.get("pass-env", []), where),
        targets={
            _normalise_key(key): _target(key, table, where) for key, table in targets.items()
        },
    )


def _normalise_key(key: str) -> str:
    path, _, name = key.partition("::")
    return f"{path.replace(chr(92), '/').removeprefix('./')}::{name}"
