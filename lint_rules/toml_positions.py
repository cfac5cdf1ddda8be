"""Where keys and values sit in a TOML text, for error messages with a caret.

``tomllib`` returns plain values without positions, so a config error could
only name a dotted key. This scanner reads the text once more and records,
for every key path (``("tool", "toolret", "select", 1)``: strings for keys,
integers for array elements), the offset of its key and of its value. It
understands what a config file uses - tables, dotted keys, quoted keys,
arrays and inline tables spanning lines, comments, every string form - and
is only ever run on text ``tomllib`` has already accepted. Anything it does
not follow simply has no position; the message then names the file alone.
"""

from __future__ import annotations

import contextlib
import re
import sys
from dataclasses import dataclass

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = ["Span", "TomlPositions", "deepest_nesting"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SPACE = " \t"

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Span:
    """Offsets into the text: the key (or table header) and the value."""

    key: int
    value: int
    value_end: int


class TomlPositions:
    """The spans of every key path in ``text`` (a valid TOML document)."""

    def __init__(self, text: str, *, scan: bool = True) -> None:
        """``scan=False``: no spans, only ``line_column`` and ``snippet`` (for invalid TOML)."""
        self.text = text
        self.spans: dict[Path, Span] = {}
        if not scan:
            return
        # Valid TOML is always followed; should a form slip through, what was read stands.
        with contextlib.suppress(IndexError, ValueError):  # TOMLDecodeError is one
            self._scan()

    def find(self, path: Path, *, minimum: int = 1) -> tuple[Span, bool] | None:
        """The span of ``path``, else of its longest recorded prefix (at least ``minimum``
        parts long); with whether the span is ``path``'s own."""
        for length in range(len(path), minimum - 1, -1):
            span = self.spans.get(path[:length])
            if span is not None:
                return span, length == len(path)
        return None

    def line_column(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of ``offset``."""
        line = self.text.count("\n", 0, offset) + 1
        start = self.text.rfind("\n", 0, offset) + 1
        return line, offset - start + 1

    def snippet(self, offset: int, end: int) -> str:
        """ruff's gutter: the line holding ``offset`` with carets under ``offset:end``."""
        line, column = self.line_column(offset)
        start = offset - column + 1
        line_end = self.text.find("\n", start)
        if line_end < 0:
            line_end = len(self.text)
        source = self.text[start:line_end].rstrip("\r")
        width = max(1, min(end, start + len(source)) - offset)
        gutter = " " * len(str(line))
        caret = " " * (column - 1) + "^" * width
        return f"{gutter} |\n{line} | {source}\n{gutter} | {caret}"

    # -- scanning -----------------------------------------------------------

    def _scan(self) -> None:
        text = self.text
        table: Path = ()
        pos = self._skip(0, newlines=True)
        while pos < len(text):
            if text[pos] == "[":
                array = text.startswith("[[", pos)
                header = pos
                parts, pos = self._key(self._skip(pos + (2 if array else 1)))
                table = parts
                end = text.find("\n", pos)
                end = len(text) if end < 0 else end
                self.spans.setdefault(table, Span(header, header, end))
                pos = end
            else:
                key_start = pos
                parts, pos = self._key(pos)
                pos = self._skip(pos)
                if text[pos] != "=":
                    raise ValueError("expected '='")
                pos = self._value(self._skip(pos + 1), (*table, *parts), key_start)
            pos = self._skip(pos, newlines=True)

    def _skip(self, pos: int, *, newlines: bool = False) -> int:
        """Past blanks (and, with ``newlines``, line breaks and comments)."""
        text = self.text
        while pos < len(text):
            char = text[pos]
            if char in _SPACE or (newlines and char in "\r\n"):
                pos += 1
            elif char == "#" and newlines:
                end = text.find("\n", pos)
                pos = len(text) if end < 0 else end
            else:
                break
        return pos

    def _key(self, pos: int) -> tuple[Path, int]:
        """A dotted key starting at ``pos``: its parts and the offset after it."""
        text = self.text
        parts: list[str | int] = []
        while True:
            pos = self._skip(pos)
            char = text[pos]
            if char in "\"'":
                end = self._string_end(pos)
                raw = text[pos:end]
                parts.append(_basic_string(raw) if char == '"' else raw[1:-1])
                pos = end
            else:
                match = _BARE_KEY.match(text, pos)
                if match is None:
                    raise ValueError("expected a key")
                parts.append(match.group())
                pos = match.end()
            pos = self._skip(pos)
            if pos < len(text) and text[pos] == ".":
                pos += 1
                continue
            if pos < len(text) and text[pos] == "]":
                pos += 2 if text.startswith("]]", pos) else 1
            return tuple(parts), pos

    def _string_end(self, pos: int) -> int:
        text = self.text
        quote = text[pos]
        if text.startswith(quote * 3, pos):
            end = pos + 3
            while True:
                end = text.index(quote * 3, end)
                if quote == '"' and _escaped(text, end):
                    end += 1
                    continue
                end += 3
                while end < len(text) and text[end] == quote:  # up to two quotes end the body
                    end += 1
                return end
        end = pos + 1
        while True:
            end = text.index(quote, end)
            if quote == '"' and _escaped(text, end):
                end += 1
                continue
            return end + 1

    def _value(self, pos: int, path: Path, key: int) -> int:
        """Record the value at ``pos`` (and its elements) under ``path``; the offset after it."""
        text = self.text
        char = text[pos]
        if char in "\"'":
            end = self._string_end(pos)
        elif char == "[":
            end = self._array(pos, path)
        elif char == "{":
            end = self._inline_table(pos, path)
        else:
            end = pos
            while end < len(text) and text[end] not in ",]}#\r\n":
                end += 1
            while end > pos and text[end - 1] in _SPACE:
                end -= 1
        self.spans.setdefault(path, Span(key, pos, end))
        return end

    def _array(self, pos: int, path: Path) -> int:
        text = self.text
        pos += 1
        index = 0
        while True:
            pos = self._skip(pos, newlines=True)
            if text[pos] == "]":
                return pos + 1
            end = self._value(pos, (*path, index), pos)
            if end == pos:
                raise ValueError("expected a value")
            pos = self._skip(end, newlines=True)
            index += 1
            if text[pos] == ",":
                pos += 1

    def _inline_table(self, pos: int, path: Path) -> int:
        text = self.text
        pos += 1
        while True:
            pos = self._skip(pos, newlines=True)
            if text[pos] == "}":
                return pos + 1
            key_start = pos
            parts, pos = self._key(pos)
            pos = self._skip(pos)
            if text[pos] != "=":
                raise ValueError("expected '='")
            start = self._skip(pos + 1)
            pos = self._value(start, (*path, *parts), key_start)
            if pos == start:
                raise ValueError("expected a value")
            pos = self._skip(pos, newlines=True)
            if text[pos] == ",":
                pos += 1


def deepest_nesting(text: str) -> tuple[int, int] | None:
    """The value whose arrays and inline tables nest deepest: the offset of its opening
    bracket and its depth (the first such value); ``None`` when nothing nests.

    For a text ``tomllib`` gave up on with ``RecursionError``, so it reads as little as
    it can: strings and comments are skipped, a ``[`` is a table header unless a value
    is expected (after ``=``, or inside an array or inline table). Should the text end
    inside a string, what was read stands.
    """
    reader = TomlPositions(text, scan=False)
    best: tuple[int, int] | None = None
    depth = 0
    deepest = 0
    opened = 0
    value_expected = False
    pos = 0
    length = len(text)
    while pos < length:
        char = text[pos]
        if char == "#":
            end = text.find("\n", pos)
            pos = length if end < 0 else end
            continue
        if char in "\"'":
            try:
                pos = reader._string_end(pos)
            except ValueError:  # unterminated: the nesting read so far is the answer
                break
            value_expected = False
            continue
        if char in "[{" and (depth or value_expected or char == "{"):
            if depth == 0:
                opened, deepest = pos, 0
            depth += 1
            deepest = max(deepest, depth)
            if best is None or deepest > best[1]:
                best = (opened, deepest)
        elif char in "]}" and depth:
            depth -= 1
        elif char == "=":
            value_expected = True
            pos += 1
            continue
        if char not in _SPACE:
            value_expected = False
        pos += 1
    return best


def _basic_string(raw: str) -> str:
    """A quoted key's value, TOML's escapes (``\\U0001F600`` too) decoded by tomllib itself."""
    value: str = tomllib.loads(f"key = {raw}")["key"]
    return value


def _escaped(text: str, quote: int) -> bool:
    """Whether the quote at ``quote`` follows an odd number of backslashes."""
    count = 0
    while quote - count - 1 >= 0 and text[quote - count - 1] == "\\":
        count += 1
    return count % 2 == 1
