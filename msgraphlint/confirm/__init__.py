"""Confirmation: static findings checked by compiling with the real MindSpore (``--confirm``).

- plan.py      which targets to run (Cells, jit functions, modules) and with what inputs
- pool.py      ChildPool: child processes forked from a server that imported MindSpore, limits, retries
- sandbox.py   what the children see and touch: scrubbed environment, bwrap/unshare namespaces
               (no network, read-only outside the scratch folder), process groups killed
               (_enter_sandbox.py: the mounts, under unshare)
- child.py     the child: process setup, import the module, run each target through the referee,
               report to the parent
- referee.py   the one referee: run a target in GRAPH_MODE and PyNative, judge it (REJECTED,
               MISBEHAVES with evidence, ACCEPTED); also used by the compiler tests
- cache.py     results keyed by file contents, MindSpore version, device, level and inputs
- match.py     from what MindSpore did to confirmed / not-reproduced / unverified per finding
- run.py       ``confirm_findings``: the one entry point the CLI calls

``[tool.msgraphlint.confirm]`` is parsed by msgraphlint.confirm_settings, outside this package,
since config.py reads it. The benchmark is ``python tools/confirm_bench.py``.

Importing this package, plan, pool, cache, match, run, child or referee imports neither MindSpore
nor user code: child.py and referee.py import MindSpore inside their functions, which run only in
child processes (and in the compiler tests).
"""
