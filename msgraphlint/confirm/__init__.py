"""Confirmation: static findings checked by compiling with the real MindSpore (``--confirm``).

- settings.py  ``[tool.msgraphlint.confirm]`` (inputs, init, limits), parsed with the config
- plan.py      which targets to run (Cells, jit functions, modules) and with what inputs
- pool.py      ChildPool: child processes forked from a server that imported MindSpore, limits, retries
- child.py     the child: import the module, compile, run, compare with PyNative, read the IR
- cache.py     results keyed by file contents, MindSpore version, device, level and inputs
- match.py     from what MindSpore did to confirmed / not-reproduced / unverified per finding
- run.py       ``confirm_findings``: the one entry point the CLI calls
- probe.py     the compiler tests' referee (GRAPH_MODE vs PyNative), whose helpers child.py uses
- bench.py     ``python tools/confirm_bench.py``

Importing this package, settings, plan, cache, match, run or runner imports neither MindSpore nor
user code: only child.py and probe.py do, and only in child processes (and the compiler tests).
"""
