"""The language server: the protocol (pygls, lsprotocol) around :class:`~.session.Session`.

Diagnostics are published on open and save at once, and on change once the typing pauses
(``DEBOUNCE_SECONDS``). The analysis runs on a worker thread, one job after another in the order
the editor sent them (everything that touches the session runs there), so the protocol loop goes
on answering: a hover during an analysis is answered from the last results, and an edit makes the
analysis of an older text moot (it is not published, or not even started). A code action takes
the findings of the text the editor holds now. Whatever goes wrong with a file goes to the log,
never takes the server down.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cattrs import ClassValidationError, transform_error
from lsprotocol import types
from pygls.exceptions import (
    FeatureRequestError, JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest,
    JsonRpcParseError,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path

from ..docgen import rule_page
from ..engine.findings import Edit, Finding
from ..fix import SAFE, apply_to_file
from ..fix.edits import line_starts
from ..knowledge.catalogue import Severity
from ..version import __version__
from .session import (
    SETTING_NAMES, SETTINGS_SECTION, EditorSettings, FileReport, Session, suppression_edit,
)

DEBOUNCE_SECONDS = 0.1  # after the last keystroke; the analysis of a 1,000-line file takes ~0.1 s
SOURCE = "msgraphlint"
STALE_NOTE = "[from the last version that parsed]"
FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.msgraphlint"
SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.ADVICE: types.DiagnosticSeverity.Information,
}


_ANSWERED = object()  # a message already answered (or logged) that has nothing more to do


class GraphLintProtocol(LanguageServerProtocol):
    """pygls drops a message whose params its types do not admit (a hover without a position),
    with a traceback on stderr, and the client waits for ever: a request gets the JSON-RPC error
    instead, a notification a log message."""

    def structure_message(self, data: dict):
        method = data.get("method")
        message_type = self.get_message_type(method) if "jsonrpc" in data and \
            isinstance(method, str) else None
        if message_type is None:  # an object inside a message, a response, or an unknown method
            if "jsonrpc" in data and "method" in data and "params" not in data:
                data = {**data, "params": None}  # optional in JSON-RPC; pygls requires it
            return super().structure_message(data)
        try:
            return self._converter.structure(data, message_type)
        except Exception as error:  # noqa: BLE001 - what the client sent, not our failure
            problems = transform_error(error) if isinstance(error, ClassValidationError) \
                else [str(error)]
            problem = f"{method}: invalid params: {'; '.join(problems)}"
            if "id" in data:
                self._send_response(data["id"], error=JsonRpcInvalidParams(problem)
                                    .to_response_error())
            else:
                self._server.log(types.MessageType.Error, f"{problem} (ignored)")
            return _ANSWERED

    # The id of the initialize request start.py answered before pygls was loaded: pygls still
    # reads it (workspace, settings), and its own reply is not sent twice.
    answered_early: object = None

    def _send_response(self, msg_id, result=None, error=None):
        if self.answered_early is not None and msg_id == self.answered_early:
            self.answered_early = None
            if error is not None:
                self._server.log(types.MessageType.Error, f"initialize: {error.message}")
            return
        super()._send_response(msg_id, result, error)

    def handle_message(self, message) -> None:
        if message is _ANSWERED:
            return
        if self._shutdown and getattr(message, "method", "") != types.EXIT and \
                getattr(message, "id", None) is not None and hasattr(message, "method"):
            # pygls ignores a request after shutdown; the protocol says it fails.
            self._send_response(message.id, error=JsonRpcInvalidRequest(
                "the server is shutting down").to_response_error())
            return
        super().handle_message(message)


class GraphLintServer(LanguageServer):
    def __init__(self) -> None:
        # Whole texts: pygls applies increments with str.splitlines, which breaks lines at form
        # feeds and other characters the protocol does not, and its copy would drift.
        super().__init__("msgraphlint", __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Full,
                         protocol_cls=GraphLintProtocol)
        self.session = Session()  # used on the worker thread only
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="msgraphlint-analysis")
        self.reports: dict[str, tuple[int | None, FileReport]] = {}  # uri -> (version, report)
        self._pending: dict[str, asyncio.TimerHandle] = {}  # uri -> its debounced analysis
        self._running: dict[str, tuple[int, asyncio.Future]] = {}  # uri -> (version, its job)
        self._latest: dict[str, int] = {}  # uri -> the newest version the editor sent
        self._config_problems_shown: set[str] = set()
        self._not_files_logged: set[str] = set()
        self._analysed: dict[str, int] = {}  # uri -> the version last analysed
        self._last_parsed: dict[str, FileReport] = {}  # uri -> its last text's that parsed

    # ----- settings -------------------------------------------------------------------------

    def use_settings(self, options: object) -> None:
        """Settings the client sent as msgraphlint's: a ``msgraphlint`` section, or a flat
        object of our names. Anything else (another tool's section, nothing) keeps ours."""
        if options is None or options == {}:
            return
        if isinstance(options, dict) and SETTINGS_SECTION not in options and \
                not set(options) & set(SETTING_NAMES):
            return  # another tool's settings
        settings, problems = EditorSettings.parse(options)
        for problem in problems:
            self.log(types.MessageType.Warning, problem)
        self.session.settings = settings

    # ----- findings -------------------------------------------------------------------------

    def on_worker(self, work: Callable[[], object]) -> asyncio.Future:
        """``work()`` on the analysis thread, after the jobs already queued."""
        return asyncio.get_running_loop().run_in_executor(self.worker, work)

    def on_worker_logged(self, what: str, work: Callable[[], object]) -> None:
        """``work()`` on the analysis thread, nobody waiting for it: a failure is logged."""
        def ended(done: asyncio.Future) -> None:
            if not done.cancelled() and (error := done.exception()) is not None:
                self.log(types.MessageType.Error, f"{what}: {type(error).__name__}: {error}")
        self.on_worker(work).add_done_callback(ended)

    def analysis(self, uri: str) -> asyncio.Future | None:
        """The analysis of the document's text as it is now: the one queued or running already,
        or a new one. Its report is published when it ends, unless the text has changed since."""
        if (pending := self._pending.pop(uri, None)) is not None:
            pending.cancel()
        path = path_of(uri)
        if path is None or uri not in self.workspace.text_documents:
            if path is None and uri not in self._not_files_logged:
                self._not_files_logged.add(uri)
                self.log(types.MessageType.Info, f"{uri}: not a file on disk; msgraphlint checks"
                         " files")
            return None
        document = self.workspace.get_text_document(uri)
        version, text = document.version, document.source
        running = self._running.get(uri)
        if running is not None and running[0] == version:
            return running[1]
        self._latest[uri] = version
        job = self.on_worker(lambda: self._analyse(uri, path, text, version))
        self._running[uri] = (version, job)
        job.add_done_callback(lambda done: self._analysed_one(uri, version, done))
        return job

    def _analyse(self, uri: str, path: Path, text: str, version: int | None) -> FileReport | None:
        """On the worker: None when a newer text came while this one waited its turn."""
        if self._latest.get(uri) != version:
            return None
        self.session.change(path, text)
        return self.session.report(path)

    def _analysed_one(self, uri: str, version: int | None, done: asyncio.Future) -> None:
        """Back on the loop: keep the report, and publish it if it is of the text the editor
        holds (a newer text has its own analysis coming)."""
        if self._running.get(uri, (None, None))[1] is done:
            del self._running[uri]
        if done.cancelled():
            return
        if (error := done.exception()) is not None:
            self.log(types.MessageType.Error, f"{path_of(uri)}: internal error: "
                     f"{type(error).__name__}: {error}\n"
                     f"{''.join(traceback.format_exception(error))}")
            return
        report = done.result()
        if report is None or uri not in self.workspace.text_documents:
            return
        for message in report.internal_errors:
            self.log(types.MessageType.Error, f"internal error: {message}")
        self._show_config_problem(report.config_problem)
        self.reports[uri] = (version, report)
        if self._analysed.get(uri) != version:
            # The other open files' findings may read this buffer: recomputed when next asked
            # for, and republished on save and close.
            self._analysed[uri] = version
            for other in list(self.reports):
                if other != uri:
                    self.reports[other] = (None, self.reports[other][1])
        if self.workspace.get_text_document(uri).version == version:
            self.publish(uri, version, report)

    def publish(self, uri: str, version: int | None, report: FileReport) -> None:
        diagnostics = [self.diagnostic(report, finding) for finding in report.findings]
        if report.parses:
            self._last_parsed[uri] = report
        elif (last := self._last_parsed.get(uri)) is not None:
            # Half-typed code hides nothing: the findings of the last text that parsed stay, marked,
            # until the buffer parses again.
            diagnostics += [self.diagnostic(last, finding, stale=True) for finding in last.findings]
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=diagnostics))

    async def current_report(self, uri: str) -> FileReport | None:
        """The findings for the text the editor holds now (waiting for its analysis)."""
        while uri in self.workspace.text_documents:
            cached = self.reports.get(uri)
            version = self.workspace.get_text_document(uri).version
            if cached is not None and cached[0] == version and uri not in self._pending:
                return cached[1]
            job = self.analysis(uri)
            if job is None:
                return None
            try:
                await job
            except Exception:  # noqa: BLE001 - logged when the job ended
                return None
        return None  # a hover or code action on a file the editor has not opened

    def last_report(self, uri: str) -> FileReport | None:
        """The last findings while an analysis is under way, without waiting for it."""
        cached = self.reports.get(uri)
        if cached is not None and (self._running or uri in self._pending):
            return cached[1]
        return None

    def publish_later(self, uri: str) -> None:
        if (pending := self._pending.pop(uri, None)) is not None:
            pending.cancel()
        loop = asyncio.get_running_loop()
        self._pending[uri] = loop.call_later(DEBOUNCE_SECONDS, self._publish_quietly, uri)

    def _publish_quietly(self, uri: str) -> None:
        self._pending.pop(uri, None)
        if uri in self.workspace.text_documents:
            self.analysis(uri)

    def publish_all(self, first: str | None = None) -> None:
        """Every open document: ``first`` now, the others once the editor is quiet."""
        for uri in list(self.workspace.text_documents):
            if uri == first:
                self.analysis(uri)
            else:
                self.publish_later(uri)

    def _show_config_problem(self, problem: str | None) -> None:
        if problem and problem not in self._config_problems_shown:
            self._config_problems_shown.add(problem)
            self.window_show_message(types.ShowMessageParams(
                type=types.MessageType.Warning,
                message=f"msgraphlint: {problem}; checking with the defaults until it is fixed"))

    # ----- from findings to the protocol ----------------------------------------------------

    def diagnostic(self, report: FileReport, finding: Finding,
                   stale: bool = False) -> types.Diagnostic:
        """``stale``: a finding of the last text that parsed, shown while the buffer does not."""
        rule = finding.rule
        severity = finding.severity(report.config.level, report.config.device)
        related = None
        if finding.reached_from and finding.target_path and finding.target_line:
            where = types.Location(uri=from_fs_path(str(finding.target_path)),
                                   range=types.Range(types.Position(finding.target_line - 1, 0),
                                                     types.Position(finding.target_line - 1, 0)))
            related = [types.DiagnosticRelatedInformation(
                location=where, message=f"{finding.reached_from}: {finding.target} is compiled here")]
        where = self.range(report.lines, finding.line, finding.column, finding.end_line,
                           finding.end_column)
        message = finding.message
        if rule.symbol == "syntax-error" and report.syntax_error is not None:
            where = self.syntax_range(report.lines, report.syntax_error)
            message = report.syntax_error.msg  # the parser's own words
        data = {"id": rule.id, "symbol": rule.symbol,
                "fix": finding.fix.applicability if finding.fix else None}
        if stale:
            message = f"{message} {STALE_NOTE}"
            data["stale"] = True
        return types.Diagnostic(
            range=where,
            message=message,
            severity=SEVERITIES[severity],
            code=f"{rule.id}:{rule.symbol}",
            code_description=types.CodeDescription(href=rule.help_uri),
            source=SOURCE,
            related_information=related,
            data=data,
        )

    def syntax_range(self, lines: list[str], error: SyntaxError) -> types.Range:
        """Where the parser says the error is: from its offset to its end when it gives one,
        else the character at the offset (offsets are 1-based characters)."""
        line = min(max(error.lineno or 1, 1), max(len(lines), 1))
        column = max(error.offset or 1, 1)
        end_line, end_column = error.end_lineno or line, error.end_offset or 0
        if (end_line, end_column) <= (line, column):
            end_line, end_column = line, column + 1
        return self.range(lines, line, column, end_line, end_column)

    def range(self, lines: list[str], line: int, column: int, end_line: int,
              end_column: int) -> types.Range:
        """A range in the client's position encoding from 1-based lines and character columns."""
        codec = self.workspace.position_codec
        start = types.Position(line - 1, column - 1)
        end = types.Position(end_line - 1, end_column - 1)
        return codec.range_to_client_units(lines, types.Range(start, end))

    def position(self, lines: list[str], position: types.Position) -> tuple[int, int]:
        """A client position as a 1-based line and character column."""
        server = self.workspace.position_codec.position_from_client_units(lines, position)
        return server.line + 1, server.character + 1

    def text_edit(self, lines: list[str], edit: Edit) -> types.TextEdit:
        return types.TextEdit(range=self.range(lines, edit.line, edit.column, edit.end_line,
                                               edit.end_column), new_text=edit.content)

    def report_server_error(self, error: Exception, source) -> None:
        """pygls's own errors (a message that is not JSON) go to the log, not to a pop-up; a
        message that is not JSON gets the JSON-RPC parse error, as the protocol asks."""
        if source is FeatureRequestError:
            return  # answered with the error already
        if isinstance(error, ValueError) and not isinstance(error, JsonRpcException):
            self.protocol._send_response(None, error=JsonRpcParseError(
                f"not a JSON-RPC message: {error}").to_response_error())
        self.log(types.MessageType.Error, f"{type(error).__name__}: {error}")

    def log(self, kind: types.MessageType, message: str) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=f"msgraphlint: {message}"))


