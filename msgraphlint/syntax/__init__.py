"""Sources and the project: files read once (encodings, BOMs, Python 2), qualified names of
imports, modules, classes and the import index. Knows nothing of what MindSpore compiles."""
