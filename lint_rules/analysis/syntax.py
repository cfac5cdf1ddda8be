"""The project's syntax, not the interpreter's: CPython trees of code newer than this Python.

toolret reads code with two parsers: LibCST's grammar (every version it knows,
whatever runs it) for the rules and fixes, and CPython's ``ast`` for what needs
speed or CPython's verdict (statement spans, the parse-cost guard, project
summaries, notebook cells). Under Python 3.11 CPython refuses PEP 701 f-strings
(``f"{row["name"]}"``, valid since 3.12) and PEP 695/696 type parameters and
aliases (``def f[T](x: T)``, ``type Rows = list[Row]``), so without help a
3.12 project checked by a 3.11 hook would lose its project facts and its
notebook cells.

:func:`python_tree` is ``ast.parse`` with that help: when CPython refuses the
text, the constructs it cannot read are replaced by stand-ins with the same
layout — an f-string by a plain string literal of the same length (a
triple-quoted one when it spans lines, so every line keeps its number and
every statement its span), type parameters by spaces, ``type X = v`` by
``X = v`` — and the result is parsed again. The stand-ins are what the
analysis needs of those nodes (an f-string is a ``str``; type parameters
name nothing a rule reads). Text that is not valid Python in any version stays
an error: a stand-in is used only when LibCST's grammar accepts the original
(``confirm``), so a real mistake inside an f-string is still reported where it
is. On an interpreter that reads everything, nothing here runs.
"""

from __future__ import annotations

import ast
import re
import tokenize
import warnings
from io import BytesIO

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING_PREFIXES = frozenset({"r", "u", "f", "b", "br", "rb", "fr", "rf", "t", "tr", "rt"})
_GENERIC_DEF = re.compile(r"(?m)^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+[ \t]*(?=\[)")
_TYPE_ALIAS = re.compile(r"(?m)^([ \t]*)(type[ \t]+)(\w+)([ \t]*)(?=[\[=])")
_LINE_BREAK = re.compile(r"[\r\n]")


class _Unreadable(Exception):
    """The scanner cannot follow the text (an unterminated string): no stand-ins."""


def python_tree(source: str | bytes, *, confirm: bool = True) -> ast.Module:
    """``ast.parse(source)``, or the tree of its same-layout stand-in when this Python
    is older than the syntax (see the module docstring). Raises what ``ast.parse``
    raises — the original error — when there is no stand-in or it does not help.
    ``confirm=False``: the caller parses the original with LibCST itself next."""
    with warnings.catch_warnings():  # the user's code: no SyntaxWarning on our stderr
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source)
        except SyntaxError as error:
            if isinstance(error, IndentationError):
                raise
            original = error
        text = _text(source)
        stand_in = None if text is None else downgrade(text)
        if stand_in is None:
            raise original
        try:
            tree = ast.parse(stand_in)
        except SyntaxError:
            raise original from None
    if confirm and not _libcst_accepts(text):  # type: ignore[arg-type]
        raise original
    return tree


def downgrade(source: str) -> str | None:
    """``source`` with the f-strings this Python refuses, type parameters and ``type``
    aliases replaced by stand-ins of the same layout; ``None`` when there is none."""
    try:
        code, strings = _scan(source)
    except _Unreadable:
        return None
    out = list(source)
    changed = False
    for start, end in strings:
        literal = source[start:end]
        if _python_reads(literal):
            continue
        stand_in = _string_stand_in(literal)
        out[start:end] = [stand_in] + [""] * (end - start - 1)
        changed = True
    for match in _GENERIC_DEF.finditer(code):
        close = _closing_bracket(code, match.end())
        if close is None:
            continue
        for at in range(match.end(), close + 1):
            if out[at] not in ("\r", "\n"):
                out[at] = " "
        changed = True
    for match in _TYPE_ALIAS.finditer(code):
        indent, _, name, _ = match.groups()
        start = match.start() + len(indent)
        stop = match.end()
        if code[stop] == "[":
            close = _closing_bracket(code, stop)
            if close is None:
                continue
            stop = close + 1
        # `type X[T] = v` → `X        = v`: the value keeps its columns.
        replacement = name + " " * (stop - start - len(name))
        out[start:stop] = list(replacement)
        changed = True
    return "".join(out) if changed else None


def _text(source: str | bytes) -> str | None:
    if isinstance(source, str):
        return source
    try:
        encoding, _ = tokenize.detect_encoding(BytesIO(source).readline)
        return source.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return None


def _python_reads(literal: str) -> bool:
    try:
        ast.parse("(" + literal + ")", mode="eval")
    except (SyntaxError, ValueError):
        return False
    return True


