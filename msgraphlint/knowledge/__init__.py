"""What msgraphlint knows about MindSpore, as data: one table per fact.

The engine and the rule families read MindSpore's facts from here and from the snapshots in
``msgraphlint/knowledge/data/`` (read from an installed MindSpore by ``msgraphlint.knowledge.snapshots`` and
``msgraphlint.knowledge.api_snapshot``); nothing in this package imports the engine. Each table says what it
is a fact about, and ``tests/test_knowledge.py`` checks it against the installed MindSpore where
one is installed.
"""
