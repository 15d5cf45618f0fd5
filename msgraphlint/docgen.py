"""docs/rules/<symbol>.md and docs/rules/index.md, generated from the catalogue.

``python -m msgraphlint.docgen [DIR]`` rewrites them; a test fails when they are not current.
``msgraphlint explain`` prints the same page.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .knowledge import frontend_errors
from .knowledge.catalogue import DEVICES, Level, Rule, consequence, replacement_table, rules

VERDICT_WORDS = {
    "rejected": "fails to compile",
    "misbehaves": "compiles, but behaves differently from the Python",
    "accepted": "compiles and behaves",
}


def _fenced(code: str) -> str:
    return f"```python\n{code.strip()}\n```"


def verdict_table(rule: Rule) -> str:
    rows = ["| level | what MindSpore does | severity |", "| --- | --- | --- |"]
    for level in Level:
        verdict = rule.verdict(level)
        severity = rule.compiler_severity(level).value
        rows.append(f"| {level.name} | {rule.compiler[level]} | {severity} ({verdict.value}) |")
    for device in DEVICES:
        if device in rule.device_verdicts:
            changed = ", ".join(
                f"{level.name}: {verdict.value}"
                for level, verdict in rule.device_verdicts[device].items()
            )
            rows.append(f"| on {device} | {changed} | |")
    if rule.static_severity is not None:
        rows += ["", f"Reported as {rule.static_severity.value} at every level before `--confirm`:"
                 f" {rule.static_severity_why}."]
    return "\n".join(rows)


def replacements_section(rule: Rule) -> list[str]:
    """The table of MindSpore spellings the message picks from (data/replacements.toml)."""
    table = replacement_table(rule.replacements)
    rows = ["", "The message names the replacement for the call it found:", "",
            "| call | use instead |", "| --- | --- |"]
    rows += [f"| `{name}` | {to} |" for name, to in table["names"].items()]
    rows += [f"| `{prefix}*` | `{to}*` |" for prefix, to in table.get("prefixes", {}).items()]
    rows.append(f"| anything else | {table['default']} |")
    return rows


def rule_page(rule: Rule) -> str:
    parts = [
        f"# {rule.symbol} ({rule.id})",
        "",
        f"Family: `{rule.family}`. Seen with: {rule.seen_with}."
        + (f" Other releases: {rule.other_releases}" if rule.other_releases else ""),
        "",
        "## What it does",
        "",
        f"{rule.title}.",
        "",
        "## Why it breaks, per syntax level",
        "",
        rule.rationale.strip(),
        "",
        verdict_table(rule),
        "",
        "LAX is MindSpore's default level. Severity: error where the compiler rejects the code,"
        " warning where it compiles but misbehaves, advice otherwise.",
        *cases_section(rule),
        "",
        "## Example",
        "",
        _fenced(rule.example),
        "",
        "## Use instead",
        "",
        rule.fix,
    ]
    if rule.use_instead:
        parts += ["", f"MindSpore API: `{rule.use_instead}`"]
    if rule.replacements:
        parts += replacements_section(rule)
    parts += ["", "## Automatic fix", "", f"{FIX_WORDS[rule.autofix]}. {rule.autofix_why}"]
    if rule.opt_in:
        parts += ["", "## Off by default", "",
                  f"Reported only when `--select` names it or its family: {rule.opt_in_why}"]
    parts += [
        "",
        "## Suppressing it",
        "",
        f"`# pylint: disable={rule.symbol}` on the line (or `# msgraphlint: disable={rule.symbol}`),"
        f" or `--ignore {rule.symbol}`.",
        "",
        f"Reference: <{rule.doc}>",
        "",
    ]
    return "\n".join(parts)


def cases_section(rule: Rule) -> list[str]:
    """The shapes whose consequence differs from the rule's default, each with its message."""
    if not rule.cases:
        return []
    lines = ["", "### What the message says, by shape", "",
             f"- Otherwise: {consequence(rule)}."]
    lines += [f"- When {case.when}: {consequence(rule, name)}." for name, case in rule.cases.items()]
    return lines


FIX_WORDS = {
    "safe": "Safe: `msgraphlint check --fix` applies it",
    "unsafe": "Unsafe: `msgraphlint check --fix --unsafe-fixes` applies it",
    "": "None",
}


