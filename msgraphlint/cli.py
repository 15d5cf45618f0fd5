"""The command line: ``msgraphlint check | rules | explain``.

Exit codes: 0 no finding at or above --fail-on (warning by default), 1 findings, 2 usage or
configuration error (or a file msgraphlint itself failed on). No traceback reaches the user.
"""

from __future__ import annotations

import atexit
import difflib
import json
import os
import sys
from dataclasses import replace
from datetime import datetime, timezone
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

from .version import __version__

if TYPE_CHECKING:
    import typer

    from .config import Config

# typer, the rule catalogue, the configuration and the engine are imported when a command needs
# them (typer by build_app, on the first use of `app`): `msgraphlint server` answers initialize
# before any of them is loaded (server/start.py). The commands' annotations name typer; typer
# reads them once it is imported.


def build_app() -> "typer.Typer":
    """The typer application of the commands below (``app``, made on its first use)."""
    global typer
    import typer

    application = typer.Typer(
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        help="Find Python that MindSpore's GRAPH_MODE compiler rejects or silently gets wrong.",
    )
    application.callback()(main_options)
    application.command()(check)
    application.command("rules")(list_rules)
    application.command()(explain)
    application.command()(server)
    return application


def __getattr__(name: str):
    if name == "app":  # `from msgraphlint.cli import app` (the tests, typer's own tools)
        globals()["app"] = build_app()
        return globals()["app"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class LevelChoice(StrEnum):
    strict = "strict"
    compatible = "compatible"
    lax = "lax"


class FormatChoice(StrEnum):
    text = "text"
    json = "json"
    sarif = "sarif"
    gitlab = "gitlab"


class SeverityChoice(StrEnum):
    error = "error"
    warning = "warning"
    advice = "advice"


def fail(message: str) -> typer.Exit:
    typer.echo(f"msgraphlint: {message}", err=True)
    return typer.Exit(2)


def names_something(path: Path) -> bool:
    """Whether ``path`` is there, also when it cannot be read (a permission, a link loop): the
    check then reports it as a finding."""
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    return True


def _version(value: bool) -> None:
    if value:
        typer.echo(f"msgraphlint {__version__}")
        raise typer.Exit(0)


def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """msgraphlint: a static linter for MindSpore graph-mode code."""


def resolve_config(
    paths: list[Path],
    config_file: Path | None,
    syntax_level: LevelChoice | None,
    device: str | None,
    output_format: FormatChoice | None,
    select: list[str] | None,
    ignore: list[str] | None,
    fail_on: SeverityChoice | None,
    target_version: str | None = None,
) -> Config:
    from .config import (
        JIT_LEVEL_VARIABLE, ConfigError, environment_level, find_pyproject, from_pyproject,
        parse_device, parse_selection, parse_selectors, parse_target_version,
    )
    from .knowledge.catalogue import Level, Severity

    if config_file is not None and not config_file.is_file():
        raise ConfigError(f"config file {config_file} does not exist")
    anchor = paths[0] if paths and os.path.exists(paths[0]) else Path.cwd()
    config = from_pyproject(config_file or find_pyproject(anchor))
    if syntax_level is not None:
        config = replace(config, level=Level(syntax_level.value))
    if (forced := environment_level()) is not None:
        if forced != config.level:
            typer.echo(f"msgraphlint: {JIT_LEVEL_VARIABLE} in the environment compiles every graph "
                       f"at {forced.name}, as MindSpore does: reporting for {forced.name}", err=True)
        config = replace(config, level=forced, every_graph_level=forced)
    if device is not None:
        config = replace(config, device=parse_device(device, "--device"))
    if output_format is not None:
        config = replace(config, format=output_format.value)
    if select is not None:  # `--select ""` too: an error, not a run that checks nothing
        config = replace(config, select=parse_selection(select, "--select"))
    if ignore:
        config = replace(config, ignore=config.ignore | parse_selectors(ignore, "--ignore"))
    if fail_on is not None:
        config = replace(config, fail_on=Severity(fail_on.value))
    if target_version is not None:
        config = replace(config, target_version=parse_target_version(target_version, "--target-version"))
    return config


def check(
    paths: Annotated[
        Optional[list[Path]],
        typer.Argument(help="Files or folders to check (default: the current folder); - for stdin."),
    ] = None,
    syntax_level: Annotated[
        Optional[LevelChoice],
        typer.Option(
            "--syntax-level",
            help="jit_syntax_level the Cells compile at [default: lax].",
            case_sensitive=False,  # MindSpore spells it LAX
        ),
    ] = None,
    device: Annotated[
        Optional[str], typer.Option("--device", help="CPU, GPU or Ascend [default: CPU].")
    ] = None,
    target_version: Annotated[
        Optional[str],
        typer.Option("--target-version", help="MindSpore release whose API the calls are bound"
                     " against, e.g. 2.10 [default: the installed MindSpore's, else the newest]."),
    ] = None,
    output_format: Annotated[
        Optional[FormatChoice], typer.Option("--format", help="Output format [default: text].")
    ] = None,
    output: Annotated[
        Optional[Path], typer.Option("--output", "-o", help="Write the report here, not stdout.")
    ] = None,
    select: Annotated[
        Optional[list[str]],
        typer.Option("--select", help="Only these rules: ids, symbols or families (repeatable)."),
    ] = None,
    ignore: Annotated[
        Optional[list[str]],
        typer.Option("--ignore", help="Skip these rules: ids, symbols or families (repeatable)."),
    ] = None,
    fail_on: Annotated[
        Optional[SeverityChoice],
        typer.Option("--fail-on", help="Lowest severity that makes the exit code 1 [default: warning]."),
    ] = None,
    category: Annotated[
        Optional[str],
        typer.Option("--category", help="SARIF runAutomationDetails.id (code-scanning category)."),
    ] = None,
    sarif_timestamps: Annotated[
        bool,
        typer.Option(
            "--sarif-timestamps",
            help="Record start and end times in SARIF (the log then differs per run).",
        ),
    ] = False,
    baseline: Annotated[
        Optional[Path],
        typer.Option("--baseline", help="Do not report findings recorded in this baseline file."),
    ] = None,
    record_baseline: Annotated[
        Optional[Path],
        typer.Option(
            "--write-baseline",
            help="Record the current findings in this file, then report against it.",
        ),
    ] = None,
    stdin_filename: Annotated[
        Optional[str], typer.Option("--stdin-filename", help="Path to report for - (stdin).")
    ] = None,
    config_file: Annotated[
        Optional[Path], typer.Option("--config", help="pyproject.toml to read [tool.msgraphlint] from.")
    ] = None,
    colour: Annotated[
        Optional[bool], typer.Option("--color/--no-color", help="Colour text output [default: on a terminal].")
    ] = None,
    confirm: Annotated[
        bool,
        typer.Option(
            "--confirm",
            help="Compile every Cell and jit function that has findings with the real MindSpore"
            " (in child processes: this imports your code) and mark each finding confirmed,"
            " not-reproduced, fails-elsewhere or unverified. Needs: pip install 'msgraphlint\\[confirm]'.",
        ),
    ] = False,
    confirm_all: Annotated[
        bool,
        typer.Option("--confirm-all", help="--confirm every compiled target, with findings or not"
                     " (also spelled --confirm=all)."),
    ] = False,
    jobs: Annotated[
        Optional[int],
        typer.Option("--jobs", "-j", min=1, help="Processes to run at once, for the analysis and"
                     " for --confirm's children \\[default: all cores]."),
    ] = None,
    fix: Annotated[
        bool,
        typer.Option("--fix", help="Rewrite the files with the safe fixes (docs/fixes.md), then"
                     " report what is left."),
    ] = False,
    unsafe_fixes: Annotated[
        bool,
        typer.Option("--unsafe-fixes", help="With --fix or --diff, also the fixes that can change"
                     " behaviour; otherwise show them as available."),
    ] = False,
    diff: Annotated[
        bool,
        typer.Option("--diff", help="Print the fixes as a unified diff and write nothing (exit 1"
                     " when there is something to fix)."),
    ] = False,
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            help="Analyse every file again (and with --confirm, compile everything again),"
            " ignoring the caches.",
        ),
    ] = False,
) -> None:
    """Check Python files for code MindSpore's graph compiler rejects or gets wrong."""
    from . import pipeline
    from .config import ConfigError
    from .report import RunResult, render

    paths = list(paths or [Path(".")])
    use_stdin = paths == [Path("-")]
    if not use_stdin:
        missing = [str(p) for p in paths if not names_something(p)]
        if missing:
            raise fail(f"no such file or folder: {', '.join(missing)}")
    try:
        config = resolve_config(
            [] if use_stdin else paths, config_file, syntax_level, device, output_format, select,
            ignore, fail_on, target_version,
        )
    except ConfigError as error:
        raise fail(str(error)) from None
    raw = None
    if use_stdin:
        paths = [Path(stdin_filename or "stdin.py")]
        raw = {paths[0]: sys.stdin.buffer.read()}

    started = datetime.now(timezone.utc)
    request = pipeline.Request(
        paths, config, raw, jobs=jobs, use_cache=not no_cache, baseline=baseline,
        write_baseline=record_baseline,
        confirm="all" if confirm_all else "findings" if confirm else None,
        fix=fix or diff, unsafe_fixes=unsafe_fixes, diff=diff,
    )
    try:
        outcome = pipeline.run(request)
    except pipeline.PipelineError as error:
        raise fail(str(error)) from None
    if diff:
        sys.stdout.write(outcome.diff)
        count, files = len(outcome.fixed), len({f.path for f in outcome.fixed})
        typer.echo(f"msgraphlint: would fix {count} problem{'s' * (count != 1)} in {files}"
                   f" file{'s' * (files != 1)}" if count else "msgraphlint: nothing to fix", err=True)
        for message in outcome.notices:
            typer.echo(f"msgraphlint: {message}", err=True)
        raise typer.Exit(1 if outcome.diff else 0)
    times = (started, datetime.now(timezone.utc)) if sarif_timestamps else None
    result = RunResult(outcome.findings, config, outcome.files_checked,
                       internal_errors=outcome.internal_errors,
                       confirm_summary=outcome.confirm_summary, fixed=len(outcome.fixed),
                       unsafe_fixes=unsafe_fixes)

    wants_colour = colour if colour is not None else (output is None and sys.stdout.isatty())
    text, notices = render(result, colour=wants_colour, category=category, times=times)
    if output is not None:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            output.write_text(text, "utf-8")
        except OSError as error:
            raise fail(f"cannot write {output}: {error.strerror or error}") from None
    else:
        sys.stdout.write(text)
    if outcome.confirm_summary and config.format != "text":  # the text report ends with it
        notices = [outcome.confirm_summary, *notices]
    for message in [*outcome.notices, *notices]:
        typer.echo(f"msgraphlint: {message}", err=True)
    for message in outcome.internal_errors:
        typer.echo(f"msgraphlint: internal error: {message}", err=True)
    raise typer.Exit(result.exit_code)


