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
from dataclasses import dataclass, field
from io import BytesIO
from typing import Final

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING_PREFIXES = frozenset({"r", "u", "f", "b", "br", "rb", "fr", "rf", "t", "tr", "rt"})
_GENERIC_DEF = re.compile(r"(?m)^[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+\w+[ \t]*(?=\[)")
_TYPE_ALIAS = re.compile(r"(?m)^([ \t]*)(type[ \t]+)(\w+)([ \t]*)(?=[\[=])")
_LINE_BREAK = re.compile(r"[\r\n]")


class _Unreadable(Exception):
    """The scanner cannot follow the text (an unterminated string): no stand-ins."""


PEP701_QUOTE: Final = "quote"
PEP701_BACKSLASH: Final = "backslash"
PEP701_COMMENT: Final = "comment"
PEP701_LINE_BREAK: Final = "line-break"


@dataclass
class _Field:
    """One replacement field being scanned: where its ``{`` is, and what it holds."""

    start: int
    line_break: bool = False
    other: bool = False
    """Another PEP 701 construct was found in it (ruff then reports no line break)."""


@dataclass
class _Recorder:
    """What :func:`pep701_syntax` collects while the scanner runs."""

    quotes: list[tuple[str, bool]] = field(default_factory=list)
    """The quotes of the f-strings whose replacement fields enclose the scan, outermost
    first, and whether each is a t-string (PEP 750: its own version, not PEP 701's)."""
    fields: list[_Field] = field(default_factory=list)
    found: list[tuple[int, int, str]] = field(default_factory=list)

    @property
    def inside(self) -> bool:
        """In a replacement field of f-strings only (a t-string's are not PEP 701's)."""
        return bool(self.quotes) and not any(template for _, template in self.quotes)

    def note(self, start: int, end: int, kind: str) -> None:
        self.found.append((start, end, kind))
        if self.fields:
            self.fields[-1].other = True


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


def pep701_syntax(source: str) -> list[tuple[int, int, str]]:
    """Where ``source``'s f-strings use what only PEP 701 (Python 3.12) allows, as
    ``(start, end, kind)`` offsets into ``source``, in source order:

    - ``PEP701_QUOTE``: a string inside a replacement field opened with the quote of
      an f-string around it (``f"{row["name"]}"``); the span is that quote;
    - ``PEP701_BACKSLASH``: each backslash inside a replacement field (``f"{'\\n'}"``),
      outside its format specification;
    - ``PEP701_COMMENT``: a comment inside a replacement field, to the end of its line;
    - ``PEP701_LINE_BREAK``: a replacement field of a single-quoted f-string that spans
      lines (and holds none of the above); the span is its ``{``.

    The rules are ruff's (its version-related syntax errors). Text the scanner cannot
    follow gives nothing: only what is certain is reported.
    """
    if "{" not in source:
        return []
    recorder = _Recorder()
    try:
        _scan(source, recorder)
    except _Unreadable:
        return []
    return sorted(recorder.found)


def _reuses(quote: str, enclosing: list[tuple[str, bool]]) -> bool:
    """Before PEP 701 ``quote`` would have closed one of the enclosing f-strings."""
    return any(
        quote[0] == outer[0] and (len(outer) == 1 or len(quote) == 3) for outer, _ in enclosing
    )


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


def _scan(source: str, recorder: _Recorder | None = None) -> tuple[str, list[tuple[int, int]]]:
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
            end = _string(source, index, "", recorder)
            _blank(code, index, end)
            index = end
        elif char.isalpha() or char == "_":
            name = _NAME.match(source, index)
            stop = name.end() if name else index + 1
            prefix = source[index:stop].lower()
            if prefix in _STRING_PREFIXES and stop < size and source[stop] in "'\"":
                end = _string(source, stop, prefix, recorder)
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


def _string(source: str, index: int, prefix: str, recorder: _Recorder | None = None) -> int:
    """The end of the string literal whose quote starts at ``index``."""
    quote = source[index : index + 3] if source.startswith(("'''", '"""'), index) else source[index]
    formatted = "f" in prefix or "t" in prefix
    inside = recorder if recorder is not None and recorder.inside else None
    if inside is not None and _reuses(quote, inside.quotes):
        inside.note(index, index + len(quote), PEP701_QUOTE)
    at = index + len(quote)
    size = len(source)
    while at < size:
        if source.startswith(quote, at):
            return at + len(quote)
        char = source[at]
        if char == "\\":
            if inside is not None:
                inside.note(at, at + 1, PEP701_BACKSLASH)
                if source.startswith("\\", at + 1):
                    inside.note(at + 1, at + 2, PEP701_BACKSLASH)
            at += 2
            continue
        if char in "\r\n":
            if len(quote) == 1:
                raise _Unreadable
            if inside is not None and inside.fields:
                inside.fields[-1].line_break = True
        if formatted and char == "{":
            if source.startswith("{{", at):
                at += 2
                continue
            if recorder is None:
                at = _field(source, at + 1)
                continue
            recorder.quotes.append((quote, "t" in prefix))
            at = _field(source, at + 1, recorder)
            recorder.quotes.pop()
            continue
        at += 1
    raise _Unreadable


def _field(source: str, index: int, recorder: _Recorder | None = None) -> int:
    """The end of a replacement field whose ``{`` is just before ``index`` (PEP 701:
    any string, of any quote, and brackets nest inside; a format spec holds fields)."""
    if recorder is None:
        return _field_end(source, index, None)
    recorder.fields.append(_Field(index - 1))
    try:
        end = _field_end(source, index, recorder)
    finally:
        scanned = recorder.fields.pop()
    if (
        scanned.line_break
        and not scanned.other
        and recorder.inside
        and len(recorder.quotes[-1][0]) == 1
    ):
        recorder.note(scanned.start, scanned.start + 1, PEP701_LINE_BREAK)
    return end


def _field_end(source: str, index: int, recorder: _Recorder | None) -> int:
    depth = 0
    at, size = index, len(source)
    inside = recorder if recorder is not None and recorder.inside else None
    while at < size:
        char = source[at]
        if char in "'\"":
            at = _string(source, at, "", recorder)
            continue
        if char.isalpha() or char == "_":
            name = _NAME.match(source, at)
            stop = name.end() if name else at + 1
            prefix = source[at:stop].lower()
            if prefix in _STRING_PREFIXES and stop < size and source[stop] in "'\"":
                at = _string(source, stop, prefix, recorder)
            else:
                at = stop
            continue
        if char == "#":
            end = _line_end(source, at)
            if inside is not None:
                inside.note(at, end, PEP701_COMMENT)
            at = end
            continue
        if inside is not None:
            if char == "\\":
                inside.note(at, at + 1, PEP701_BACKSLASH)
            elif char in "\r\n":
                inside.fields[-1].line_break = True
        if char in "([{":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "}":
            if depth == 0:
                return at + 1
            depth -= 1
        elif char == ":" and depth == 0:
            return _format_spec(source, at + 1, recorder)
        at += 1
    raise _Unreadable


def _format_spec(source: str, index: int, recorder: _Recorder | None = None) -> int:
    at, size = index, len(source)
    while at < size:
        char = source[at]
        if char == "{":
            at = _field(source, at + 1, recorder)
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