def fixes_page() -> str:
    """docs/fixes.md: every rule with its fix (safe, unsafe or none) and why."""
    lines = [
        "# Fixes",
        "",
        "Generated from the catalogue (`autofix` and `autofix_why` in `msgraphlint/knowledge/rules/*.toml`)"
        " by `python -m msgraphlint.docgen`.",
        "",
        "`msgraphlint check --fix` applies the safe fixes and reports what is left;"
        " `--unsafe-fixes` adds the fixes that can change what the code computes; `--diff` prints"
        " the fixes as a unified diff and writes nothing (exit 1 when there is something to fix)."
        " In the text report `[*]` marks a finding `--fix` would fix; JSON carries each fix as"
        " `fix` (applicability, description, edits) and SARIF as the result's `fixes`.",
        "",
        "A fix is an exact text edit at the positions of the syntax tree, as ruff makes them:"
        " it replaces one expression or name and keeps every other character of the file,"
        " comments and formatting included, and adds an import only where the file has none"
        " it can reuse (`import mindspore.ops as P` stays `P`). A concrete syntax tree library"
        " (libcst, as TorchFix and Fixit use) would earn its cost on rewrites that move"
        " statements; none of these do, and the check without `--fix` loads nothing more.",
        "",
        "Never worse: a fixed file must parse or it is left as it was (and the run says so);"
        " fixes whose edits overlap are applied in a later pass of the same run; a second"
        " `--fix` changes nothing; nothing is written when the analysis fails on any file."
        " `--fix --confirm` compiles each fixed target with the real MindSpore in a scratch copy"
        " first and keeps only the fixes the compiler accepts.",
        "",
        "| rule | fix | why |",
        "| --- | --- | --- |",
    ]
    for rule in rules():
        kind = rule.autofix or "none"
        lines.append(f"| [{rule.symbol}](rules/{rule.symbol}.md) ({rule.id}) | {kind} |"
                     f" {rule.autofix_why} |")
    return "\n".join(lines) + "\n"