def list_rules(
    syntax_level: Annotated[
        LevelChoice,
        typer.Option("--syntax-level", help="Level the severities are shown for.", case_sensitive=False),
    ] = LevelChoice.lax,
    device: Annotated[str, typer.Option("--device")] = "CPU",
    family: Annotated[Optional[str], typer.Option("--family", help="Only this family.")] = None,
    output_format: Annotated[FormatChoice, typer.Option("--format")] = FormatChoice.text,
) -> None:
    """List every rule with its severity at a syntax level."""
    from .config import ConfigError, parse_device
    from .knowledge import catalogue
    from .knowledge.catalogue import Level
    try:
        device = parse_device(device, "--device")
    except ConfigError as error:
        raise fail(str(error)) from None
    level = Level(syntax_level.value)
    chosen = [r for r in catalogue.rules() if family is None or r.family == family]
    if family is not None and not chosen:
        raise fail(f"no family {family!r}; families: {', '.join(catalogue.families())}")
    if output_format == FormatChoice.json:
        records = [
            {
                "id": r.id,
                "symbol": r.symbol,
                "family": r.family,
                "title": r.title,
                "severity": r.severity(level, device).value,
                "verdicts": {lvl.value: r.verdict(lvl, device).value for lvl in Level},
                "opt_in": r.opt_in,
                "fix": r.autofix or None,
                "help_uri": r.help_uri,
            }
            for r in chosen
        ]
        typer.echo(json.dumps(records, indent=2))
        return
    width = max(len(r.symbol) for r in chosen)
    typer.echo(f"Severities at {level.name} on {device}:")
    for r in chosen:
        severity = r.severity(level, device).value
        notes = "".join([" [opt-in: --select it]" if r.opt_in else "",
                         f" [{r.autofix} fix]" if r.autofix else ""])
        typer.echo(f"{r.id}  {r.symbol:<{width}}  {severity:<7}  {r.family:<17}  {r.title}{notes}")


