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


# ----- the editors themselves, headless, with the documented configurations ------------------------
# Each test runs the real editor on a sample model with the block docs/editors.md gives, and reads
# the diagnostics it holds; it skips when the editor (or the client package) is not installed.

MODEL = ROOT / "samples" / "models" / "torch_port" / "model.py"
UNUSED_IMPORT = "import os\n"  # a finding of the other server beside msgraphlint (F401)
NOT_FOUND = "msgraphlint is not an executable on PATH"

NEOVIM_PROBE = r"""
local wanted = vim.split(os.getenv('PROBE_WANT') or '', ';;', { trimempty = true })
local function complete()
  local texts = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(texts, d.message) end
  local joined = table.concat(texts, '\n')
  for _, want in ipairs(wanted) do
    if not joined:find(want, 1, true) then return false end
  end
  return #texts > 0
end
vim.wait(tonumber(os.getenv('PROBE_SECONDS') or '60') * 1000, complete, 100)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format('%d %s %s', d.lnum + 1, d.source or '', d.message))
end
table.insert(lines, 'MESSAGES: ' .. vim.api.nvim_exec('messages', true):gsub('\n', ' | '))
vim.fn.writefile(lines, os.getenv('PROBE_OUT'))
"""

EMACS_PROBE = r"""
(package-activate-all)  ; what an interactive start does before init.el (batch mode skips it)
(require 'cl-lib)
(setq lsp-auto-guess-root t      ; lsp-mode asks for the project root once: this answers it
      lsp-enable-file-watchers nil lsp-restart 'ignore
      ;; lsp-mode keeps the roots it was given in a file: the test's folder, not the user's
      lsp-session-file (expand-file-name "lsp-session" (file-name-directory (getenv "PROBE_OUT"))))
(load (getenv "EDITOR_CONFIG") nil t)
(defun probe-complete (diagnostics)
  "Every PROBE_WANT text (separated by ;;) is in one of DIAGNOSTICS' texts."
  (and diagnostics
       (cl-every (lambda (want)
                   (cl-some (lambda (d) (string-match-p (regexp-quote want)
                                                        (flymake-diagnostic-text d)))
                            diagnostics))
                 (split-string (or (getenv "PROBE_WANT") "") ";;" t))))
(let ((deadline (+ (float-time) (string-to-number (or (getenv "PROBE_SECONDS") "60"))))
      found lines)
  (condition-case failure
      (progn
        (find-file (getenv "PROBE_FILE"))
        (run-hooks 'post-command-hook)  ; eglot-ensure connects on the next command
        (when (and (featurep 'lsp-mode) (not (bound-and-true-p lsp-mode)))
          (lsp))  ; lsp-deferred waits for a window, which batch mode lacks
        (while (and (< (float-time) deadline)
                    (not (probe-complete
                          (setq found (and (bound-and-true-p flymake-mode)
                                           (progn (flymake-start) (flymake-diagnostics)))))))
          (accept-process-output nil 0.2)))
    (error (message "PROBE ERROR: %s" (error-message-string failure))))
  (dolist (d found)
    (push (format "%d %s" (line-number-at-pos (flymake-diagnostic-beg d))
                  (flymake-diagnostic-text d))
          lines))
  (with-current-buffer (get-buffer-create "*Messages*")
    (push (concat "MESSAGES: " (replace-regexp-in-string "\n" " | " (buffer-string))) lines))
  (with-temp-file (getenv "PROBE_OUT")
    (insert (mapconcat #'identity (nreverse lines) "\n") "\n")))
(kill-emacs 0)
"""


def editor_project(tmp_path: Path, extra: str = "") -> Path:
    """A project holding the ported model (six findings, lines 8 to 30), and its file."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    model = tmp_path / "model.py"
    model.write_text(MODEL.read_text("utf-8") + extra, "utf-8")
    return model


def search_path(with_msgraphlint: bool) -> str:
    """PATH with this environment's scripts first, or without any folder holding msgraphlint."""
    import os
    import shutil

    folders = [f for f in os.environ.get("PATH", "").split(os.pathsep) if f]
    if with_msgraphlint:
        return os.pathsep.join([str(Path(sys.executable).parent), *folders])
    kept = [f for f in folders if not (Path(f) / "msgraphlint").exists()
            and Path(f).resolve() != Path(sys.executable).parent.resolve()]
    assert shutil.which("msgraphlint", path=os.pathsep.join(kept)) is None
    return os.pathsep.join(kept)