def index_page() -> str:
    lines = [
        "# Rules",
        "",
        "Generated from the catalogue (`msgraphlint/knowledge/rules/*.toml`) by `python -m msgraphlint.docgen`.",
        "Severity columns: e = error (rejected), w = warning (compiles but misbehaves),"
        " a = advice, on CPU; a* = advice before `--confirm` where the static analysis cannot"
        " know what the verdict depends on (the rule's page says why).",
        "",
        "| id | symbol | family | STRICT | COMPATIBLE | LAX | what it finds |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for rule in rules():
        cells = [rule.severity(level).value[0] + "*" * (rule.severity(level) != rule.compiler_severity(level))
                 for level in Level]
        lines.append(
            f"| {rule.id} | [{rule.symbol}]({rule.symbol}.md) | {rule.family} | "
            + " | ".join(cells)
            + f" | {rule.title} |"
        )
    return "\n".join(lines) + "\n"


def _code(text: str) -> str:
    text = text.replace("|", "\\|")
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _mapping(message: frontend_errors.Message) -> str:
    if message.rules:
        links = ", ".join(f"[{symbol}](rules/{symbol}.md)" for symbol in message.rules)
        return links + (f"; {message.note}" if message.note else "")
    return f"{message.reason}" + (f": {message.note}" if message.note else "")


def frontend_errors_page() -> str:
    """docs/frontend-errors.md: the coverage map of the front end's error messages."""
    entries = frontend_errors.messages()
    releases = frontend_errors.releases(entries)
    with_rule, decidable = frontend_errors.coverage(entries)
    lines = [
        "# What the graph front end rejects, message by message",
        "",
        "Generated from `msgraphlint/knowledge/data/frontend_errors.toml` by `python -m msgraphlint.docgen`."
        " The messages are read from an installed MindSpore by `tools/frontend_errors.py` (run it with"
        " that MindSpore's Python): the `raise` statements of the Python parse layer"
        " (`mindspore/_extends/parse`, `mindspore/graph/_parse`, `mindspore/graph/_utils`,"
        " `mindspore/ops/composite`), and the strings of the C++ front end in the shared libraries"
        " (parse, resolve, static analysis, the composite operators, JIT Fallback), each attributed to"
        " a source file: the nearest file path among the library's strings, a guess that can name the"
        " neighbouring file of the same folder. A C++ message is kept as the literal pieces the source"
        " writes between its `<<`: an entry matches a message that contains it. The strings do not"
        " say whether a piece is raised or only logged; the known log lines are marked `internal`."
        " Holes of a Python message are `*`. The levels are those at which the code raises the"
        " message (from the syntax-level tests around a Python `raise`, and from the message's own"
        " words, such as \"JIT strict mode\", for C++); `all` when nothing limits it.",
        "",
        "Each message names the rules that predict it or the reason none can; the rules and reasons are"
        " judged by hand and kept when the tool runs again for a new release, which prints what is new.",
        "",
        "Not in the map, though the compiler can fail with them: Python's own exceptions, raised while"
        " MindSpore folds constants or runs JIT Fallback (`unsupported operand type(s)`, `invalid"
        " literal for int()`); the primitives' own infer functions in `libmindspore_ops.so`"
        " (`range`'s `make_range`, `bit_or`, `len` of a 0-D tensor, `ListInplaceInsert`); the"
        " pipeline's later stages and the backend (duplicate parameter names, `Invalid abstract`);"
        " Tensor's Python methods in `mindspore/common`. Compiling the graph-syntax cases of"
        " `compiler-suite` showed each of these kinds.",
        "",
        "## Coverage",
        "",
        f"{len(entries)} messages over MindSpore {', '.join(releases)}"
        f" ({sum(m.source == 'python' for m in entries)} from the Python layer,"
        f" {sum(m.source == 'c++' for m in entries)} from the C++ front end).",
        "",
        f"Of the {decidable} messages that could be decided from the source before running (a rule"
        f" predicts them, or none does yet), **{with_rule} have a rule: {with_rule / decidable:.0%}**."
        " Entries are counted, not messages: a C++ message kept as three pieces counts three times.",
        "",
        "| mapped to | messages | what it means |",
        "| --- | --- | --- |",
        f"| a rule | {sum(bool(m.rules) for m in entries)} | a msgraphlint rule predicts it |",
    ]
    for reason, meaning in frontend_errors.REASONS.items():
        count = sum(m.reason == reason for m in entries)
        lines.append(f"| {reason} | {count} | {meaning} |")
    lines += ["", "| release | messages | new in it | gone since the one before |", "| --- | --- | --- | --- |"]
    for index, release in enumerate(releases):
        have = {m.id for m in entries if release in m.releases}
        before = {m.id for m in entries if index and releases[index - 1] in m.releases}
        lines.append(f"| {release} | {len(have)} | {len(have - before) if index else ''} |"
                     f" {len(before - have) if index else ''} |")
    lines += ["", "## Decidable, no rule yet", "",
              "| message | raised in | what would decide it |", "| --- | --- | --- |"]
    for m in entries:
        if m.reason == "decidable-no-rule-yet":
            lines.append(f"| {_code(m.message)} | `{m.where}` | {m.note} |")
    for category, title in frontend_errors.CATEGORIES.items():
        in_category = [m for m in entries if m.category == category]
        lines += ["", f"## {title}", "",
                  "| message | type | raised in | levels | releases | rules, or why none |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for m in in_category:
            levels = "all" if m.levels == frontend_errors.LEVELS else ", ".join(m.levels)
            shown = "all" if len(m.releases) == len(releases) else ", ".join(m.releases)
            lines.append(f"| {_code(m.message)} | {m.type or '?'} | `{m.where}` | {levels} |"
                         f" {shown} | {_mapping(m)} |")
    return "\n".join(lines) + "\n"


def expected_pages() -> dict[str, str]:
    pages = {f"{rule.symbol}.md": rule_page(rule) for rule in rules()}
    pages["index.md"] = index_page()
    return pages


def write_docs(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    pages = expected_pages()
    for stale in folder.glob("*.md"):
        if stale.name not in pages:
            stale.unlink()
    written = []
    for name, text in pages.items():
        path = folder / name
        path.write_text(text, "utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/rules")
    print(f"wrote {len(write_docs(target))} pages to {target}")
    (target.parent / "fixes.md").write_text(fixes_page(), "utf-8")
    print(f"wrote {target.parent / 'fixes.md'}")
    (target.parent / "frontend-errors.md").write_text(frontend_errors_page(), "utf-8")
    print(f"wrote {target.parent / 'frontend-errors.md'}")
