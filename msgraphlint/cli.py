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
from typing import Annotated, Optional

import typer

from . import __version__, catalogue
from .baseline import (
    Baseline,
    BaselineError,
    LineReader,
    content_fingerprints,
    load_baseline,
    write_baseline,
)
from .catalogue import Level, Severity
from .config import Config, ConfigError, find_pyproject, from_pyproject, parse_device, parse_selectors
from .docgen import rule_page

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Find Python that MindSpore's GRAPH_MODE compiler rejects or silently gets wrong.",
)


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


def _version(value: bool) -> None:
    if value:
        typer.echo(f"msgraphlint {__version__}")
        raise typer.Exit(0)


@app.callback()
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
) -> Config:
    if config_file is not None and not config_file.is_file():
        raise ConfigError(f"config file {config_file} does not exist")
    anchor = paths[0] if paths and paths[0].exists() else Path.cwd()
    config = from_pyproject(config_file or find_pyproject(anchor))
    if syntax_level is not None:
        config = replace(config, level=Level(syntax_level.value))
    if device is not None:
        config = replace(config, device=parse_device(device, "--device"))
    if output_format is not None:
        config = replace(config, format=output_format.value)
    if select:
        config = replace(config, select=parse_selectors(select, "--select"))
    if ignore:
        config = replace(config, ignore=config.ignore | parse_selectors(ignore, "--ignore"))
    if fail_on is not None:
        config = replace(config, fail_on=Severity(fail_on.value))
    return config


@app.command()
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
            " not-reproduced or unverified. Needs: pip install 'msgraphlint\\[confirm]'.",
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
    from .analyze import Engine
    from .cache import ResultCache
    from .report import RunResult, render

    paths = list(paths or [Path(".")])
    use_stdin = paths == [Path("-")]
    if not use_stdin:
        missing = [str(p) for p in paths if not p.exists()]
        if missing:
            raise fail(f"no such file or folder: {', '.join(missing)}")
    try:
        config = resolve_config(
            [] if use_stdin else paths, config_file, syntax_level, device, output_format, select,
            ignore, fail_on,
        )
    except ConfigError as error:
        raise fail(str(error)) from None

    known = None
    if record_baseline is None and (baseline or config.baseline) is not None:
        try:  # before the analysis: a bad baseline fails fast
            known = load_baseline(baseline or config.baseline)
        except BaselineError as error:
            raise fail(str(error)) from None

    started = datetime.now(timezone.utc)
    raw = None
    if use_stdin:
        paths = [Path(stdin_filename or "stdin.py")]
        raw = {paths[0]: sys.stdin.buffer.read()}
    engine = Engine(cache=None if no_cache or use_stdin else ResultCache())
    run = engine.check_paths(paths, config.excludes, raw, jobs=jobs or os.cpu_count() or 1)
    times = (started, datetime.now(timezone.utc)) if sarif_timestamps else None
    selected = [f for f in run.findings if config.wants(f)]
    # Before the baseline leaves some out, so that it does not renumber the others.
    fingerprints = content_fingerprints(selected, engine_line_reader(engine))
    try:
        selected, fingerprints = apply_baseline(selected, fingerprints, known, record_baseline)
    except BaselineError as error:
        raise fail(str(error)) from None
    summary = None
    if confirm or confirm_all:
        if use_stdin:
            raise fail("--confirm compiles the files on disk; it cannot confirm stdin")
        selected, fingerprints, summary = run_confirmation(
            engine, selected, fingerprints, config, run.checked, confirm_all, jobs, no_cache
        )
    result = RunResult(selected, config, run.files, internal_errors=run.internal_errors,
                       confirm_summary=summary)

    wants_colour = colour if colour is not None else (output is None and sys.stdout.isatty())
    text, notices = render(
        result, colour=wants_colour, category=category, times=times, fingerprints=fingerprints
    )
    if output is not None:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            output.write_text(text, "utf-8")
        except OSError as error:
            raise fail(f"cannot write {output}: {error.strerror or error}") from None
    else:
        sys.stdout.write(text)
    for message in notices:
        typer.echo(f"msgraphlint: {message}", err=True)
    for message in run.internal_errors:
        typer.echo(f"msgraphlint: internal error: {message}", err=True)
    raise typer.Exit(result.exit_code)