def explain(rule: Annotated[str, typer.Argument(help="Rule id or symbol, e.g. W8720.")]) -> None:
    """Show a rule's documentation: what the compiler does at each level, and the fix."""
    from .docgen import rule_page
    from .knowledge import catalogue
    found = catalogue.find_rule(rule)
    if found is None:
        names = [r.symbol for r in catalogue.rules()] + [r.id for r in catalogue.rules()]
        close = difflib.get_close_matches(rule, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `msgraphlint rules`"
        raise fail(f"no rule {rule!r}{hint}")
    typer.echo(rule_page(found))


def server(
    stdio: Annotated[bool, typer.Option("--stdio", help="Speak over stdin and stdout (the only "
                                        "transport; accepted because clients pass it).")] = True,
) -> None:
    """Run the language server: diagnostics as you type, fixes as code actions (docs/editors.md)."""
    if (problem := serve_language_server()) is not None:
        raise fail(problem)


def serve_language_server() -> str | None:
    """Serve, or say why not. Reached from ``main`` before typer parses anything (the usual
    ``msgraphlint server [--stdio]``), so that initialize is answered at once."""
    from .server.start import run, server_extra_missing

    if (missing := server_extra_missing()) is not None:
        return (f"msgraphlint server needs pygls and lsprotocol (no module named {missing!r}); "
                "install them with: pip install 'msgraphlint[server]'")
    run()
    return None


def main() -> None:
    # `--confirm=all`, as the docs also spell it: click has no option with an optional value.
    sys.argv[1:] = ["--confirm-all" if arg == "--confirm=all" else arg for arg in sys.argv[1:]]
    try:
        if sys.argv[1:2] == ["server"] and set(sys.argv[2:]) <= {"--stdio"}:
            if (problem := serve_language_server()) is not None:
                _say(f"msgraphlint: {problem}")
                leave(2)
        else:
            __getattr__("app")()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if isinstance(done.code, str):
            _say(done.code)
    except KeyboardInterrupt:
        _say("msgraphlint: interrupted")
        code = 130
    except Exception as error:  # noqa: BLE001 - last resort: a message, never a traceback
        _say(f"msgraphlint: internal error: {type(error).__name__}: {error}")
        code = 2
    leave(code)


def _say(message: str) -> None:
    """A line on stderr (typer.echo's, without importing typer for the server)."""
    sys.stderr.write(message + "\n")


def leave(code: int) -> None:
    """Exit without freeing the run's syntax trees one object at a time: on a large project the
    interpreter's teardown took longer than a third of the analysis. Exit handlers still run."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # closed (the language server's stdout at exit) or gone
            pass
    os._exit(code)


if __name__ == "__main__":
    main()