def _string_stand_in(literal: str) -> str:
    """A plain string of ``literal``'s length and lines (one longer at worst)."""
    if "\n" not in literal and "\r" not in literal:
        return '"' + "x" * (len(literal) - 2) + '"'
    body = re.sub(r"[^\r\n]", "x", literal[3:-3]) if len(literal) >= 6 else ""
    stand_in = '"""' + body + '"""'
    lines = re.split(r"\r\n|\r|\n", literal)
    if len(re.split(r"\r\n|\r|\n", stand_in)) != len(lines):
        # Too short for the quotes: keep the line breaks, pad the last line.
        breaks = re.findall(r"\r\n|\r|\n", literal)
        stand_in = '"""' + "".join(breaks) + '"""'
    return stand_in


def _closing_bracket(code: str, at: int) -> int | None:
    depth = 0
    for index in range(at, len(code)):
        char = code[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return index if char == "]" else None
    return None


def _scan(source: str) -> tuple[str, list[tuple[int, int]]]:
    """The source with strings and comments blanked (their line breaks kept), and the
    spans of the f-strings (and t-strings) at the top level of the code."""
    code = list(source)
    strings: list[tuple[int, int]] = []
    index, size = 0, len(source)
    while index < size:
        char = source[index]
        if char == "#":
            end = _line_end(source, index)
            _blank(code, index, end)
            index = end
        elif char in "'\"":
            end = _string(source, index, "")
            _blank(code, index, end)
            index = end
        elif char.isalpha() or char == "_":
            name = _NAME.match(source, index)
            stop = name.end() if name else index + 1
            prefix = source[index:stop].lower()
            if prefix in _STRING_PREFIXES and stop < size and source[stop] in "'\"":
                end = _string(source, stop, prefix)
                _blank(code, index, end)
                if "f" in prefix or "t" in prefix:
                    strings.append((index, end))
                index = end
            else:
                index = stop
        else:
            index += 1
    return "".join(code), strings


def _blank(code: list[str], start: int, end: int) -> None:
    for at in range(start, end):
        if code[at] not in ("\r", "\n"):
            code[at] = " "


def _line_end(source: str, index: int) -> int:
    found = _LINE_BREAK.search(source, index)
    return found.start() if found else len(source)


def _string(source: str, index: int, prefix: str) -> int:
    """The end of the string literal whose quote starts at ``index``."""
    quote = source[index : index + 3] if source.startswith(("'''", '"""'), index) else source[index]
    formatted = "f" in prefix or "t" in prefix
    at = index + len(quote)
    size = len(source)
    while at < size:
        if source.startswith(quote, at):
            return at + len(quote)
        char = source[at]
        if char == "\\":
            at += 2
            continue
        if char in "\r\n" and len(quote) == 1:
            raise _Unreadable
        if formatted and char == "{":
            if source.startswith("{{", at):
                at += 2
                continue
            at = _field(source, at + 1)
            continue
        at += 1
    raise _Unreadable


def _field(source: str, index: int) -> int:
    """The end of a replacement field whose ``{`` is just before ``index`` (PEP 701:
    any string, of any quote, and brackets nest inside; a format spec holds fields)."""
    depth = 0
    at, size = index, len(source)
    while at < size:
        char = source[at]
        if char in "'\"":
            at = _string(source, at, "")
            continue
        if char.isalpha() or char == "_":
            name = _NAME.match(source, at)
            stop = name.end() if name else at + 1
            prefix = source[at:stop].lower()
            if prefix in _STRING_PREFIXES and stop < size and source[stop] in "'\"":
                at = _string(source, stop, prefix)
            else:
                at = stop
            continue
        if char == "#":
            at = _line_end(source, at)
            continue
        if char in "([{":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "}":
            if depth == 0:
                return at + 1
            depth -= 1
        elif char == ":" and depth == 0:
            return _format_spec(source, at + 1)
        at += 1
    raise _Unreadable


def _format_spec(source: str, index: int) -> int:
    at, size = index, len(source)
    while at < size:
        char = source[at]
        if char == "{":
            at = _field(source, at + 1)
            continue
        if char == "}":
            return at + 1
        if char == "\\":
            at += 2
            continue
        if char in "\r\n":
            raise _Unreadable
        at += 1
    raise _Unreadable


def _libcst_accepts(source: str) -> bool:
    import libcst as cst

    try:
        cst.parse_module(source)
    except Exception:  # ParserSyntaxError, or anything else: not accepted
        return False
    return True
