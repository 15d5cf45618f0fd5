"""The language server, driven over stdio by a real LSP client (pytest-lsp), as an editor drives it.

Each test starts ``msgraphlint server`` in its own process, opens buffers, edits them, asks for code
actions and hovers, and checks what comes back against the CLI and the catalogue.
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

from msgraphlint.docgen import rule_page  # noqa: E402
from msgraphlint.knowledge.catalogue import find_rule  # noqa: E402
from msgraphlint.server.lsp import DEBOUNCE_SECONDS  # noqa: E402
from msgraphlint.config import Config  # noqa: E402
from msgraphlint.server.session import EditorSettings  # noqa: E402

from .samples_index import ROOT  # noqa: E402

SERVER = [sys.executable, "-m", "msgraphlint.cli", "server"]
PORTED_MODELS = sorted(path for path in (ROOT / "samples" / "models").iterdir()
                       if path.is_dir() and path.name.endswith("_port"))
FIX_ALL = "source.fixAll.msgraphlint"

BAD = '''import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.where(x > 0, x, 0)
'''
GOOD = '''import numpy as np
from mindspore import nn, ops


class Net(nn.Cell):
    def construct(self, x):
        return ops.where(x > 0, x, 0)
'''
DETACH = '''from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        y = x.detach()  # 你好 😀
        return y * 2
'''


async def start(lsp_client: LanguageClient, options: object = None, root: Path = ROOT) -> None:
    lsp_client.registrations = []

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams) -> None:  # as VS Code does: accept
        lsp_client.registrations.extend(params.registrations)

    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=root.as_uri(),
        initialization_options=options,
    ))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def strict_client(lsp_client: LanguageClient):
    await start(lsp_client, {"msgraphlint": {"syntaxLevel": "strict", "colour": "blue"}})
    yield
    await lsp_client.shutdown_session()


# ----- helpers -----------------------------------------------------------------------------------

async def published(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    while True:
        params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if params.uri == uri:
            return list(params.diagnostics)


async def open_buffer(client: LanguageClient, path: Path, text: str | None = None) -> list:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="python", version=1,
                               text=path.read_text("utf-8") if text is None else text)))
    return await published(client, uri)


async def replace_buffer(client: LanguageClient, path: Path, text: str, version: int) -> list:
    uri = path.as_uri()
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))
    return await published(client, uri)


async def actions(client: LanguageClient, path: Path, where: types.Range,
                  only: list[str] | None = None) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), range=where,
        context=types.CodeActionContext(diagnostics=[], only=only)))
    return list(found or [])


def utf16_offset(line: str, character: int) -> int:
    """A UTF-16 position (the protocol's default) as a str index."""
    units = 0
    for index, char in enumerate(line):
        if units >= character:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def applied(text: str, edits) -> str:
    """``text`` with LSP text edits applied (UTF-16 positions), last first."""
    # Lines as the protocol breaks them (\n, \r\n, \r), not as str.splitlines does.
    starts = [0] + [match.end() for match in re.finditer(r"\r\n|\r|\n", text)]
    lines = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)])] + [""]
    starts.append(len(text))

    def offset(position: types.Position) -> int:
        line = lines[position.line] if position.line < len(lines) else ""
        return starts[position.line] + utf16_offset(line, position.character)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                       reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def only_edit(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    assert action.edit is not None and list(action.edit.changes) == [uri]
    return list(action.edit.changes[uri])


def project(tmp_path: Path, text: str, name: str = "net.py") -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'probe'\n", "utf-8")
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


# ----- diagnostics --------------------------------------------------------------------------------

async def test_diagnostics_appear_and_clear_as_the_buffer_is_edited(client, tmp_path):
    path = project(tmp_path, GOOD)  # the file on disk stays clean: the buffer is what counts
    assert await open_buffer(client, path) == []
    found = await replace_buffer(client, path, BAD, 2)
    assert [d.code for d in found] == ["W8720:host-call-on-tensor"]
    diagnostic = found[0]
    assert diagnostic.source == "msgraphlint"
    assert diagnostic.severity == types.DiagnosticSeverity.Warning  # a warning at LAX
    assert diagnostic.code_description.href == find_rule("host-call-on-tensor").help_uri
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (6, 15)
    assert await replace_buffer(client, path, GOOD, 3) == []


async def test_typing_is_debounced_into_one_analysis(client, tmp_path):
    path = project(tmp_path, GOOD)
    await open_buffer(client, path)
    uri = path.as_uri()
    # Three keystrokes in quick succession: one publication, for the last text.
    for version, text in enumerate([BAD.replace("np.where", "np.wher"), BAD[:-3] + "0)\n", BAD], 2):
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            [types.TextDocumentContentChangeWholeDocument(text=text)]))
    params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert params.version == 4
    assert [d.code for d in params.diagnostics] == ["W8720:host-call-on-tensor"]