def run_editor(command: list[str], model: Path, environment: dict[str, str], want: list[str],
               seconds: int = 60) -> list[str]:
    """The editor's diagnostics as `line text` lines, then a `MESSAGES: ...` line."""
    import os

    out = model.parent / "probe.out"
    env = {**os.environ, **environment, "PROBE_OUT": str(out), "PROBE_FILE": str(model),
           "PROBE_WANT": ";;".join(want), "PROBE_SECONDS": str(seconds)}
    subprocess.run(command, cwd=model.parent, env=env, capture_output=True,
                   timeout=seconds + 60, stdin=subprocess.DEVNULL)
    assert out.exists(), "the editor ended before the probe wrote what it saw"
    return out.read_text("utf-8").splitlines()


def neovim_version() -> tuple[int, int] | None:
    import shutil

    if shutil.which("nvim") is None:
        return None
    shown = subprocess.run(["nvim", "--version"], capture_output=True, text=True).stdout
    found = re.search(r"NVIM v(\d+)\.(\d+)", shown)
    return (int(found.group(1)), int(found.group(2))) if found else None


def run_neovim(block: str, model: Path, with_msgraphlint: bool = True, want=(),
               seconds: int = 60) -> list[str]:
    config, probe = model.parent / "init.lua", model.parent / "probe.lua"
    config.write_text(block, "utf-8")
    probe.write_text(NEOVIM_PROBE, "utf-8")
    return run_editor(["nvim", "--headless", "-u", str(config), "-i", "NONE", str(model),
                       "-c", f"luafile {probe}", "-c", "qa!"],
                      model, {"PATH": search_path(with_msgraphlint)}, list(want), seconds)


MODEL_FINDINGS = ["ms_function", "construct", "x.cuda()", "features.size(0)", "np.mean",
                  "flat.detach()"]


def assert_model_findings(seen: list[str]) -> None:
    lines = sorted(int(line.split()[0]) for line in seen if not line.startswith("MESSAGES:"))
    assert lines == [8, 16, 27, 28, 29, 30], seen
    assert all(any(text in line for line in seen) for text in MODEL_FINDINGS), seen


def test_neovim_0_7_to_0_10_configuration_shows_the_diagnostics(tmp_path):
    version = neovim_version()
    if version is None or version < (0, 7):
        pytest.skip("Neovim 0.7 or later is not installed")
    model = editor_project(tmp_path)
    seen = run_neovim(documented_block("neovim-legacy-config", "lua"), model,
                      want=MODEL_FINDINGS)
    assert_model_findings(seen)
    assert all(" msgraphlint " in line for line in seen if not line.startswith("MESSAGES:"))


def test_neovim_0_7_to_0_10_configuration_says_when_msgraphlint_is_missing(tmp_path):
    version = neovim_version()
    if version is None or version < (0, 7):
        pytest.skip("Neovim 0.7 or later is not installed")
    seen = run_neovim(documented_block("neovim-legacy-config", "lua"), editor_project(tmp_path),
                      with_msgraphlint=False, seconds=2)
    (messages,) = seen  # no diagnostic, one warning, and no Lua error
    assert NOT_FOUND in messages and "Error" not in messages


def test_neovim_0_11_configuration_shows_the_diagnostics(tmp_path):
    version = neovim_version()
    if version is None or version < (0, 11):
        pytest.skip(f"Neovim 0.11 or later is not installed (found {version})")
    model = editor_project(tmp_path)
    assert_model_findings(run_neovim(documented_block("neovim-config", "lua"), model,
                                     want=MODEL_FINDINGS))
    seen = run_neovim(documented_block("neovim-config", "lua"), editor_project(tmp_path / "gone"),
                      with_msgraphlint=False, seconds=2)
    assert NOT_FOUND in seen[-1]


# Before 0.11, a stand-in for vim.lsp.config / vim.lsp.enable as 0.11 documents them (the config
# of a name; enable attaches a client with it to each buffer of its filetypes, one per root), so
# that the 0.11 block is run, and its values start the server, on the Neovim Debian ships.
NEOVIM_0_11_STAND_IN = r"""
if not vim.lsp.config then
  local configs = {}
  vim.lsp.config = function(name, config) configs[name] = config end
  vim.lsp.enable = function(name)
    local config, clients = configs[name], {}
    vim.api.nvim_create_autocmd('FileType', {
      pattern = config.filetypes,
      callback = function(args)
        local file = vim.api.nvim_buf_get_name(args.buf)
        local root = vim.fn.getcwd()
        for _, marker in ipairs(config.root_markers) do
          local found = vim.fn.findfile(marker, vim.fn.fnamemodify(file, ':p:h') .. ';')
          if found ~= '' then root = vim.fn.fnamemodify(found, ':p:h') break end
        end
        clients[root] = clients[root] or vim.lsp.start_client({
          name = name, cmd = config.cmd, root_dir = root, init_options = config.init_options })
        vim.lsp.buf_attach_client(args.buf, clients[root])
      end,
    })
  end
end
"""