def path_of(uri: str) -> Path | None:
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return Path(path) if path else None


server = GraphLintServer()


def _guarded(handler: Callable) -> Callable:
    """A handler whose failure is logged, never raised into the protocol loop."""
    def failed(ls: GraphLintServer, error: Exception) -> None:
        ls.log(types.MessageType.Error, f"{handler.__name__}: {type(error).__name__}: {error}\n"
               f"{traceback.format_exc()}")

    if inspect.iscoroutinefunction(handler):
        async def run_async(ls: GraphLintServer, params):
            try:
                return await handler(ls, params)
            except Exception as error:  # noqa: BLE001
                failed(ls, error)
                return None
        run_async.__name__ = handler.__name__
        return run_async

    def run(ls: GraphLintServer, params):
        try:
            return handler(ls, params)
        except Exception as error:  # noqa: BLE001
            failed(ls, error)
            return None
    run.__name__ = handler.__name__
    return run


# ----- lifecycle and documents --------------------------------------------------------------------

@server.feature(types.INITIALIZE)
@_guarded
def initialize(ls: GraphLintServer, params: types.InitializeParams) -> None:
    ls.use_settings(params.initialization_options)


@server.feature(types.INITIALIZED)
async def initialized(ls: GraphLintServer, params: types.InitializedParams) -> None:
    """Ask the client to say when project files change on disk (a checkout, another tool): the
    engine reads them again (``Session.disk_changed``)."""
    watched = ls.client_capabilities.workspace and \
        ls.client_capabilities.workspace.did_change_watched_files
    if not (watched and watched.dynamic_registration):
        return
    watchers = [types.FileSystemWatcher(glob_pattern=pattern)
                for pattern in ("**/*.py", "**/pyproject.toml")]
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[
            types.Registration(id="msgraphlint-watched-files",
                               method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                               register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                   watchers=watchers))]))
    except Exception as error:  # noqa: BLE001 - without it, saves in the editor still count
        ls.log(types.MessageType.Info, f"file watching not registered: {error}")


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@_guarded
def did_open(ls: GraphLintServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.analysis(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@_guarded
def did_change(ls: GraphLintServer, params: types.DidChangeTextDocumentParams) -> None:
    # What is queued for an older text is not started; what runs is not published.
    ls._latest[params.text_document.uri] = params.text_document.version
    ls.publish_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
@_guarded
def did_save(ls: GraphLintServer, params: types.DidSaveTextDocumentParams) -> None:
    # The saved file is on disk now: the other open files may reach it through imports.
    if (path := path_of(params.text_document.uri)) is not None:
        ls.on_worker_logged("save", lambda: ls.session.disk_changed([path]))
    ls.publish_all(first=params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@_guarded
def did_close(ls: GraphLintServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    if (pending := ls._pending.pop(uri, None)) is not None:
        pending.cancel()
    ls.reports.pop(uri, None)
    ls._analysed.pop(uri, None)
    ls._last_parsed.pop(uri, None)
    ls._latest.pop(uri, None)
    if (path := path_of(uri)) is not None:
        ls.on_worker_logged("close", lambda: ls.session.close(path))
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    ls.publish_all()  # the others read the file from disk again


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@_guarded
def did_change_watched_files(ls: GraphLintServer,
                             params: types.DidChangeWatchedFilesParams) -> None:
    paths = [path for change in params.changes if (path := path_of(change.uri)) is not None]
    ls.on_worker_logged("files changed", lambda: ls.session.disk_changed(paths))
    ls.publish_all()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: GraphLintServer,
                                   params: types.DidChangeConfigurationParams) -> None:
    try:
        settings = params.settings
        if not settings and _can_pull_configuration(ls):
            pulled = await ls.workspace_configuration_async(types.ConfigurationParams(
                items=[types.ConfigurationItem(section="msgraphlint")]))
            settings = pulled[0] if pulled else None
        ls.use_settings(settings)
        ls.publish_all()
    except Exception as error:  # noqa: BLE001
        ls.log(types.MessageType.Error, f"settings: {type(error).__name__}: {error}")


def _can_pull_configuration(ls: GraphLintServer) -> bool:
    workspace = ls.client_capabilities.workspace
    return bool(workspace and workspace.configuration)


# ----- code actions ---------------------------------------------------------------------------------

@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND]),
)
@_guarded
async def code_action(ls: GraphLintServer,
                      params: types.CodeActionParams) -> list[types.CodeAction]:
    report = await ls.current_report(params.text_document.uri)
    if report is None:
        return []
    # The fixes are tried on the engine's project: on the worker, as everything that touches it.
    return await ls.on_worker(lambda: actions_for(ls, report, params))


