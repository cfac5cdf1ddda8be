"""Suppression comments: ruff's ``# noqa`` syntax, plus flake8's prefix match.

toolret speaks ruff's dialect because ruff loads no plugins: a project that
runs both tools must be able to write one ``# noqa: TRV101`` that both
understand (and list ``TRV`` in ruff's ``lint.external`` so RUF100 keeps it).

Line directives (on the line of the diagnostic)::

    x = f()  # noqa                      every code
    x = f()  #NOQA                       case and spacing are free
    x = f()  # noqa: TRV101              one code
    x = f()  # noqa:TRV101,TRV102        commas and/or whitespace separate codes
    x = f()  # noqa: TRV1                flake8's prefix match: TRV101..TRV108
    x = f()  # type: ignore  # noqa: TRV101   after other comment text
    x = f()  # noqa: TRV101 because ...  text after the codes is a comment

File directives (on a line of their own, anywhere in the file)::

    # ruff: noqa                         every code, whole file
    # flake8: noqa: TRV101               only these codes, whole file
    # toolret: noqa

A malformed directive suppresses nothing, as in ruff: ``#noqaTRV101``,
``# noqa; TRV101``, ``# noqa:`` with no code, ``# noqa: TRV101abc``. Codes are
``[A-Z]+[0-9]*``: ruff requires digits, but flake8 users write ``# noqa: TRV``
to silence a whole plugin, so a letters-only code is accepted as a prefix.

Only real comments count: text that looks like ``# noqa`` inside a string
literal is not a directive. Finding comments needs the tokenizer, which is
slow, so a file is tokenized only when it contains ``noqa`` at all.

Which line a diagnostic's directive must be on
-----------------------------------------------
toolret looks at the diagnostic's start row. When that row begins a multi-line
string or a backslash continuation, the directive goes on the *last* line of
it: the start row has no place for a comment there, so this is the only line
a user can write one on, and it is where ruff (``noqa_line_for``) and flake8
look too. ``NoqaDirectives.noqa_row`` gives that row, e.g. for a
"disable for this line" action.

Where flake8 differs
--------------------
The flake8 plugin lets flake8 apply ``# noqa`` itself, so under flake8 these
flake8 7 behaviours hold instead:

* flake8 matches the raw text of the physical line(s) for a diagnostic's
  line, joined over a multi-line string or backslash continuation (so a
  directive on the string's last line applies). Because it is a text search,
  ``"# noqa"`` inside a string literal suppresses in flake8, not in toolret.
* flake8's pattern is exactly ``# noqa`` (one space): ``#noqa`` and
  ``#  noqa`` are not directives there.
* In flake8, ``# noqa:`` followed by something that is not a code, or by
  ``TRV`` alone (its codes need a digit), is a *blanket* ``# noqa``; toolret
  reads ``# noqa: TRV`` as a prefix and ``# noqa:`` alone as malformed.
* flake8's file directive is ``# flake8: noqa`` (or ``flake8=noqa``) and
  ignores the whole file even when codes follow (``# flake8: noqa: TRV101``
  silences everything); toolret, like ruff, limits it to the listed codes.
  flake8 does not know ``# ruff: noqa`` or ``# toolret: noqa``.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = [
    "Directive",
    "NoqaDirectives",
    "UnusedDirective",
    "add_noqa",
    "ignores_all",
    "set_ignore_all",
]

_IGNORE_ALL = False


def set_ignore_all(ignore: bool) -> None:
    """``--ignore-noqa``: while set, no directive suppresses anything (in this process
    and in the workers it forks afterwards)."""
    global _IGNORE_ALL
    _IGNORE_ALL = ignore


def ignores_all() -> bool:
    """Whether ``--ignore-noqa`` is in force (``set_ignore_all``)."""
    return _IGNORE_ALL


_NOQA_ANYWHERE = re.compile("noqa", re.IGNORECASE)
_CODE = re.compile(r"[A-Z]+[0-9]*", re.ASCII)
# ``ruff`` and ``flake8`` are case-sensitive in ruff's file directive; ``noqa`` is not.
_FILE_TOOL = re.compile(r"(?:ruff|flake8|toolret)\s*:\s*")


@dataclass(frozen=True)
class Directive:
    """One ``noqa`` directive in a comment.

    ``codes`` is ``None`` for a blanket directive and empty for a malformed
    one (which suppresses nothing). ``start`` and ``end`` are offsets in the
    text that was lexed: the ``#`` that opens the directive, and the end of
    its last code (or of the word ``noqa``).
    """

    codes: tuple[str, ...] | None
    start: int
    end: int
    codes_start: int = field(default=-1, compare=False)
    """Where the first code starts (``-1``: a blanket directive, or no code)."""

    @property
    def is_valid(self) -> bool:
        return self.codes is None or len(self.codes) > 0

    def covers(self, code: str) -> bool:
        """Whether this directive suppresses ``code`` (exactly, or by prefix)."""
        if self.codes is None:
            return True
        return any(code.startswith(listed) for listed in self.codes)


def _skip_whitespace(text: str, index: int) -> int:
    while index < len(text) and text[index].isspace():
        index += 1
    return index


def _is_noqa_word(text: str, index: int) -> bool:
    word = text[index : index + 4]
    return word.isascii() and word.lower() == "noqa"


def lex_directive(text: str, *, file_level: bool = False) -> Directive | None:
    """Find the first ``noqa`` directive in comment ``text`` (which may hold several ``#``).

    With ``file_level``, look for ``# ruff: noqa`` / ``# flake8: noqa`` /
    ``# toolret: noqa`` instead of a line directive. Returns ``None`` when
    there is no directive; a malformed one is returned with empty codes.
    """
    position = 0
    while True:
        hash_index = text.find("#", position)
        if hash_index < 0:
            return None
        position = hash_index + 1
        index = _skip_whitespace(text, position)
        if file_level:
            tool = _FILE_TOOL.match(text, index)
            if tool is None:
                continue
            index = tool.end()
        if not _is_noqa_word(text, index):
            continue
        return _lex_after_noqa(text, hash_index, index + 4)


def _lex_after_noqa(text: str, start: int, index: int) -> Directive:
    blanket = Directive(codes=None, start=start, end=index)
    if index == len(text) or text[index] == "#":
        return blanket
    if text[index] == ":":
        return _lex_codes(text, start, index + 1)
    if text[index].isspace():
        # Spaces before the colon still introduce codes; any other word means blanket.
        after = _skip_whitespace(text, index)
        if after < len(text) and text[after] == ":":
            return _lex_codes(text, start, after + 1)
        return blanket
    # Anything else glued to the word (a code, a semicolon): ruff rejects it rather than guess.
    return Directive(codes=(), start=start, end=index)


def _lex_codes(text: str, start: int, index: int) -> Directive:
    codes: list[str] = []
    end = index
    codes_start = -1
    joined = False  # the previous code ran straight into this one (``TRV101TRV102``)
    while True:
        index = _skip_whitespace(text, index)
        if index >= len(text):
            break
        if text[index] == ",":
            index += 1
            continue
        match = _CODE.match(text, index)
        if match is None:
            break  # the codes are over; what follows is prose or another comment
        code = match.group()
        if codes_start < 0:
            codes_start = index
        after = match.end()
        following = text[after] if after < len(text) else ""
        has_digits = code[-1].isdigit()
        if following in ("", ",", "#") or following.isspace():
            codes.append(code)
            end, index, joined = after, after, False
            continue
        if has_digits and "A" <= following <= "Z":
            codes.append(code)
            end, index, joined = after, after, True
            continue
        if has_digits or joined:
            # ``TRV101abc``: a code with junk glued on; ruff rejects the directive.
            return Directive(codes=(), start=start, end=after)
        break  # an uppercase word such as ``This`` starts the trailing prose
    return Directive(codes=tuple(codes), start=start, end=end, codes_start=codes_start)


UsageKey = tuple[str, int]
"""Which directive suppressed a diagnostic: ``("line", row)`` or ``("file", index)``."""


@dataclass(frozen=True)
class UnusedDirective:
    """A directive (or some of its codes) that suppressed nothing: TRV004's finding.

    Rows are 1-based, columns 1-based code points (the directive's span, ruff's); the
    edit replaces ``edit_start``..``edit_end`` (exclusive) with ``content``.
    """

    row: int
    column: int
    end_column: int
    message: str
    edit_start: tuple[int, int]
    edit_end: tuple[int, int]
    content: str


class NoqaDirectives:
    """Every suppression comment of one source file.

    Build it once per file with ``from_source`` and ask ``suppresses`` for
    each diagnostic; a file without the word ``noqa`` is never tokenized.
    """

    __slots__ = (
        "_columns",
        "_file_all",
        "_file_codes",
        "_file_directives",
        "_line_starts",
        "_lines",
        "_source",
        "_span_end",
    )

    def __init__(
        self,
        *,
        lines: dict[int, Directive],
        file_all: bool,
        file_codes: tuple[str, ...],
        span_end: dict[int, int] | None,
        source: str,
        columns: dict[int, int] | None = None,
        file_directives: tuple[tuple[int, int, Directive], ...] = (),
    ) -> None:
        self._lines = lines
        self._file_all = file_all
        self._file_codes = file_codes
        self._span_end = span_end
        self._source = source
        self._line_starts: list[int] | None = None
        self._columns = columns if columns is not None else {}
        """Row -> 0-based column of the comment that holds the row's directive."""
        self._file_directives = file_directives
        """``(row, column, directive)`` of each file directive that lists codes."""

    @classmethod
    def from_source(cls, source: str) -> NoqaDirectives:
        if _NOQA_ANYWHERE.search(source) is None:
            return cls(lines={}, file_all=False, file_codes=(), span_end=None, source=source)
        comments, span_end = _scan(source)
        lines: dict[int, Directive] = {}
        columns: dict[int, int] = {}
        file_all = False
        file_codes: list[str] = []
        file_directives: list[tuple[int, int, Directive]] = []
        for row, column, own_line, text in comments:
            if own_line:
                file_directive = lex_directive(text, file_level=True)
                if file_directive is not None:
                    if file_directive.codes is None:
                        file_all = True
                    else:
                        file_codes.extend(file_directive.codes)
                        file_directives.append((row, column, file_directive))
                    continue
            directive = lex_directive(text)
            if directive is not None:
                lines[row] = directive
                columns[row] = column
        return cls(
            lines=lines,
            file_all=file_all,
            file_codes=tuple(file_codes),
            span_end=span_end,
            source=source,
            columns=columns,
            file_directives=tuple(file_directives),
        )

    @property
    def exempts_file(self) -> bool:
        """Whether a blanket file directive (``# ruff: noqa``) silences every code."""
        return self._file_all

    def line_directive(self, row: int) -> Directive | None:
        """The directive written on physical line ``row`` (1-based), if any."""
        return self._lines.get(row)

    def noqa_row(self, row: int, *, token_start: bool = False) -> int:
        """The line whose directive applies to a diagnostic starting on ``row``.

        ``row`` itself, or the last line of the multi-line string or backslash
        continuation that begins on it. ``token_start``: a token is known to
        start on ``row`` (a reported node's first line). Then the run goes on
        past ``row`` only if a token starting there spans lines (a string, so
        the line holds a triple quote or ends in a backslash) or the line ends
        in a continuation backslash: any other row is answered without
        tokenizing the file, which is the slow part.
        """
        if self._span_end is None:
            if token_start and not self._may_continue(row):
                return row
            _, self._span_end = _scan(self._source)
        return self._span_end.get(row, row)

    def _may_continue(self, row: int) -> bool:
        line = self._line_text(row)
        return line is None or '"""' in line or "'''" in line or line.endswith("\\")

    def _line_text(self, row: int) -> str | None:
        """Physical line ``row`` without its line break (``None``: no such line)."""
        if self._line_starts is None:
            self._line_starts = [0, *(m.end() for m in _LINE_BREAK.finditer(self._source))]
        if not 1 <= row <= len(self._line_starts):
            return None
        start = self._line_starts[row - 1]
        end = self._line_starts[row] if row < len(self._line_starts) else len(self._source)
        return self._source[start:end].rstrip("\r\n")

    def _is_last(self, row: int) -> bool:
        """Whether no line (not even an empty one after a final line break) follows ``row``."""
        self._line_text(row)
        return self._line_starts is None or row >= len(self._line_starts)

    def suppresses(self, code: str, row: int, *, token_start: bool = False) -> bool:
        """Whether ``code`` reported at 1-based ``row`` is silenced by a comment
        (``token_start``: as in ``noqa_row``)."""
        if _IGNORE_ALL:
            return False
        return self.suppressor(code, row, token_start=token_start) is not None

    def suppressor(self, code: str, row: int, *, token_start: bool = False) -> UsageKey | None:
        """The directive that silences ``code`` at ``row`` (``--ignore-noqa`` aside, as
        ruff judges its RUF100 either way): a file directive first, as in ruff."""
        if self._file_all:
            return ("file", -1)
        if self._file_codes:
            for index, (_, _, listed) in enumerate(self._file_directives):
                if listed.covers(code):
                    return ("file", index)
        if not self._lines:
            return None
        noqa_row = self.noqa_row(row, token_start=token_start)
        directive = self._lines.get(noqa_row)
        if directive is not None and directive.covers(code):
            return ("line", noqa_row)
        return None

    # -- unused directives (TRV004, ruff's RUF100) --------------------------------

    def unused(
        self,
        used: dict[UsageKey, set[str]],
        *,
        own_code: str,
        is_enabled: Callable[[str], bool],
        is_known: Callable[[str], bool],
        is_own: Callable[[str], bool],
        external: tuple[str, ...],
    ) -> list[UnusedDirective]:
        """Each directive, or code of one, that silenced nothing, as ruff's RUF100 judges
        them. ``used``: the codes each directive silenced (``suppressor``'s keys).

        A code listed is *unused* when its rule (a code or a prefix of toolret's) is
        enabled but silenced nothing, *non-enabled* when no enabled rule has it, and
        *duplicated* when the directive already listed it; a code of toolret's namespace
        (``is_own``) that names no rule is *unknown*. Other tools' codes and those under
        an ``external`` prefix are never reported (ruff's RUF100 ignores codes unknown
        to it). A directive that lists ``own_code`` (TRV004) is not judged; nor is any
        when a file directive exempts ``own_code``, or every code. A blanket line
        ``# noqa`` that silenced nothing is reported whole.
        """
        if self._file_all or any(d.covers(own_code) for _, _, d in self._file_directives):
            return []
        found: list[UnusedDirective] = []
        for index, (row, column, directive) in enumerate(self._file_directives):
            item = self._judge(
                row,
                column,
                directive,
                used.get(("file", index), set()),
                own_code,
                is_enabled,
                is_known,
                is_own,
                external,
                file_level=True,
            )
            if item is not None:
                found.append(item)
        for row, directive in self._lines.items():
            written = self._columns.get(row)
            if written is None or not directive.is_valid:
                continue  # a malformed directive suppresses nothing and is not ruff's RUF100
            item = self._judge(
                row,
                written,
                directive,
                used.get(("line", row), set()),
                own_code,
                is_enabled,
                is_known,
                is_own,
                external,
                file_level=False,
            )
            if item is not None:
                found.append(item)
        return sorted(found, key=lambda item: (item.row, item.column))

    def _judge(
        self,
        row: int,
        column: int,
        directive: Directive,
        silenced: set[str],
        own_code: str,
        is_enabled: Callable[[str], bool],
        is_known: Callable[[str], bool],
        is_own: Callable[[str], bool],
        external: tuple[str, ...],
        *,
        file_level: bool,
    ) -> UnusedDirective | None:
        line = self._line_text(row)
        if line is None:
            return None
        start, end = column + directive.start, column + directive.end
        if directive.codes is None:
            if silenced:
                return None
            edit = _delete_comment(line, row, start, end, last=self._is_last(row))
            return UnusedDirective(row, start + 1, end + 1, UNUSED_BLANKET, *edit)
        if directive.covers(own_code):
            return None  # it lists TRV004 itself, as a `RUF100` in ruff: not judged
        valid: list[str] = []
        unmatched: list[str] = []
        disabled: list[str] = []
        duplicated: list[str] = []
        unknown: list[str] = []
        seen: set[str] = set()
        for code in directive.codes:
            if code in seen:
                duplicated.append(code)
                continue
            seen.add(code)
            if any(found.startswith(code) for found in silenced) or code.startswith(external):
                valid.append(code)
            elif is_known(code):
                (unmatched if is_enabled(code) else disabled).append(code)
            elif is_own(code):
                unknown.append(code)
            else:
                valid.append(code)  # another tool's code: not toolret's to judge
        if not (unmatched or disabled or duplicated or unknown):
            return None
        reasons = [
            f"{label}: {', '.join(f'`{code}`' for code in codes)}"
            for label, codes in (
                ("unused", unmatched),
                ("non-enabled", disabled),
                ("duplicated", duplicated),
                ("unknown", unknown),
            )
            if codes
        ]
        message = f"{UNUSED_CODES} ({'; '.join(reasons)})"
        if valid:
            prefix = line[start : column + directive.codes_start] if file_level else "# noqa: "
            edit = ((row, start + 1), (row, end + 1), prefix + ", ".join(valid))
        else:
            edit = _delete_comment(line, row, start, end, last=self._is_last(row))
        return UnusedDirective(row, start + 1, end + 1, message, *edit)


UNUSED_BLANKET = "Unused blanket `noqa` directive"
UNUSED_CODES = "Unused `noqa` directive"
UNUSED_FIX_TITLE = "Remove unused `noqa` directive"


def _delete_comment(
    line: str, row: int, start: int, end: int, *, last: bool
) -> tuple[tuple[int, int], tuple[int, int], str]:
    """The edit that removes the directive at ``start``..``end`` of ``line``: ruff's
    ``delete_comment``, except that text after the directive (a reason) is kept as a
    comment of its own. Positions are ``(row, 1-based column)``."""
    before, after = line[:start], line[end:]
    leading = len(before) - len(before.rstrip())
    trailing = len(after) - len(after.lstrip())
    if not before.strip() and not after.strip():
        if last:  # no line break after it to take along
            return ((row, 1), (row, len(line) + 1), "")
        return ((row, 1), (row + 1, 1), "")  # the directive is the whole line
    if not after.strip():
        return ((row, start - leading + 1), (row, len(line) + 1), "")
    if after.lstrip().startswith("#"):
        return ((row, start + 1), (row, end + trailing + 1), "")
    return ((row, start + 1), (row, end + trailing + 1), "# ")


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


# The tokens 3.12+ (f-strings, PEP 701) and 3.14+ (t-strings, PEP 750) open and close
# a string with; absent on older interpreters, which give one STRING token instead.
_STRING_OPENS = frozenset(
    getattr(tokenize, name)
    for name in ("FSTRING_START", "TSTRING_START")
    if hasattr(tokenize, name)
)
_STRING_CLOSES = frozenset(
    getattr(tokenize, name) for name in ("FSTRING_END", "TSTRING_END") if hasattr(tokenize, name)
)


def _scan(source: str) -> tuple[list[tuple[int, int, bool, str]], dict[int, int]]:
    """Comments ``(row, column, on_own_line, text)`` and the rows of multi-line token runs.

    A run is what flake8 groups between NL/NEWLINE tokens: a multi-line string
    or a backslash continuation. Each row of a run maps to the run's last row.
    A file that stops tokenizing part-way keeps what was found before; such a
    file cannot be parsed anyway, and its TRV001 is reported regardless.
    """
    comments: list[tuple[int, int, bool, str]] = []
    span_end: dict[int, int] = {}
    first = last = -1
    nested = 0  # open f-/t-strings: 3.12+ tokenizes their fields, NL and comments included
    try:
        # Lines end at ``\r\n``, ``\r`` or ``\n``, as for CPython and LibCST: a reader that
        # split only at ``\n`` would see a CR-only file as one line and no comment on its row.
        for token in tokenize.generate_tokens(io.StringIO(source, newline=None).readline):
            kind = token.type
            if kind in (tokenize.ENDMARKER, tokenize.DEDENT):
                continue
            if kind in _STRING_OPENS:
                nested += 1
            elif kind in _STRING_CLOSES:
                nested -= 1
            if nested:
                # Inside an f-string, as one STRING token is before 3.12: its lines are
                # one run, and a comment in a field there is not a directive's place.
                if first < 0:
                    first = token.start[0]
                last = max(last, token.end[0])
                continue
            if kind == tokenize.COMMENT:
                row, column = token.start
                own_line = token.line[:column].strip() == ""
                comments.append((row, column, own_line, token.string))
            if first < 0:
                first = token.start[0]
            last = max(last, token.end[0])
            if kind in (tokenize.NL, tokenize.NEWLINE):
                if last > first:
                    for row in range(first, last + 1):
                        span_end[row] = last
                first = last = -1
    except (tokenize.TokenError, SyntaxError, UnicodeError):
        # 3.12's C tokenizer also refuses a lone surrogate (UnicodeEncodeError).
        pass
    return comments, span_end


def add_noqa(line: str, code: str) -> str:
    """Return ``line`` with ``code`` suppressed by its ``# noqa`` comment.

    Appends ``  # noqa: CODE`` (ruff's spacing), or adds ``CODE`` to the
    codes of an existing directive; unchanged when the line already
    suppresses it. ``line`` is one physical line, the one ``noqa_row``
    names, with or without its line ending (which is kept).
    """
    body, ending = _split_line_ending(line)
    comment = _comment_start(body)
    if comment is not None:
        directive = lex_directive(body[comment:])
        if directive is not None:
            start, end = comment + directive.start, comment + directive.end
            if directive.is_valid:
                if directive.covers(code):
                    return line
                return f"{body[:end]}, {code}{body[end:]}{ending}"
            # A malformed directive would hide a new one behind it: put ours first.
            return f"{body[:start]}# noqa: {code} {body[start:]}{ending}"
    return f"{body.rstrip()}  # noqa: {code}{ending}"


def _split_line_ending(line: str) -> tuple[str, str]:
    for ending in ("\r\n", "\n", "\r"):
        if line.endswith(ending):
            return line[: -len(ending)], ending
    return line, ""


def _comment_start(body: str) -> int | None:
    """Offset of the ``#`` that starts the comment of one physical line, if any.

    A line is read on its own, so it may begin inside a triple-quoted string
    that a previous line opened. A line that holds a directive ends outside
    any string, so when reading from the start leaves a triple quote open,
    the line must have begun inside one: read it again that way.
    """
    found, open_quote = _scan_line(body, None)
    if open_quote is not None and len(open_quote) == 3:
        for quote in ('"""', "'''"):
            retry, still_open = _scan_line(body, quote)
            if still_open is None:
                return retry
    return found


def _scan_line(body: str, quote: str | None) -> tuple[int | None, str | None]:
    index = 0
    while index < len(body):
        char = body[index]
        if quote is not None:
            if char == "\\":
                index += 2
            elif body.startswith(quote, index):
                index += len(quote)
                quote = None
            else:
                index += 1
            continue
        if char == "#":
            return index, None
        if char in "'\"":
            quote = char * 3 if body.startswith(char * 3, index) else char
            index += len(quote)
            continue
        index += 1
    return None, quote