async def test_form_feeds_and_odd_line_breaks_keep_the_buffer_in_step(client, tmp_path):
    # The protocol breaks lines at \n, \r\n and \r only; a form feed inside a line (pygls'
    # incremental sync splits there too) must not move what follows it.
    text = DETACH.replace("class Net", "\x0c\nclass Net").replace("# 你好", "# 你好\u2028")
    path = project(tmp_path, GOOD)
    found = await open_buffer(client, path, text)
    assert [(d.code, d.range.start.line) for d in found] == [("E8767:detach-call", 6)]
    whole = types.Range(types.Position(0, 0), types.Position(0, 0))
    (fix_all,) = await actions(client, path, whole, only=[FIX_ALL])
    fixed = applied(text, only_edit(fix_all, path.as_uri()))
    assert "\x0c\nclass Net" in fixed and "ops.stop_gradient(x)" in fixed and "\u2028" in fixed
    assert fixed.count("return y * 2") == 1 and fixed.endswith("return y * 2\n")


async def test_columns_are_utf16_and_helpers_say_where_they_are_reached_from(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'probe'\n", "utf-8")
    helper = tmp_path / "helpers.py"
    helper.write_text("def halve(t):\n    return t.detach() / 2  # 😀\n", "utf-8")
    (tmp_path / "net.py").write_text(
        "from mindspore import nn\nfrom helpers import halve\n\n\nclass Net(nn.Cell):\n"
        "    def construct(self, x):\n        return halve(x)\n", "utf-8")
    found = await open_buffer(client, helper, "def halve(t):\n    s = '😀'; return t.detach() / 2\n")
    assert [d.code for d in found] == ["E8767:detach-call"]
    line = "    s = '😀'; return t.detach() / 2"
    assert found[0].range.start.character == line.index("t.detach()") + 1  # the emoji is 2 units
    related = found[0].related_information
    assert related and related[0].location.uri == (tmp_path / "net.py").as_uri()
    assert related[0].location.range.start.line == 5
    assert "Net.construct" in related[0].message


async def test_severity_follows_the_nearest_pyproject_and_the_editor_settings(strict_client,
                                                                              tmp_path):
    path = project(tmp_path, BAD)
    found = await open_buffer(strict_client, path)
    assert [d.severity for d in found] == [types.DiagnosticSeverity.Error]  # rejected at STRICT
    assert any("unknown setting 'colour'" in m.message for m in strict_client.log_messages)


async def test_pyproject_level_and_configuration_changes(client, tmp_path):
    path = project(tmp_path, BAD)
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'probe'\n[tool.msgraphlint]\nsyntax-level = 'strict'\n", "utf-8")
    found = await open_buffer(client, path)
    assert [d.severity for d in found] == [types.DiagnosticSeverity.Error]
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"msgraphlint": {"syntaxLevel": "lax", "ignore": ["W8720"]}}))
    assert await published(client, path.as_uri()) == []
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"msgraphlint": {"syntaxLevel": "lax", "select": "third-party"}}))
    assert [d.severity for d in await published(client, path.as_uri())] == \
        [types.DiagnosticSeverity.Warning]


async def test_bad_input_gives_a_diagnostic_or_a_log_message_never_a_crash(client, tmp_path):
    path = project(tmp_path, GOOD)
    found = await open_buffer(client, path, "class Net(:\n    pass\n")
    assert [d.code.split(":")[1] for d in found] == ["syntax-error"]
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"syntaxLevel": "loose", "select": ["no-such-rule"]}))
    await published(client, path.as_uri())
    messages = " ".join(m.message for m in client.log_messages)
    assert "'loose'" in messages and "no-such-rule" in messages
    # A document that is not a file, and a file outside any project: the server goes on.
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri="untitled:Untitled-1", language_id="python", version=1, text=BAD)))
    lonely = tmp_path / "outside" / "net.py"
    lonely.parent.mkdir()
    lonely.write_text(BAD, "utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.msgraphlint]\nsyntax-level = 7\n", "utf-8")
    assert [d.code for d in await open_buffer(client, lonely)] == ["W8720:host-call-on-tensor"]
    assert any("not a file on disk" in m.message for m in client.log_messages)