def actions_for(ls: GraphLintServer, report: FileReport,
                params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    wanted = params.context.only
    actions: list[types.CodeAction] = []
    if _asked_for(types.CodeActionKind.QuickFix, wanted):
        lines = report.lines
        start = ls.position(lines, params.range.start)
        end = ls.position(lines, params.range.end)
        for finding in report.overlapping(start, end):
            actions.extend(quick_fixes(ls, uri, report, finding))
    if _asked_for(FIX_ALL_KIND, wanted) and any(f.fix and f.fix.applicability == SAFE
                                                for f in report.findings):
        if (action := fix_all_action(ls, uri, report)) is not None:
            actions.append(action)
    return actions


def _asked_for(kind: str, only: list[str] | None) -> bool:
    """A client's ``only`` names a kind or a kind above it (``source`` covers ``source.fixAll``)."""
    if not only:
        return True
    return any(kind == asked or kind.startswith(f"{asked}.") for asked in only)


def quick_fixes(ls: GraphLintServer, uri: str, report: FileReport,
                finding: Finding) -> list[types.CodeAction]:
    rule = finding.rule
    diagnostic = ls.diagnostic(report, finding)
    actions = []
    project = ls.session.engine_for(report.path, report.config).project
    if finding.fix is not None and apply_to_file(report.path, [finding], project) is not None:
        safe = finding.fix.applicability == SAFE
        title = f"{finding.fix.description} ({rule.symbol})"
        actions.append(types.CodeAction(
            title=title if safe else f"{title} [unsafe: may change behaviour]",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            is_preferred=safe,
            edit=workspace_edit(ls, uri, report, finding.fix.edits)))
    if (edit := suppression_edit(report, finding)) is not None:
        actions.append(types.CodeAction(
            title=f"Disable {rule.symbol} on this line",
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[diagnostic],
            edit=workspace_edit(ls, uri, report, (edit,))))
    return actions


def workspace_edit(ls: GraphLintServer, uri: str, report: FileReport,
                   edits: tuple[Edit, ...]) -> types.WorkspaceEdit:
    lines = report.lines
    return types.WorkspaceEdit(changes={uri: [ls.text_edit(lines, edit) for edit in edits]})


def fix_all_action(ls: GraphLintServer, uri: str, report: FileReport) -> types.CodeAction | None:
    """Every safe fix of the file, as ``msgraphlint check --fix`` makes them: one edit of the
    whole text (fixes applied pass after pass can move each other's positions)."""
    fixed = ls.session.fix_all(report.path)
    if fixed is None or fixed == report.text:
        return None
    starts = line_starts(report.text)
    last_line = report.text[starts[-1]:]
    whole = types.Range(types.Position(0, 0), types.Position(
        len(starts) - 1, ls.workspace.position_codec.client_num_units(last_line)))
    return types.CodeAction(
        title="msgraphlint: apply every safe fix",
        kind=FIX_ALL_KIND,
        edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=whole, new_text=fixed)]}))


