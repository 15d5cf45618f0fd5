"""Editors, through the real tools: pylint run exactly as VS Code's and PyCharm's pylint
integrations run it, and the CLI as a PyCharm External Tool, all with the settings docs/editors.md
gives (read from the page, so the page and the tests cannot drift apart)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from .samples_index import ROOT

EDITORS_PAGE = ROOT / "docs" / "editors.md"
# An unsaved buffer: Chinese text before the finding on its line, and lines the disk lacks.
BUFFER = textwrap.dedent(
    """
    import math
    from mindspore import nn

    class Net(nn.Cell):
        '''把 PyTorch 模型移植到 MindSpore。'''

        def construct(self, x):
            说明 = "输出"; return 说明, math.sqrt(x.sum())
    """
).lstrip()
FLAGGED_LINE = 8
# What the VS Code extension (microsoft/vscode-pylint) always passes before pylint.args.
VSCODE_TOOL_ARGS = ["--reports=n", "--output-format=json2"]
# PyCharm's $FILE_PATH$, $LINE$ and $COLUMN$ in an output filter (RegexpFilter).
INTELLIJ_MACROS = {
    "$FILE_PATH$": r"((?:\p{Alpha}\:)?[0-9 a-z_A-Z\-\\./]+)".replace(r"\p{Alpha}", "[A-Za-z]"),
    "$LINE$": "([0-9]+)",
    "$COLUMN$": "([0-9]+)",
}


def documented_block(marker: str, language: str) -> str:
    text = EDITORS_PAGE.read_text("utf-8")
    block = re.search(rf"<!-- {marker} -->\s*```{language}\n(.*?)```", text, re.S)
    assert block, f"docs/editors.md lost its <!-- {marker} --> block"
    return block.group(1)


def flagged_columns() -> tuple[int, int]:
    """0-based start and end of `math.sqrt(x.sum())`, in characters."""
    line = BUFFER.splitlines()[FLAGGED_LINE - 1]
    start = line.index("math.sqrt")
    return start, start + len("math.sqrt(x.sum())")


def pylint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "pylint", *args], cwd=cwd, input=stdin,
                            capture_output=True, text=True, encoding="utf-8")
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "net.py").write_text("x = 1\n")  # on disk: not what is being edited
    return tmp_path


def test_vscode_settings_lint_the_unsaved_buffer(workspace):
    settings = json.loads(documented_block("vscode-settings", "json"))
    assert settings["pylint.importStrategy"] == "fromEnvironment"
    document = str((workspace / "models" / "net.py").resolve())
    result = pylint(*VSCODE_TOOL_ARGS, *settings["pylint.args"], "--from-stdin", document,
                    cwd=workspace, stdin=BUFFER)
    report = json.loads(result.stdout)
    assert "statistics" in report  # the extension reads the score from there
    (message,) = report["messages"]
    start, end = flagged_columns()
    assert {key: message[key] for key in
            ("messageId", "symbol", "type", "line", "column", "endLine", "endColumn")} == {
        "messageId": "W8720",
        "symbol": "host-call-on-tensor",
        "type": "warning",
        "line": FLAGGED_LINE,
        "column": start,
        "endLine": FLAGGED_LINE,
        "endColumn": end,
    }
    assert message["absolutePath"] == document
    assert "math.sqrt" in message["message"] and "ops.sqrt" in message["message"]


def test_vscode_with_the_plugin_configured_in_pyproject(workspace):
    """No pylint.args at all: load-plugins and the level come from [tool.pylint.main]."""
    (workspace / "pyproject.toml").write_text(
        '[tool.pylint.main]\nload-plugins = ["msgraphlint"]\nmsgraph-syntax-level = "strict"\n'
    )
    document = str((workspace / "models" / "net.py").resolve())
    result = pylint(*VSCODE_TOOL_ARGS, "--from-stdin", document, cwd=workspace, stdin=BUFFER)
    ours = [m for m in json.loads(result.stdout)["messages"] if m["messageId"] == "W8720"]
    (message,) = ours
    assert message["message"].endswith("[error at strict]")
    assert message["column"] == flagged_columns()[0]


def test_pycharm_plugin_arguments(workspace):
    """The Pylint plugin runs `pylint -f json <Arguments> <files>` from the project folder."""
    (workspace / "models" / "net.py").write_text(BUFFER, "utf-8")
    arguments = shlex.split(documented_block("pycharm-pylint-arguments", "text"))
    result = pylint("-f", "json", *arguments, "models/net.py", cwd=workspace)
    (message,) = json.loads(result.stdout)
    start, end = flagged_columns()
    assert (message["message-id"], message["symbol"], message["line"], message["column"]) == (
        "W8720", "host-call-on-tensor", FLAGGED_LINE, start)
    assert message["endColumn"] == end
    assert message["path"] == "models/net.py"


def external_tool() -> dict[str, str]:
    fields = documented_block("pycharm-external-tool", "text").strip().splitlines()
    return dict(field.split(": ", 1) for field in fields)


def expand_pycharm_macros(text: str, file: Path) -> str:
    interpreter_directory = str(Path(sys.executable).parent)  # the venv's bin, as in PyCharm
    return text.replace("$PyInterpreterDirectory$", interpreter_directory).replace(
        "$FilePath$", str(file)).replace("$FileDir$", str(file.parent))


def test_pycharm_external_tool_output_links_to_the_finding(workspace):
    (workspace / "pyproject.toml").write_text('[tool.msgraphlint]\nsyntax-level = "strict"\n')
    net = workspace / "models" / "net.py"
    net.write_text(BUFFER, "utf-8")
    tool = external_tool()
    program = expand_pycharm_macros(tool["Program"], net)
    if not Path(program).exists():
        pytest.skip("the msgraphlint script is not beside this interpreter")
    arguments = shlex.split(expand_pycharm_macros(tool["Arguments"], net))
    result = subprocess.run([program, *arguments], capture_output=True, text=True, encoding="utf-8",
                            cwd=expand_pycharm_macros(tool["Working directory"], net))
    assert result.returncode == 1, result.stderr
    pattern = re.escape(tool["Output filters"])
    for macro, regexp in INTELLIJ_MACROS.items():
        pattern = pattern.replace(re.escape(macro), regexp)
    (line,) = [line for line in result.stdout.splitlines() if "W8720" in line]
    match = re.search(pattern, line)
    assert match, line
    path, line_number, column = match.groups()
    assert Path(path).is_absolute() and Path(path).resolve() == net.resolve()
    assert (int(line_number), int(column)) == (FLAGGED_LINE, flagged_columns()[0] + 1)
    assert "Found 1 problem (1 error)" in result.stdout  # pyproject.toml still applied


# ----- the language server, started as each editor's documented configuration starts it ----------

def lsp_exchange(command: list[str], cwd: Path, options: object) -> dict:
    """initialize, shutdown and exit, over the server's stdio; the initialize result."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": cwd.as_uri(), "capabilities": {},
                    "initializationOptions": options}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    ]
    framed = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                      for body in (json.dumps(m).encode("utf-8") for m in messages))
    result = subprocess.run(command, input=framed, capture_output=True, cwd=cwd, timeout=120)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    replies, rest = [], result.stdout
    while rest:
        headers, _, rest = rest.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", headers).group(1))
        replies.append(json.loads(rest[:length]))
        rest = rest[length:]
    (initialized,) = [reply for reply in replies if reply.get("id") == 1]
    return initialized["result"]