async def test_files_changed_on_disk_are_read_again(client, tmp_path):
    path = project(tmp_path, "from mindspore import nn\nfrom helpers import Block\n\n\n"
                   "class Net(nn.Cell):\n    def construct(self, x):\n        return Block()(x)\n")
    helpers = tmp_path / "helpers.py"
    helpers.write_text("def Block():\n    return abs\n", "utf-8")
    assert await open_buffer(client, path) == []
    watched = [r for r in client.registrations
               if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert [w["globPattern"] for w in watched[0].register_options["watchers"]] == \
        ["**/*.py", "**/pyproject.toml"]
    # Another tool turns the helper into a Cell with weights: created in construct, never trained.
    helpers.write_text("from mindspore import nn\n\n\nclass Block(nn.Cell):\n"
                       "    def __init__(self):\n        super().__init__()\n"
                       "        self.dense = nn.Dense(2, 2)\n\n"
                       "    def construct(self, x):\n        return self.dense(x)\n", "utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[
        types.FileEvent(uri=helpers.as_uri(), type=types.FileChangeType.Changed)]))
    found = await published(client, path.as_uri())
    assert [d.code for d in found] == ["W8762:weighted-cell-created-in-construct"]


async def test_a_coding_cookie_keeps_columns_and_fixes_exact(client, tmp_path):
    text = "# -*- coding: latin-1 -*-\n" + DETACH.replace("y = x.detach()  # 你好 😀",
                                                        "s = 'café'; y = x.detach()")
    path = project(tmp_path, GOOD)
    found = await open_buffer(client, path, text)
    line = text.splitlines()[6]
    assert [(d.range.start.line, d.range.start.character) for d in found] == \
        [(6, line.index("x.detach()"))]
    fixes = [a for a in await actions(client, path, found[0].range) if a.is_preferred]
    fixed = applied(text, only_edit(fixes[0], path.as_uri()))
    assert "s = 'café'; y = ops.stop_gradient(x)" in fixed


async def test_a_bom_the_editor_keeps_survives_fix_all(client, tmp_path):
    text = "\ufeff" + DETACH
    path = project(tmp_path, GOOD)
    await open_buffer(client, path, text)
    whole = types.Range(types.Position(0, 0), types.Position(0, 0))
    (fix_all,) = await actions(client, path, whole, only=[FIX_ALL])
    fixed = applied(text, only_edit(fix_all, path.as_uri()))
    assert fixed.startswith("\ufeff") and not fixed.startswith("\ufeff\ufeff")


async def test_projects_do_not_see_each_other(client, tmp_path):
    # Project b sets the flag from outside; project a never does, so its branch is folded away.
    flagged = ("import numpy as np\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n"
               "    def __init__(self):\n        super().__init__()\n        self.use_numpy = False\n\n"
               "    def construct(self, x):\n        if self.use_numpy:\n"
               "            return np.exp(x)\n        return x\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = project(tmp_path / "a", flagged)
    b = project(tmp_path / "b", "def toggle(thing):\n    thing.use_numpy = True\n")
    assert await open_buffer(client, a) == []
    await open_buffer(client, b)
    assert await replace_buffer(client, a, flagged + "\n", 2) == []


async def test_another_tools_settings_leave_ours_alone(strict_client, tmp_path):
    path = project(tmp_path, BAD)
    assert [d.severity for d in await open_buffer(strict_client, path)] == \
        [types.DiagnosticSeverity.Error]
    strict_client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"python": {"analysis": {"typeCheckingMode": "basic"}}}))
    assert await replace_buffer(strict_client, path, BAD + "\n", 2) != []
    assert [d.severity for d in strict_client.diagnostics[path.as_uri()]] == \
        [types.DiagnosticSeverity.Error]