def test_neovim_0_11_configuration_with_a_stand_in_for_its_api(tmp_path):
    """Where Neovim is older than 0.11: the documented block runs, and what it gives
    vim.lsp.config starts the server and brings the diagnostics (or it says the command is
    missing)."""
    version = neovim_version()
    if version is None or version < (0, 7):
        pytest.skip("Neovim 0.7 or later is not installed")
    block = NEOVIM_0_11_STAND_IN + documented_block("neovim-config", "lua")
    assert_model_findings(run_neovim(block, editor_project(tmp_path), want=MODEL_FINDINGS))
    seen = run_neovim(block, editor_project(tmp_path / "gone"), with_msgraphlint=False,
                      seconds=2)
    assert seen == [seen[-1]] and NOT_FOUND in seen[-1] and "Error" not in seen[-1]


def emacs_has(feature: str) -> bool:
    import shutil

    if shutil.which("emacs") is None:
        return False
    probe = f"(progn (package-activate-all) (require '{feature}))"
    return subprocess.run(["emacs", "--batch", "-q", "--eval", probe], capture_output=True,
                          timeout=60).returncode == 0


def run_emacs(block: str, model: Path, with_path: str, want=(), seconds: int = 60) -> list[str]:
    config, probe = model.parent / "config.el", model.parent / "probe.el"
    config.write_text(block, "utf-8")
    probe.write_text(EMACS_PROBE, "utf-8")
    return run_editor(["emacs", "--batch", "-q", "-l", str(probe)], model,
                      {"PATH": with_path, "EDITOR_CONFIG": str(config)}, list(want), seconds)


def test_emacs_eglot_configuration_shows_the_diagnostics(tmp_path):
    if not emacs_has("eglot"):
        pytest.skip("Emacs with eglot is not installed")
    model = editor_project(tmp_path)
    seen = run_emacs(documented_block("emacs-eglot", "elisp"), model, search_path(True),
                     want=MODEL_FINDINGS)
    assert_model_findings(seen)
    missing = run_emacs(documented_block("emacs-eglot", "elisp"), editor_project(tmp_path / "gone"),
                        search_path(False), seconds=2)
    assert "Searching for program" in missing[-1] and "msgraphlint" in missing[-1]


def test_emacs_eglot_runs_msgraphlint_beside_ruff_through_rass(tmp_path):
    import shutil

    path = search_path(True)
    if not emacs_has("eglot") or not all(shutil.which(tool, path=path) for tool in ("rass", "ruff")):
        pytest.skip("Emacs with eglot, rass (pip install rassumfrassum) and ruff are not all installed")
    model = editor_project(tmp_path, UNUSED_IMPORT)
    seen = run_emacs(documented_block("emacs-eglot-two-servers", "elisp"), model, path,
                     want=[*MODEL_FINDINGS, "imported but unused"])
    assert any("Ruff" in line and "F401" in line for line in seen), seen
    assert_model_findings([line for line in seen if line.split()[:1] and
                           line.split()[0].isdigit() and "Ruff" not in line])


def test_emacs_lsp_mode_configuration_runs_beside_another_server(tmp_path):
    import shutil

    if not emacs_has("lsp-mode"):
        pytest.skip("Emacs with lsp-mode is not installed")
    path = search_path(True)
    beside = shutil.which("pylsp", path=path) is not None  # lsp-mode's own Python server
    model = editor_project(tmp_path, UNUSED_IMPORT if beside else "")
    want = [*MODEL_FINDINGS, *(["imported but unused"] if beside else [])]
    seen = run_emacs(documented_block("emacs-lsp-mode", "elisp"), model, path, want=want)
    ours = [line for line in seen if "imported but unused" not in line]
    assert_model_findings(ours)
    if beside:
        assert any("'os' imported but unused" in line for line in seen), seen
    missing = run_emacs(documented_block("emacs-lsp-mode", "elisp"),
                        editor_project(tmp_path / "gone"), search_path(False), seconds=2)
    assert "Connected to [msgraphlint" not in missing[-1]
    if not beside:  # alone, lsp-mode says which server it could not start
        assert "do not have automatic installation configuration: msgraphlint" in missing[-1]


def test_helix_health_finds_the_documented_server(tmp_path):
    import os
    import shutil

    if shutil.which("hx") is None:
        pytest.skip("Helix is not installed")
    config = tmp_path / "helix"
    config.mkdir()
    (config / "languages.toml").write_text(documented_block("helix-languages", "toml"), "utf-8")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "PATH": search_path(True)}
    shown = subprocess.run(["hx", "--health", "python"], capture_output=True, text=True, env=env,
                           timeout=60).stdout
    assert "msgraphlint" in shown and "not found" not in shown.split("msgraphlint", 1)[1].split("\n")[0]