def installed_script(name: str) -> str:
    script = Path(sys.executable).parent / name
    if not script.exists():
        pytest.skip(f"the {name} script is not beside this interpreter")
    return str(script)


def assert_serves_msgraphlint(result: dict) -> None:
    capabilities = result["capabilities"]
    assert result["serverInfo"]["name"] == "msgraphlint"
    assert "source.fixAll.msgraphlint" in capabilities["codeActionProvider"]["codeActionKinds"]
    assert capabilities["hoverProvider"]
    assert capabilities["textDocumentSync"]["save"] is not None


def test_helix_configuration_starts_the_server(workspace):
    import tomllib

    config = tomllib.loads(documented_block("helix-languages", "toml"))
    server = config["language-server"]["msgraphlint"]
    assert "msgraphlint" in config["language"][0]["language-servers"]
    command = [installed_script(server["command"]), *server["args"]]
    assert_serves_msgraphlint(lsp_exchange(command, workspace, server["config"]))


def test_neovim_configuration_starts_the_server(workspace):
    block = documented_block("neovim-config", "lua")
    cmd = re.search(r"cmd = \{ (.*?) \}", block).group(1)
    command = [part.strip().strip("'") for part in cmd.split(",")]
    options = dict(re.findall(r"(\w+) = '(\w+)'", re.search(r"init_options = \{(.*?)\}",
                                                            block).group(1)))
    assert command[0] == "msgraphlint" and "vim.lsp.enable('msgraphlint')" in block
    assert_serves_msgraphlint(lsp_exchange([installed_script(command[0]), *command[1:]],
                                           workspace, options))


def test_pycharm_lsp4ij_command_starts_the_server(workspace):
    text = documented_block("lsp4ij-command", "text").strip()
    program, *arguments = text.replace("$PROJECT_DIR$/.venv/bin/", "").split()
    assert_serves_msgraphlint(lsp_exchange([installed_script(program), *arguments], workspace,
                                           None))


def test_documented_server_settings_are_understood():
    from msgraphlint.server.session import EditorSettings

    settings, problems = EditorSettings.parse(json.loads(documented_block("server-settings",
                                                                          "json")))
    assert problems == [] and settings.level.value == "strict" and settings.select
    glspc = json.loads(documented_block("vscode-glspc-settings", "json"))
    assert glspc["glspc.server.commandArguments"] == ["server"]
    assert EditorSettings.parse(glspc["glspc.server.initializationOptions"])[1] == []


def test_vscode_extension_settings_are_the_extensions_own():
    manifest = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))
    declared = manifest["contributes"]["configuration"]["properties"]
    documented = json.loads(documented_block("vscode-extension-settings", "json"))
    assert {key for key in documented if key.startswith("msgraphlint.")} <= set(declared)
    assert documented["[python]"]["editor.codeActionsOnSave"] == {
        "source.fixAll.msgraphlint": "explicit"}
    # What the extension sends as settings is what the server understands.
    from msgraphlint.server.session import EditorSettings

    sent = {key.split(".", 1)[1]: spec["default"] for key, spec in declared.items()
            if key != "msgraphlint.command"}
    assert EditorSettings.parse(sent)[1] == []
    extension = (ROOT / "editors" / "vscode" / "extension.js").read_text("utf-8")
    assert all(f'{name}: config.get("{name}")' in extension for name in sent)