async def test_closing_a_buffer_clears_its_diagnostics(client, tmp_path):
    path = project(tmp_path, GOOD)
    assert await open_buffer(client, path, BAD) != []
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        types.TextDocumentIdentifier(uri=path.as_uri())))
    assert await published(client, path.as_uri()) == []


# ----- code actions ---------------------------------------------------------------------------------

async def test_quick_fix_applies_and_leaves_a_file_that_parses(client, tmp_path):
    path = project(tmp_path, DETACH)
    found = await open_buffer(client, path)
    assert [d.code for d in found] == ["E8767:detach-call"]
    offered = await actions(client, path, found[0].range)
    fixes = [a for a in offered if a.kind == types.CodeActionKind.QuickFix and a.is_preferred]
    assert len(fixes) == 1 and "detach-call" in fixes[0].title
    assert fixes[0].diagnostics and fixes[0].diagnostics[0].code == "E8767:detach-call"
    fixed = applied(DETACH, only_edit(fixes[0], path.as_uri()))
    ast.parse(fixed)
    assert "ops.stop_gradient(x)" in fixed and "你好 😀" in fixed
    assert await replace_buffer(client, path, fixed, 2) == []


async def test_unsafe_fixes_are_offered_marked_and_not_preferred(client, tmp_path):
    text = BAD.replace("np.where(x > 0, x, 0)", "np.exp(x)")
    path = project(tmp_path, text)
    found = await open_buffer(client, path)
    assert [d.data["fix"] for d in found] == ["unsafe"]
    offered = await actions(client, path, found[0].range)
    marked = [a for a in offered if "[unsafe" in a.title]
    assert len(marked) == 1 and not marked[0].is_preferred
    assert "ops.exp(x)" in applied(text, only_edit(marked[0], path.as_uri()))
    # Fix-all takes the safe fixes only, as --fix does without --unsafe-fixes.
    whole = types.Range(types.Position(0, 0), types.Position(0, 0))
    assert await actions(client, path, whole, only=[FIX_ALL]) == []


async def test_disable_on_this_line_silences_the_finding(client, tmp_path):
    path = project(tmp_path, BAD)
    found = await open_buffer(client, path)
    offered = await actions(client, path, found[0].range, only=[types.CodeActionKind.QuickFix])
    disable = [a for a in offered if a.title == "Disable host-call-on-tensor on this line"]
    assert len(disable) == 1
    silenced = applied(BAD, only_edit(disable[0], path.as_uri()))
    assert "# pylint: disable=host-call-on-tensor" in silenced.splitlines()[6]
    assert await replace_buffer(client, path, silenced, 2) == []


async def test_fix_all_is_idempotent(client, tmp_path):
    text = DETACH.replace("return y * 2", "return y.detach() * 2")
    path = project(tmp_path, text)
    found = await open_buffer(client, path)
    assert len(found) == 2
    whole = types.Range(types.Position(0, 0), types.Position(0, 0))
    offered = await actions(client, path, whole, only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in offered] == [FIX_ALL]
    fixed = applied(text, only_edit(offered[0], path.as_uri()))
    assert fixed.count("ops.stop_gradient") == 2
    assert await replace_buffer(client, path, fixed, 2) == []
    assert await actions(client, path, whole, only=[FIX_ALL]) == []


async def test_a_buffer_that_does_not_parse_shows_the_parsers_error_and_keeps_the_last_findings(
        client, tmp_path):
    path = project(tmp_path, BAD)
    (kept,) = await open_buffer(client, path)
    broken = BAD.replace("x > 0, x, 0", "x > 0 x, 0")
    with pytest.raises(SyntaxError) as parser:
        ast.parse(broken)
    error, old = await replace_buffer(client, path, broken, 2)
    assert error.code == "E8700:syntax-error"
    assert error.message == parser.value.msg == "invalid syntax. Perhaps you forgot a comma?"
    assert (error.range.start.line, error.range.start.character,
            error.range.end.line, error.range.end.character) == \
        (parser.value.lineno - 1, parser.value.offset - 1,
         parser.value.end_lineno - 1, parser.value.end_offset - 1)
    # The findings of the last text that parsed stay, said to be that, until it parses again.
    assert old.code == kept.code and old.range == kept.range
    assert old.message == f"{kept.message} [from the last version that parsed]"
    assert old.data["stale"] is True and "stale" not in kept.data
    again = await replace_buffer(client, path, BAD, 3)
    assert [(d.code, d.message) for d in again] == [(kept.code, kept.message)]
    # Nothing that parsed before: the parser's error alone; where it gives no end, one character.
    other = project(tmp_path, GOOD, "other.py")
    (only,) = await open_buffer(client, other, "x = 1\ny = f(x,\n")
    assert only.message == "'(' was never closed"
    assert (only.range.start.line, only.range.start.character, only.range.end.line,
            only.range.end.character) == (1, 5, 1, 6)


