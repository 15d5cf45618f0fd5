"""``msgraphlint server`` answers ``initialize`` before it imports anything heavy.

An editor waits for that reply before it shows the buffer as served, and importing pygls'
lsprotocol types alone takes 0.3 s, the engine as long again (issue 34: 2.4-2.8 s; ruff's server
answers in 5-16 ms). So this module, the standard library only, reads the first message; when it
is ``initialize`` it answers with the capabilities pygls would compute for the server's features
and this client (``capabilities``; tests/test_server.py checks that they agree for the clients
pytest-lsp knows), then starts the real server (``lsp.serve``) on the same stream with that
message replayed, so that pygls sets up its workspace and the settings from it, and drops pygls'
own reply to it. Anything else first, or params we cannot vouch for, is left to pygls whole.
"""

from __future__ import annotations

import json
import sys
from importlib.util import find_spec
from typing import BinaryIO

from ..version import __version__

# What pygls 2 builds for lsp.py's features (didOpen/Change/Save/Close, hover, code actions,
# watched files, configuration): keep in step with them (test_early_initialize_reply_is_pygls').
ENCODINGS = ("utf-8", "utf-16", "utf-32")
CODE_ACTION_KINDS = ["quickfix", "source.fixAll.msgraphlint"]


def capabilities(client: dict) -> dict:
    """The InitializeResult pygls would send this client, as JSON."""
    general = client.get("general") if isinstance(client.get("general"), dict) else {}
    offered = general.get("positionEncodings") or []
    encoding = next((kind for kind in offered if kind in ENCODINGS), "utf-16")
    sync: dict = {"openClose": True, "change": 1}  # whole texts (lsp.GraphLintServer)
    document = client.get("textDocument") if isinstance(client.get("textDocument"), dict) else {}
    synchronization = document.get("synchronization")
    if isinstance(synchronization, dict):
        # pygls answers `client's flag and a willSave handler`: there is none, so False when the
        # client says anything, nothing when it says nothing.
        for flag in ("willSave", "willSaveWaitUntil"):
            if synchronization.get(flag) is not None:
                said = synchronization[flag]
                sync[flag] = False if said else said
    sync["save"] = {"includeText": False}
    return {
        "capabilities": {
            "positionEncoding": encoding,
            "textDocumentSync": sync,
            "hoverProvider": True,
            "codeActionProvider": {"codeActionKinds": CODE_ACTION_KINDS},
            "executeCommandProvider": {"commands": []},
            "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True},
                          "fileOperations": {}},
        },
        "serverInfo": {"name": "msgraphlint", "version": __version__},
    }


def read_message(stream: BinaryIO) -> tuple[bytes, dict | None]:
    """The bytes of one framed message and its JSON (None when it is not a JSON object)."""
    raw = bytearray()
    length = None
    while True:
        line = stream.readline()
        raw += line
        if not line or line in (b"\r\n", b"\n"):
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            try:
                length = int(value.strip())
            except ValueError:
                return bytes(raw), None
    if not line or length is None:
        return bytes(raw), None
    body = stream.read(length)
    raw += body
    try:
        message = json.loads(body)
    except ValueError:
        return bytes(raw), None
    return bytes(raw), message if isinstance(message, dict) else None


def vouched_for(message: dict | None) -> bool:
    """An initialize request whose params pygls will take (we answer before it reads them)."""
    if message is None or message.get("method") != "initialize" or "id" not in message:
        return False
    params = message.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
        return False
    kinds = {"processId": int, "rootUri": str, "rootPath": str, "workspaceFolders": list,
             "locale": str, "trace": str, "clientInfo": dict}
    return all(params.get(name) is None or isinstance(params[name], kind)
               for name, kind in kinds.items())


class Replayed:
    """The client's stream with the bytes already read put back in front."""

    def __init__(self, first: bytes, rest: BinaryIO) -> None:
        self._first, self._rest = first, rest

    def readline(self) -> bytes:
        if self._first:
            line, found, self._first = self._first.partition(b"\n")
            return line + found if found else line + self._rest.readline()
        return self._rest.readline()

    def read(self, size: int) -> bytes:
        if self._first:
            taken, self._first = self._first[:size], self._first[size:]
            return taken + (self._rest.read(size - len(taken)) if len(taken) < size else b"")
        return self._rest.read(size)


def server_extra_missing() -> str | None:
    """Which of the server extra's packages is not importable (found without importing it)."""
    for name in ("pygls", "lsprotocol"):
        try:
            if find_spec(name) is None:
                return name
        except (ImportError, ValueError):  # ValueError: hidden by sys.modules[name] = None
            return name
    return None


def run() -> None:
    """Read the first message, answer it if it is initialize, then serve the rest with pygls."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    raw, message = read_message(stdin)
    answered = None
    if vouched_for(message):
        result = capabilities(message["params"]["capabilities"])
        body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode()
        stdout.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        stdout.flush()
        answered = message["id"]
    from .lsp import serve  # pygls, lsprotocol and the engine: after the reply

    serve(Replayed(raw, stdin), answered)
