"""The text scans that run before (or instead of) parsing give the answers of the slower forms
they replaced: the tokenizer for comments, line-anchored regular expressions for class and
import lines, a leading word boundary for words."""

from __future__ import annotations

import io
import re
import tokenize

import pytest

from msgraphlint.syntax.project import (
    _CLASS_LINE, _begins_indented_line, _INDENTED_CLASS, imported_modules, may_define_targets,
)
from msgraphlint.syntax.source import begins_line, begins_word, comment_lines, matches_where


def tokenizer_comments(text: str) -> dict[int, str]:
    """The reference: what Python's tokenizer calls comments."""
    found: dict[int, str] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                found[token.start[0]] = token.string
    except (tokenize.TokenError, SyntaxError):
        pass
    return found


TRICKY_SOURCES = [
    'x = "a # pylint: disable=x"  # pylint: disable=y\n',
    "s = '''\n# pylint: disable=z\n'''\ny = 1  # after the string\n",
    's = """it\'s # not a comment\n\\"""still in"""  # comment\n',
    'r = r"\\"#x"  # real\n',
    "b = rb'\\'#x'  # real\n",
    'f = f"{a!r} # {b}"  # real\n',
    "a = 1 \\\n    # continued\n",
    "call(\n    1,  # first\n    '#',  # second\n)\n",
    "x = 1\n# top\n\n\n# down\n",
    "d = {'#': 1}  # msgraphlint: disable=E1\n",
    "def f():\n    '''doc # here\n    more'''\n    return 1  # end\n",
]


@pytest.mark.parametrize("text", TRICKY_SOURCES)
def test_comments_are_those_the_tokenizer_finds(text):
    assert comment_lines(text) == tokenizer_comments(text)


TRICKY_CLASSES = [
    "class A(Base):\n    pass\n",
    "    class Inner(Base):\n        pass\n",
    "subclass Foo(Base)\n",
    "x = 'class A(' \nclass B(Base):\n    pass\n",  # a refused match must not hide the next
    "# class C(Base)\nclass D(object): pass\n",
    "\tclass E (nn.Cell):\n",
    "class F:\n    pass\n",
]


@pytest.mark.parametrize("text", TRICKY_CLASSES)
def test_class_lines_are_those_the_anchored_pattern_finds(text):
    anchored = re.compile(rb"^[ \t]*class[ \t]+\w+[ \t]*\(([^)]*)\)", re.M)
    raw = text.encode()
    assert ([m.group(1) for m in matches_where(_CLASS_LINE, raw, begins_line)]
            == [m.group(1) for m in anchored.finditer(raw)])
    indented = re.compile(r"^[ \t]+class[ \t]+\w", re.M)
    assert ([m.start() for m in matches_where(_INDENTED_CLASS, text, _begins_indented_line)]
            == [m.end() - len(m.group().lstrip(" \t")) for m in indented.finditer(text)])


def test_a_word_begins_only_after_a_non_word_character():
    text = "self myself _self self.x (self, self_y)"
    starts = [m.start() for m in matches_where(re.compile(r"self\b(?!\s*\.)"), text, begins_word)]
    assert starts == [m.start() for m in re.finditer(r"\bself\b(?!\s*\.)", text)] == [0, 26]
    assert begins_word(b"a_b", 2) is False and begins_word(b"a b", 2) is True


@pytest.mark.parametrize("text, modules", [
    ("from my_import import x\n", {"my_import", "my_import.x"}),
    ("import a.b as c  # import d\n", {"a", "a.b"}),
    ("x = 'import y'\n    import z\n", {"z"}),
    ("from .sub import (\n    one,\n    two,\n)\n", {"pkg.sub", "pkg.sub.one", "pkg.sub.two"}),
    ("print('from q import r')\n", set()),
    ("from importlib import util\n", {"importlib", "importlib.util"}),
])
def test_import_statements_are_found_only_where_they_begin_a_line(text, modules):
    assert imported_modules(text.encode(), "pkg") == modules


def test_a_class_with_bases_marks_a_file_that_may_define_targets():
    assert may_define_targets(b"class Net(Base):\n    pass\n")
    assert not may_define_targets(b"name = 'subclass Net(Base)'\n")


def test_the_lines_naming_a_word_are_the_same_searched_or_indexed(tmp_path):
    """The first names asked of a module are searched for, the later ones read from an index of
    every word: both give each occurrence's line, whole words only."""
    from msgraphlint.model.callers import NAMES_FOUND_BY_SEARCH, _lines_naming
    from msgraphlint.syntax.project import Project

    names = [f"Block{number}" for number in range(NAMES_FOUND_BY_SEARCH + 4)]
    body = "".join(f"class {name}(Base):\n    x = {name}, my{name}, {name}_x  # {name}\n"
                   for name in names)
    path = tmp_path / "blocks.py"
    path.write_text(f'"""{names[-1]} in the docstring."""\n{body}', "utf-8")
    module = Project().module(path)
    for name in names:
        expected = [number for number, line in enumerate(path.read_text().split("\n"), 1)
                    for _ in re.finditer(rf"\b{name}\b", line)]
        assert _lines_naming(module, name) == expected, name
    assert _lines_naming(module, "Block") == []  # only a part of words


def test_a_check_reads_each_file_once_and_reread_reads_them_again(tmp_path, monkeypatch):
    """The text scan, the import index, mentions() and the parse share one read of each file;
    a change on disk is seen once the project is told (Project.reread, as the editor server
    does on a save)."""
    from pathlib import Path

    from msgraphlint.pipeline import new_engine

    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "blocks.py").write_text("from mindspore import nn\n\n\nclass Block(nn.Cell):\n"
                                        "    def construct(self, x):\n        return x\n")
    (tmp_path / "net.py").write_text("from blocks import Block\n\n\nclass Net(Block):\n"
                                     "    def construct(self, x):\n        return x.asnumpy()\n")
    reads: list[str] = []
    read_bytes = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda path: reads.append(path.name) or read_bytes(path))
    engine = new_engine()
    first = engine.check_paths([tmp_path], jobs=1)
    assert first.findings and sorted(set(reads)) == ["blocks.py", "net.py"]
    assert sorted(reads) == sorted(set(reads)), "a file was read twice"
    (tmp_path / "net.py").write_text("from blocks import Block\n\n\nclass Net(Block):\n"
                                     "    def construct(self, x):\n        return x\n")
    engine.project.reread([tmp_path / "net.py"])
    assert engine.check_paths([tmp_path], jobs=1).findings == []
