"""Reading Python files the way the interpreter would, and saying plainly when that is not possible.

Every problem becomes a :class:`SourceProblem` (a rule of the ``input`` family) instead of an
exception, so one bad file never stops the run or hides the findings of the others.
"""

from __future__ import annotations

import ast
import codecs
import errno
import hashlib
import re
import warnings
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterator

# PEP 263: a coding cookie on line 1 or 2.
_CODING_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_PYTHON2_HINTS = (
    re.compile(r"^\s*print\s+[^\s(=]", re.MULTILINE),
    re.compile(r"^\s*exec\s+[\"']", re.MULTILINE),
    re.compile(r"except\s+[\w.]+\s*,\s*\w+\s*:"),
    re.compile(r"\b0[0-7]+L?\b|\b\d+L\b"),
)


@dataclass(frozen=True)
class SourceProblem:
    symbol: str  # a rule of the `input` family
    line: int
    column: int  # 0-based, in characters
    detail: str


@dataclass
class SourceFile:
    path: Path
    text: str | None  # decoded text, BOM removed; None when the file could not be decoded
    tree: ast.Module | None
    problems: list[SourceProblem]
    digest: bytes = b""  # of the bytes as read: tells an unchanged buffer from a new one

    @cached_property
    def lines(self) -> list[str]:
        return split_lines(self.text or "")


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines as ast and tokenize number them: str.splitlines() also breaks at form feeds,
    \\x1c-\\x1e, \\x85 and \\u2028/\\u2029, which would shift every later line."""
    lines = text.split("\n") if "\r" not in text else _LINE_BREAK.split(text)  # str.split: C speed
    return lines[:-1] if lines and lines[-1] == "" else lines


def begins_word(text: str | bytes, start: int) -> bool:
    """What a leading ``\\b`` asks of a match of a word: no word character just before it."""
    before = text[start - 1 : start]
    return not before or not (before.isalnum() or before in ("_", b"_"))


def ends_word(text: str | bytes, end: int) -> bool:
    """What a trailing ``\\b`` asks of a match of a word ending at ``end``: no word character
    just after it."""
    return begins_word(text, end + 1)  # the character at ``end`` is the one before end + 1


def line_before(text: str | bytes, start: int) -> str | bytes:
    """The text between the start of the line holding ``start`` and ``start``."""
    return text[text.rfind("\n" if isinstance(text, str) else b"\n", 0, start) + 1 : start]


def begins_line(text: str | bytes, start: int) -> bool:
    """Only blanks between the line's start and ``start`` (what ``^[ \\t]*`` asks)."""
    return not line_before(text, start).strip(" \t" if isinstance(text, str) else b" \t")


def matches_where(pattern: re.Pattern, text: str | bytes, keep) -> Iterator[re.Match]:
    """``pattern.finditer(text)`` for a pattern whose leading ``\\b`` or ``^[ \\t]*`` was
    moved into ``keep(text, start)``: a pattern that starts with its literal lets the regex
    engine skip to each occurrence (about fifteen times faster on source text). After a match
    ``keep`` refuses, the search resumes one character on, so it hides no later match."""
    position, search = 0, pattern.search
    while (match := search(text, position)) is not None:
        if keep(text, match.start()):
            yield match
            position = max(match.end(), match.start() + 1)
        else:
            position = match.start() + 1


def content_digest(raw: bytes) -> bytes:
    return hashlib.blake2b(raw, digest_size=16).digest()


