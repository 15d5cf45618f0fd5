"""The calling forms of MindSpore's C++ Tensor methods and overloaded functions (``mint.add``,
``mint.max``: ``mindspore.ops.functional_overload``), read from an installed MindSpore.

Since 2.3 most Tensor methods are C++ (``method_descriptor``): ``inspect.signature`` cannot read
them, and many take several forms (``Tensor.sum`` takes PyTorch's ``dim, keepdim`` or numpy's
``axis, keepdims``). MindSpore says which, in two places this module reads:

- the method's own "valid calling" list: a call that matches no form raises, in PyNative, "The
  valid calling should be:" and one line per form, ``"Tensor.sum(dim=<None, Tensor, int>,
  keepdim=<bool>, *, dtype=<None, mstype>)"``. A probe call with an argument of no known type and a
  keyword no method has fails while the arguments are parsed, before anything runs;
- the method's docstring: its first line and each ``.. method:: Tensor.name(...)`` line spell a
  form as Python would (``repeat(*repeats)``, ``Tensor.repeat(repeats) -> Tensor``), with the
  defaults the valid-calling list leaves out.

A form is a parameter list as :mod:`msgraphlint.knowledge.api_snapshot` writes one, ``[name,
kind, has_default, types]``; ``types`` is the list the valid-calling line gives (empty from a
docstring). A parameter of a valid-calling line counts as having a default: the line does not say.
A method is given every form either place lists, so a call is judged unbindable only when no form
MindSpore names takes it.

Only imported by the snapshot command (it imports MindSpore).
"""

from __future__ import annotations

import ast
import re

# The keyword no method has, and an argument of a type no form takes.
PROBE_KEYWORD = "__msgraphlint_probe__"
VALID_CALLING = "The valid calling should be:"
FORM_LINE = re.compile(r'^\s*"(?:Tensor\.)?(?P<name>\w+)\((?P<params>.*)\)"\s*$')
DOC_FORM = re.compile(r"^\s*(?:\.\. method:: )?(?:Tensor\.)?(?P<name>\w+)\((?P<params>.*?)\)\s*(?:->.*)?$")
ONE_PARAMETER = re.compile(r"^\s*(?P<name>\*{0,2}\w+)\s*(?:=\s*<(?P<types>[^>]*)>)?\s*$")


class _NoKnownType:
    """An argument no calling form accepts, so the parse fails and names the forms."""


def calling_forms(tensor, name: str) -> list[list] | None:
    """Every calling form MindSpore names for ``tensor.<name>`` (a C++ method), or None when it
    names none (the method then keeps no forms: any call is accepted)."""
    return function_forms(getattr(tensor, name), getattr(type(tensor), name), name)


def function_forms(function, documented, name: str) -> list[list] | None:
    """The same for a callable (a bound method, or an overloaded function such as ``mint.add``)
    whose docstring ``documented`` carries."""
    forms = _valid_calling_forms(function, name) + _docstring_forms(documented, name)
    unique: list[list] = []
    for form in forms:
        if form not in unique:
            unique.append(form)
    return unique or None


def _valid_calling_forms(function, name: str) -> list[list]:
    try:
        function(_NoKnownType(), **{PROBE_KEYWORD: 1})
    except Exception as error:  # noqa: BLE001 - whatever it raises, only its text is read
        text = str(error)
    else:
        return []  # accepted anything: nothing to read
    if VALID_CALLING not in text:
        return []
    forms = []
    for line in text.split(VALID_CALLING, 1)[1].splitlines():
        match = FORM_LINE.match(line)
        if match and match["name"] == name:
            form = _parse_valid_calling(match["params"])
            if form is not None:
                forms.append(form)
    return forms


def _parse_valid_calling(text: str) -> list | None:
    """``dim=<None, int>, keepdim=<bool>, *, dtype=<None, mstype>`` -> a form; None if a part
    does not read as a parameter."""
    form: list = []
    keyword_only = False
    for part in _split_top_level(text):
        if part.strip() == "*":
            keyword_only = True
            continue
        match = ONE_PARAMETER.match(part)
        if match is None:
            return None
        name, types = match["name"], [t.strip() for t in (match["types"] or "").split(",") if t.strip()]
        if name.startswith("**"):
            form.append([name[2:], "var_keyword", False, types])
        elif name.startswith("*"):
            form.append([name[1:], "var_positional", False, types])
            keyword_only = True
        else:
            form.append([name, "keyword_only" if keyword_only else "positional_or_keyword", True, types])
    return form


def _split_top_level(text: str) -> list[str]:
    """Split on the commas between parameters, not those inside ``<...>``."""
    parts, depth, current = [], 0, []
    for char in text:
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    if "".join(current).strip():
        parts.append("".join(current))
    return parts


def _docstring_forms(method, name: str) -> list[list]:
    doc = getattr(method, "__doc__", None) or ""
    lines = doc.strip().splitlines()
    candidates = lines[:1] + [line for line in lines if line.strip().startswith(".. method::")]
    forms = []
    for line in candidates:
        match = DOC_FORM.match(line)
        if match is None or match["name"] != name:
            continue
        try:
            arguments = ast.parse(f"def f({match['params']}): pass").body[0].args
        except SyntaxError:
            continue
        forms.append(_form_of(arguments))
    return forms


def _form_of(arguments: ast.arguments) -> list:
    positional = [*arguments.posonlyargs, *arguments.args]
    first_default = len(positional) - len(arguments.defaults)
    form = [[a.arg, "positional_only" if a in arguments.posonlyargs else "positional_or_keyword",
             index >= first_default, []] for index, a in enumerate(positional)]
    if arguments.vararg is not None:
        form.append([arguments.vararg.arg, "var_positional", False, []])
    form += [[a.arg, "keyword_only", default is not None, []]
             for a, default in zip(arguments.kwonlyargs, arguments.kw_defaults)]
    if arguments.kwarg is not None:
        form.append([arguments.kwarg.arg, "var_keyword", False, []])
    return form