def lsp_messages(stream: bytes) -> list[dict]:
    bodies = re.split(rb"Content-Length: \d+\r\n(?:[^\r\n]+\r\n)*\r\n", stream)
    return [json.loads(body) for body in bodies if body]


def test_every_request_is_answered_and_bad_input_gives_no_traceback(tmp_path):
    """Written to the server's stdin as raw JSON-RPC: a client library would refuse to send it."""
    path = project(tmp_path, BAD)
    document = {"uri": path.as_uri()}
    hover = "textDocument/hover"
    sent = [
        {"id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"method": "initialized", "params": {}},
        {"id": 2, "method": hover, "params": {"textDocument": document}},  # no position
        {"id": 3, "method": hover, "params": {"textDocument": document,
                                              "position": {"line": "one", "character": 0}}},
        {"id": 4, "method": hover, "params": None},
        {"method": "textDocument/didOpen", "params": {"textDocument": document}},  # no text
        "{not json",
        {"id": 5, "method": "msgraphlint/nothing"},  # no such method, and no params
        {"id": 6, "method": hover, "params": {"textDocument": document,
                                              "position": {"line": 0, "character": 0}}},
        {"id": 7, "method": "shutdown"},
        {"id": 8, "method": hover, "params": {"textDocument": document,
                                              "position": {"line": 0, "character": 0}}},
        {"method": "exit"},
    ]
    bodies = [message.encode() if isinstance(message, str)
              else json.dumps({"jsonrpc": "2.0", **message}).encode() for message in sent]
    stdin = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body) for body in bodies)
    done = subprocess.run(SERVER, input=stdin, capture_output=True, timeout=120)
    received = lsp_messages(done.stdout)
    answers = [(m.get("id"), m["error"]["code"] if "error" in m else None)
               for m in received if "method" not in m]
    assert answers == [(1, None), (2, -32602), (3, -32602), (4, -32602), (None, -32700),
                       (5, -32601), (6, None), (7, None), (8, -32600)]
    errors = {m.get("id"): m["error"]["message"] for m in received if "error" in m}
    assert "position" in errors[2] and "line" in errors[3]
    logged = " ".join(m["params"]["message"] for m in received
                      if m.get("method") == "window/logMessage")
    assert "textDocument/didOpen: invalid params" in logged
    assert not [m for m in received if m.get("method") == "window/showMessage"]
    assert done.returncode == 0 and b"Traceback" not in done.stderr

# ----- hover ---------------------------------------------------------------------------------------

async def test_hover_shows_the_rules_page(client, tmp_path):
    path = project(tmp_path, BAD)
    found = await open_buffer(client, path)
    inside = types.Position(found[0].range.start.line, found[0].range.start.character + 2)
    shown = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=inside))
    assert shown is not None and shown.contents.kind == types.MarkupKind.Markdown
    assert rule_page(find_rule("host-call-on-tensor")) in shown.contents.value
    outside = types.Position(0, 0)
    assert await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=outside)) is None


# ----- analysis off the request loop ---------------------------------------------------------------

# Five hundred Cells: an analysis that takes a second or more.
SLOW = "import numpy as np\nfrom mindspore import nn\n" + "".join(
    f"\n\nclass Net{i}(nn.Cell):\n    def construct(self, x):\n        y = np.where(x > 0, x, 0)\n"
    f"        for k in range(3):\n            y = y + x * k\n        return y\n" for i in range(500))