def decode(raw: bytes) -> tuple[str | None, list[SourceProblem]]:
    problems: list[SourceProblem] = []
    if raw.startswith(codecs.BOM_UTF8):
        problems.append(
            SourceProblem("utf8-bom", 1, 0, "the file starts with a UTF-8 byte-order mark")
        )
        raw = raw[len(codecs.BOM_UTF8) :]
        encoding = "utf-8"
    else:
        encoding = "utf-8"
        for line in raw.split(b"\n", 2)[:2]:
            if match := _CODING_COOKIE.match(line):
                encoding = match.group(1).decode("ascii", "replace")
                break
    try:
        return raw.decode(encoding), problems
    except LookupError:
        problems.append(
            SourceProblem("undecodable-file", 1, 0, f"unknown source encoding {encoding!r}")
        )
    except UnicodeDecodeError as error:
        if _python_accepts(raw):
            # CPython tolerates undecodable bytes in comments; so does MindSpore, so do we.
            return raw.decode(encoding, "replace"), problems
        line = raw[: error.start].count(b"\n") + 1
        problems.append(
            SourceProblem(
                "undecodable-file",
                line,
                0,
                f"byte {raw[error.start]:#04x} at line {line} is not valid {encoding}"
                " and the file declares no other encoding",
            )
        )
    return None, problems


def _quiet_parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """ast.parse without the SyntaxWarnings (invalid escapes, `1if`) it prints to stderr: they
    are the interpreter's business, not findings of ours."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, filename=filename)


def _python_accepts(raw: bytes) -> bool:
    try:
        _quiet_parse(raw)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def parse(text: str, path: Path) -> tuple[ast.Module | None, SourceProblem | None]:
    try:
        return _quiet_parse(text, str(path)), None
    except (RecursionError, MemoryError) as error:  # an expression of thousands of terms
        reason = (f"too deeply nested for Python's own parser ({type(error).__name__}: {error}); "
                  "Python cannot import this file either")
        return None, SourceProblem("syntax-error", 1, 0, reason)
    except (SyntaxError, ValueError) as error:  # ValueError: NUL bytes in source
        line = getattr(error, "lineno", None) or 1
        column = max((getattr(error, "offset", None) or 1) - 1, 0)
        reason = getattr(error, "msg", None) or str(error)
        if any(hint.search(text) for hint in _PYTHON2_HINTS):
            reason = f"{reason} (this looks like Python 2 code)"
        return None, SourceProblem("syntax-error", line, column, reason)


def os_error_reason(error: OSError) -> str:
    """Why a path cannot be read, in a user's words."""
    if error.errno == errno.ELOOP:
        return "a symbolic link loop (it never reaches a file)"
    return error.strerror or str(error)


def read_source(path: Path, raw: bytes | None = None) -> SourceFile:
    """Read and parse ``path`` (or ``raw``, e.g. an editor's unsaved buffer)."""
    if raw is None:
        try:
            raw = path.read_bytes()
        except OSError as error:
            reason = os_error_reason(error)
            return SourceFile(path, None, None, [SourceProblem("unreadable-file", 1, 0, reason)])
    text, problems = decode(raw)
    if text is None:
        return SourceFile(path, None, None, problems, content_digest(raw))
    tree, problem = parse(text, path)
    if problem:
        problems.append(problem)
    return SourceFile(path, text, tree, problems, content_digest(raw))


# A comment, or a whole string literal (so that a `#` inside one is no comment): the tokenizer's
# view of strings and comments. A backslash escapes the next character in every string, raw
# ones too, and a 3.11 f-string cannot hold its own quote.
_STRING_OR_COMMENT = re.compile(
    r"#[^\r\n]*"
    r'|"""(?:\\.|[^\\])*?"""' r"|'''(?:\\.|[^\\])*?'''"
    r'|"(?:\\.|[^"\\\r\n])*"' r"|'(?:\\.|[^'\\\r\n])*'",
    re.S,
)


def comment_lines(text: str) -> dict[int, str]:
    """Line number -> comment text, for inline suppression comments. One regular expression
    finds the comments and skips the strings, as the tokenizer would (the same comments on
    every file with a pragma in the model suites, mindone and realcode), several times faster
    than tokenize."""
    comments: dict[int, str] = {}
    if "#" not in text:
        return comments
    line, counted = 1, 0
    for match in _STRING_OR_COMMENT.finditer(text):
        if text[match.start()] == "#":
            line += text.count("\n", counted, match.start())
            counted = match.start()
            comments[line] = match.group()
    return comments