# ----- hover ------------------------------------------------------------------------------------

@server.feature(types.TEXT_DOCUMENT_HOVER)
@_guarded
async def hover(ls: GraphLintServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    report = ls.last_report(uri) or await ls.current_report(uri)
    if report is None:
        return None
    line, column = ls.position(report.lines, params.position)
    found = report.at(line, column)
    if not found:
        return None
    parts = []
    for finding in found:
        rule = finding.rule
        parts.append(f"**{rule.id} {rule.symbol}**: {finding.message}\n\n{rule_page(rule)}")
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)),
        range=ls.range(report.lines, found[0].line, found[0].column, found[0].end_line,
                       found[0].end_column))


class _WithoutTraceback(logging.Formatter):
    def formatException(self, exc_info) -> str:
        return ""


def serve(stdin=None, answered_early: object = None) -> None:
    """Serve over stdio; ``stdin`` and ``answered_early`` as start.py hands them over."""
    # pygls logs what it cannot read with a traceback on stderr (the editor's output panel): one
    # line is enough, the client is told in the log (report_server_error).
    handler = logging.StreamHandler()
    handler.setFormatter(_WithoutTraceback("msgraphlint server: %(message)s"))
    pygls_log = logging.getLogger("pygls")
    pygls_log.addHandler(handler)
    pygls_log.propagate = False
    server.protocol.answered_early = answered_early
    server.start_io(stdin)