def change(client: LanguageClient, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


async def test_a_hover_during_a_long_analysis_is_answered_from_the_last_results(client, tmp_path):
    path = project(tmp_path, BAD)
    (finding,) = await open_buffer(client, path)
    change(client, path, SLOW, 2)
    await asyncio.sleep(DEBOUNCE_SECONDS + 0.2)  # the analysis of the new text is under way
    publication = asyncio.ensure_future(published(client, path.as_uri()))
    hover = asyncio.ensure_future(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=finding.range.start)))
    done, _ = await asyncio.wait({hover, publication}, return_when=asyncio.FIRST_COMPLETED)
    assert hover in done and publication not in done
    assert "**W8720 host-call-on-tensor**" in hover.result().contents.value
    assert len(await publication) == 500


async def test_an_edit_supersedes_the_analysis_of_an_older_text(client, tmp_path):
    path = project(tmp_path, GOOD)
    await open_buffer(client, path)
    change(client, path, SLOW, 2)
    await asyncio.sleep(DEBOUNCE_SECONDS + 0.2)  # under way: it ends, but is not published
    change(client, path, SLOW.replace("class Net0(", "class Other("), 3)
    change(client, path, BAD, 4)  # before version 3 was analysed: it never is
    params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert params.version == 4
    assert [d.code for d in params.diagnostics] == ["W8720:host-call-on-tensor"]


# ----- the bundled ported models, against the CLI --------------------------------------------------

def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "msgraphlint.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("model", PORTED_MODELS, ids=lambda path: path.name)
async def test_ported_models_match_the_cli(client, tmp_path, model):
    editor_copy, cli_copy = tmp_path / "editor" / model.name, tmp_path / "cli" / model.name
    shutil.copytree(model, editor_copy)
    shutil.copytree(model, cli_copy)
    reported = json.loads(cli("check", "--no-cache", "--format", "json", ".", cwd=editor_copy).stdout)
    cli("check", "--no-cache", "--fix", ".", cwd=cli_copy)
    for path in sorted(editor_copy.glob("*.py")):
        relative = path.relative_to(editor_copy).as_posix()
        expected = {(f["line"] - 1, f["rule_id"]) for f in reported if f["path"] == relative}
        found = await open_buffer(client, path)
        assert {(d.range.start.line, d.code.split(":")[0]) for d in found} == expected, relative
        text = path.read_text("utf-8")
        for finding in (f for f in reported if f["path"] == relative and f.get("fix")):
            where = types.Range(types.Position(finding["line"] - 1, finding["column"] - 1),
                                types.Position(finding["end_line"] - 1, finding["end_column"] - 1))
            titles = [a.title for a in await actions(client, path, where)]
            assert any(finding["fix"]["description"] in title for title in titles), (relative, titles)
        whole = types.Range(types.Position(0, 0), types.Position(0, 0))
        fix_all = await actions(client, path, whole, only=[FIX_ALL])
        after = applied(text, only_edit(fix_all[0], path.as_uri())) if fix_all else text
        assert after == (cli_copy / relative).read_text("utf-8"), relative


# ----- settings, without the protocol --------------------------------------------------------------

def test_editor_settings_are_parsed_like_the_cli_options():
    settings, problems = EditorSettings.parse(
        {"msgraphlint": {"syntax-level": "STRICT", "device": "gpu", "ignore": "W8720,third-party",
                         "unknown": 1}})
    assert settings.level.value == "strict" and settings.device == "GPU"
    assert "W8720" in settings.ignore and len(settings.ignore) > 1
    assert problems == ["unknown setting 'unknown' (known: syntaxLevel, device, select, ignore, "
                        "targetVersion)"]
    settings, problems = EditorSettings.parse({"syntaxLevel": 3})
    assert settings.level is None and "syntax level 3" in problems[0]
    assert EditorSettings.parse(["lax"])[1] == ["settings: expected an object, got list"]


def test_the_editor_chooses_the_target_version():
    settings, problems = EditorSettings.parse({"targetVersion": "2.7.0"})
    assert problems == [] and settings.over(Config()).target_version == "2.7"
    settings, problems = EditorSettings.parse({"targetVersion": "1.0"})
    assert settings.target_version is None
    assert problems and "no API snapshot of MindSpore 1.0" in problems[0]


def test_without_the_server_extra_the_command_says_how_to_install_it():
    hide = ("import sys; sys.modules['pygls'] = None; sys.modules['lsprotocol'] = None; "
            "sys.argv = ['msgraphlint', 'server']; from msgraphlint.cli import main; main()")
    result = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2
    assert "pip install 'msgraphlint[server]'" in result.stderr
    assert "Traceback" not in result.stderr