def run_confirmation(engine, selected, fingerprints, config, checked, every, jobs, no_cache):
    """--confirm: the findings with MindSpore's evidence (msgraphlint.confirm, docs/confirm.md);
    with ``every``, the targets of all ``checked`` files, not only those with findings."""
    from .confirm.run import INSTALL_HINT, ConfirmOptions, MindSporeMissing, confirm_findings

    files = checked if every else []
    options = ConfirmOptions(all_targets=every, jobs=jobs or 0, use_cache=not no_cache)
    try:
        outcome = confirm_findings(engine, selected, config, files, options)
    except MindSporeMissing as error:
        raise fail(f"--confirm needs MindSpore ({error}); install it with: {INSTALL_HINT}") from None
    # Static findings keep their fingerprints; the compiler's own findings get theirs.
    known = dict(zip(selected, fingerprints))
    new = [f for f in outcome.findings if f not in known]
    extra = dict(zip(new, content_fingerprints(new, engine_line_reader(engine))))
    fingerprints = [known.get(f) or extra[f] for f in outcome.findings]
    summary = outcome.summary(config.device)
    if config.format != "text":  # the text report ends with it
        typer.echo(f"msgraphlint: {summary}", err=True)
    return outcome.findings, fingerprints, summary


def engine_line_reader(engine) -> LineReader:
    """Lines as the engine read them: an editor's stdin buffer, not what is on disk."""
    return engine.project.lines


def apply_baseline(
    findings: list, fingerprints: list[str], known: Baseline | None, record: Path | None
) -> tuple[list, list[str]]:
    """Record the findings first when asked to, then leave out those the baseline holds."""
    if record is not None:
        count = write_baseline(record, findings, fingerprints)
        typer.echo(f"msgraphlint: recorded {count} finding{'s' * (count != 1)} in {record}",
                   err=True)
        known = load_baseline(record)
    if known is None:
        return findings, fingerprints
    kept, kept_fingerprints = known.without_recorded(findings, fingerprints)
    matched = len(findings) - len(kept)
    if matched and record is None:
        typer.echo(f"msgraphlint: {matched} finding{'s' * (matched != 1)} left out: recorded in"
                   f" baseline {known.file}", err=True)
    return kept, kept_fingerprints


@app.command("rules")
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
        typer.echo(f"{r.id}  {r.symbol:<{width}}  {severity:<7}  {r.family:<17}  {r.title}")


@app.command()
def explain(rule: Annotated[str, typer.Argument(help="Rule id or symbol, e.g. W8720.")]) -> None:
    """Show a rule's documentation: what the compiler does at each level, and the fix."""
    found = catalogue.find_rule(rule)
    if found is None:
        names = [r.symbol for r in catalogue.rules()] + [r.id for r in catalogue.rules()]
        close = difflib.get_close_matches(rule, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `msgraphlint rules`"
        raise fail(f"no rule {rule!r}{hint}")
    typer.echo(rule_page(found))


def main() -> None:
    # `--confirm=all`, as the docs also spell it: click has no option with an optional value.
    sys.argv[1:] = ["--confirm-all" if arg == "--confirm=all" else arg for arg in sys.argv[1:]]
    try:
        app()
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if isinstance(done.code, str):
            typer.echo(done.code, err=True)
    except KeyboardInterrupt:
        typer.echo("msgraphlint: interrupted", err=True)
        code = 130
    except Exception as error:  # noqa: BLE001 - last resort: a message, never a traceback
        typer.echo(f"msgraphlint: internal error: {type(error).__name__}: {error}", err=True)
        code = 2
    leave(code)


def leave(code: int) -> None:
    """Exit without freeing the run's syntax trees one object at a time: on a large project the
    interpreter's teardown took longer than a third of the analysis. Exit handlers still run."""
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