# ----- start-up ----------------------------------------------------------------------------------

# Runs the server as the `msgraphlint` script does, with its stdout wrapped so that the first
# write (the initialize reply) records which modules the process had loaded by then.
MODULES_AT_FIRST_REPLY = r'''
import json, sys

class Probe:
    def __init__(self, stream, record):
        self.stream, self.record, self.seen = stream, record, False
    def write(self, data):
        if not self.seen:
            self.seen = True
            with open(self.record, "w") as out:
                json.dump(sorted(sys.modules), out)
        return self.stream.write(data)
    def __getattr__(self, name):
        return getattr(self.stream, name)

class Stdout:
    def __init__(self, real, record):
        self.real, self.buffer = real, Probe(real.buffer, record)
    def __getattr__(self, name):
        return getattr(self.real, name)

sys.stdout = Stdout(sys.stdout, sys.argv[1])
sys.argv = ["msgraphlint", "server"]
from msgraphlint.cli import main
main()
'''


def test_initialize_is_answered_before_the_engine_pygls_and_typer_are_imported(tmp_path):
    record = tmp_path / "modules.json"
    sent = [{"id": 1, "method": "initialize",
             "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}},
            {"method": "initialized", "params": {}},
            {"id": 2, "method": "shutdown"}, {"method": "exit"}]
    bodies = [json.dumps({"jsonrpc": "2.0", **message}).encode() for message in sent]
    stdin = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body) for body in bodies)
    done = subprocess.run([sys.executable, "-c", MODULES_AT_FIRST_REPLY, str(record)], input=stdin,
                          capture_output=True, timeout=120)
    loaded = json.loads(record.read_text())
    heavy = [name for name in loaded if name.split(".")[0] in ("pygls", "lsprotocol", "astroid",
                                                               "pylint", "mindspore", "typer",
                                                               "click", "rich")
             or name.startswith(("msgraphlint.engine", "msgraphlint.knowledge",
                                 "msgraphlint.model", "msgraphlint.values",
                                 "msgraphlint.server.lsp", "msgraphlint.server.session"))]
    assert heavy == []
    # Answered once (pygls' own reply to the replayed request is dropped), then served by pygls.
    replies = [(m.get("id"), "result" in m) for m in lsp_messages(done.stdout) if "method" not in m]
    assert replies == [(1, True), (2, True)]
    assert done.returncode == 0 and b"Traceback" not in done.stderr


def pygls_initialize_result(client: types.ClientCapabilities) -> dict:
    """What pygls computes for the server's features and this client (lsp_initialize's builder)."""
    from pygls.capabilities import ServerCapabilitiesBuilder

    from msgraphlint.server.lsp import server

    protocol = server.protocol
    built = ServerCapabilitiesBuilder(
        client, set({**protocol.fm.features, **protocol.fm.builtin_features}),
        protocol.fm.feature_options, list(protocol.fm.commands), server._text_document_sync_kind,
        server._notebook_document_sync, ServerCapabilitiesBuilder.choose_position_encoding(client),
    ).build()
    return protocol._converter.unstructure(types.InitializeResult(
        capabilities=built, server_info=protocol.server_info))


@pytest.mark.parametrize("client", ["none", "will-save", "unknown-encoding",
                                    *sorted(path.stem for path in (
                                        Path(pytest_lsp.__file__).parent / "clients").glob("*.json"))])
def test_early_initialize_reply_is_pygls(client):
    """start.py answers initialize with what pygls would have sent this client."""
    from msgraphlint.server.start import capabilities

    if client == "none":
        sent = {}
    elif client == "will-save":
        sent = {"textDocument": {"synchronization": {"willSave": True, "willSaveWaitUntil": False}}}
    elif client == "unknown-encoding":
        sent = {"general": {"positionEncodings": ["utf-7"]}}
    else:
        sent = json.loads((Path(pytest_lsp.__file__).parent / "clients" / f"{client}.json")
                          .read_text())["capabilities"]
    structured = types.ClientCapabilities() if not sent else \
        pygls_converter().structure(sent, types.ClientCapabilities)
    assert capabilities(sent) == pygls_initialize_result(structured)


def pygls_converter():
    from msgraphlint.server.lsp import server

    return server.protocol._converter
