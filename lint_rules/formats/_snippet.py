"""The code frame of ruff's ``full`` format, for one primary annotation without a label.

ruff draws it with annotate-snippets (plain style, ``…`` as the cut indicator), which is
a port of rustc's emitter. This module follows that renderer step by step, for the one
case a toolret diagnostic needs: two lines of context around the range (leading and
trailing blank lines dropped), ``^`` under a range on one line, the ``_^`` / ``|_^``
drawing (or ``/`` when the range starts a line) for a range over several lines, tabs as
four spaces, double-width characters, and long lines cut around the range.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from lint_rules.formats._source import SourceText

TERM_WIDTH = 140
CONTEXT_LINES = 2
CUT_INDICATOR = "…"

# Rust's `char::is_whitespace` (the Unicode White_Space property).
_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

# annotate-snippets' OUTPUT_REPLACEMENTS: control characters made visible, tabs expanded.
REPLACEMENTS: dict[str, str] = {
    **{chr(code): chr(0x2400 + code) for code in range(0x20) if code != 0x0A},
    "\t": "    ",
    "\x7f": "\u2421",
    "\u200d": "",
    **{char: "\ufffd" for char in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"},
}

# Characters annotate-snippets counts as one column whatever `unicode-width` says.
_ONE_COLUMN = frozenset(
    [chr(code) for code in range(0x20) if code not in (0x09, 0x0A)]
    + ["\x7f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068"]
    + ["\u2069"]
)


def is_rust_whitespace(char: str) -> bool:
    return char in _WHITESPACE


def rust_trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] in _WHITESPACE:
        start += 1
    while end > start and text[end - 1] in _WHITESPACE:
        end -= 1
    return text[start:end]


def char_width(char: str) -> int:
    """Display columns of one character, as annotate-snippets computes them."""
    if " " <= char < "\x7f":
        return 1
    return _char_width(char)


@lru_cache(maxsize=4096)
def _char_width(char: str) -> int:
    if char == "\t":
        return 4
    if char in _ONE_COLUMN:
        return 1
    return _unicode_width(char)


# Default_Ignorable_Code_Point (DerivedCoreProperties.txt): zero columns in `unicode-width`.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x1160, 0x1160),  # U+115F, also default-ignorable, is two columns wide
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _unicode_width(char: str) -> int:
    # An approximation of the `unicode-width` crate, from Python's Unicode database.
    code = ord(char)
    if any(low <= code <= high for low, high in _DEFAULT_IGNORABLE):
        return 0
    if unicodedata.category(char) in ("Mn", "Me"):
        return 0
    if 0x1160 <= code <= 0x11FF or 0xD7B0 <= code <= 0xD7FF:
        return 0
    if unicodedata.east_asian_width(char) in ("W", "F"):
        return 2
    return 1


def str_width(text: str) -> int:
    if text.isascii() and text.isprintable():
        return len(text)
    return sum(map(char_width, text))


def normalize_whitespace(text: str) -> str:
    return "".join(REPLACEMENTS.get(char, char) for char in text)


@dataclass(frozen=True)
class _Line:
    text: str
    index: int
    start: int
    end: int
    """Offset after the line terminator."""
    terminator: int


@dataclass(frozen=True)
class _Loc:
    line: int
    char: int
    display: int


AnnotationKind = Literal["single", "start", "end", "line"]


@dataclass(frozen=True)
class _LineAnnotation:
    kind: AnnotationKind
    start: int
    """Display column where the marker starts."""
    end: int
    depth: int = 0


@dataclass
class _AnnotatedLine:
    line: _Line
    annotations: list[_LineAnnotation] = field(default_factory=list)


class _Buffer:
    """A grid of characters, one cell per character (rustc's ``StyledBuffer``, unstyled)."""

    def __init__(self) -> None:
        self.rows: list[list[str]] = []

    def num_lines(self) -> int:
        return len(self.rows)

    def putc(self, row: int, col: int, char: str) -> None:
        while len(self.rows) <= row:
            self.rows.append([])
        cells = self.rows[row]
        if col >= len(cells):
            cells.extend(" " * (col + 1 - len(cells)))
        cells[col] = char

    def puts(self, row: int, col: int, text: str) -> None:
        if not text:
            return
        while len(self.rows) <= row:
            self.rows.append([])
        cells = self.rows[row]
        end = col + len(text)
        if end > len(cells):
            cells.extend(" " * (end - len(cells)))
        cells[col:end] = text

    def append(self, row: int, text: str) -> None:
        col = len(self.rows[row]) if row < len(self.rows) else 0
        self.puts(row, col, text)

    def replace(self, row: int, start: int, end: int, text: str) -> None:
        if start == end:
            return
        cells = self.rows[row]
        if start > len(cells) or end > len(cells):
            return
        cells[start:end] = list(text)

    def render(self) -> list[str]:
        return ["".join(cells) for cells in self.rows]


@dataclass(frozen=True)
class _Margin:
    """rustc's ``Margin``: which columns of long lines stay visible."""

    computed_left: int
    computed_right: int
    column_width: int

    @classmethod
    def compute(
        cls,
        whitespace_left: int,
        span_left: int,
        span_right: int,
        label_right: int,
        column_width: int,
        max_line_len: int,
    ) -> _Margin:
        padding = 6
        whitespace_left = max(whitespace_left - padding, 0)
        span_left = max(span_left - padding, 0)
        span_right += padding
        label_right += padding
        computed_left = whitespace_left - 16 if whitespace_left > 20 else 0
        computed_right = max(max_line_len, computed_left)
        if computed_right - computed_left > column_width:
            if label_right - whitespace_left <= column_width:
                computed_left = whitespace_left
                computed_right = computed_left + column_width
            elif label_right - span_left <= column_width:
                padding_left = (column_width - (label_right - span_left)) // 2
                computed_left = max(span_left - padding_left, 0)
                computed_right = computed_left + column_width
            elif span_right - span_left <= column_width:
                padding_left = (column_width - (span_right - span_left)) // 5 * 2
                computed_left = max(span_left - padding_left, 0)
                computed_right = computed_left + column_width
            else:
                computed_left = span_left
                computed_right = span_right
        return cls(computed_left, computed_right, column_width)

    def was_cut_left(self) -> bool:
        return self.computed_left > 0

    def left(self, line_len: int) -> int:
        return min(self.computed_left, line_len)

    def right(self, line_len: int) -> int:
        if max(line_len - self.computed_left, 0) <= self.column_width:
            return line_len
        return min(line_len, self.computed_right)


def _context_before(source: SourceText, row: int) -> int:
    line = max(row - CONTEXT_LINES, 1)
    while line < row and not rust_trim(source.line_text(line)):
        line += 1
    return line


def _context_after(source: SourceText, row: int) -> int:
    line = min(row + CONTEXT_LINES, source.line_count)
    while line > row and not rust_trim(source.line_text(line)):
        line -= 1
    return line


def _split_lines(snippet: str, first_index: int) -> list[_Line]:
    """annotate-snippets' ``CursorLines``: split on ``\\n``, dropping a ``\\r`` before it."""
    if not snippet:
        return [_Line("", first_index, 0, 0, 0)]
    lines: list[_Line] = []
    offset = 0
    while offset < len(snippet):
        newline = snippet.find("\n", offset)
        if newline == -1:
            text = snippet[offset:]
            lines.append(_Line(text, first_index + len(lines), offset, len(snippet), 0))
            break
        if newline > offset and snippet[newline - 1] == "\r":
            text, terminator = snippet[offset : newline - 1], 2
        else:
            text, terminator = snippet[offset:newline], 1
        lines.append(_Line(text, first_index + len(lines), offset, newline + 1, terminator))
        offset = newline + 1
    return lines


def _find_line(lines: list[_Line], offset: int) -> _Line:
    for line in lines:
        if line.start <= offset < line.end:
            return line
    return lines[-1]


def _location(line: _Line, offset: int) -> _Loc:
    prefix = line.text[: min(offset - line.start, len(line.text))]
    return _Loc(line.index, len(prefix), str_width(prefix))


def _span_to_locations(lines: list[_Line], start: int, end: int) -> tuple[_Loc, _Loc]:
    start_line = _find_line(lines, start)
    lo = _location(start_line, start)
    if start - start_line.start - len(start_line.text) > 0:
        lo = replace(lo, char=lo.char + 1)
    if start == end:
        return lo, lo
    # A range that ends with a line break ends on the line the break belongs to.
    end_line = next((line for line in lines if line.start < end <= line.end), lines[-1])
    hi = _location(end_line, end)
    if lo.line != hi.line and end > end_line.end - end_line.terminator:
        hi = replace(hi, char=hi.char + 1, display=hi.display + 1)
    return lo, hi


def _is_content(text: str) -> bool:
    """Whether a line counts as code when drawing the left edge of a multi-line range."""
    text = rust_trim(text)
    is_comment = text.startswith("//") and not text.startswith(("///", "//!"))
    return not is_comment and text not in ("", "{", "}", "(", ")", "[", "]")


def _annotate(lines: list[_Line], lo: _Loc, hi: _Loc) -> tuple[int, list[_AnnotatedLine]]:
    annotated = [_AnnotatedLine(line) for line in lines]
    by_index = {entry.line.index: entry for entry in annotated}

    def text_of(index: int) -> str | None:
        entry = by_index.get(index)
        return entry.line.text if entry is not None else None

    def add(index: int, annotation: _LineAnnotation) -> None:
        by_index[index].annotations.append(annotation)

    if lo.line == hi.line:
        end_display = hi.display + 1 if lo.display == hi.display else hi.display
        add(lo.line, _LineAnnotation("single", lo.display, end_display))
        return 0, annotated

    depth = 1
    add(lo.line, _LineAnnotation("start", lo.display, lo.display + 1, depth))
    middle = min(lo.line + 4, hi.line)
    until = lo.line
    for index in range(middle - 1, lo.line - 1, -1):
        text = text_of(index)
        if text is not None and _is_content(text):
            until = index + 1
            break
    for index in range(lo.line + 1, until):
        add(index, _LineAnnotation("line", 0, 0, depth))
    line_end = hi.line - 1
    end_text = text_of(line_end)
    end_is_empty = end_text is not None and not _is_content(end_text)
    if middle < line_end and not end_is_empty:
        add(line_end, _LineAnnotation("line", 0, 0, depth))
    add(hi.line, _LineAnnotation("end", max(hi.display - 1, 0), hi.display, depth))
    return depth, annotated


@dataclass(frozen=True)
class _Layout:
    max_line_num_len: int
    width_offset: int
    code_offset: int
    margin: _Margin


def _draw_line(
    buffer: _Buffer, source_string: str, line_index: int, row: int, layout: _Layout
) -> int:
    margin = layout.margin
    code_offset = layout.code_offset
    line_len = str_width(source_string)
    left = margin.left(line_len)
    right = margin.right(line_len)

    chars = list(source_string)
    skipped = 0
    position = 0
    while position < len(chars) and skipped < left:
        skipped += char_width(chars[position])
        position += 1
    code: list[str] = []
    taken = 0
    for char in chars[position:]:
        taken += char_width(char)
        if taken > right - left:
            break
        code.append(char)
    left = max(left, skipped)

    width_taken = 0
    chars_taken = 0
    if margin.was_cut_left():
        for char in code:
            width_taken += char_width(char)
            chars_taken += 1
            if width_taken >= 1:
                break
        buffer.puts(row, code_offset, CUT_INDICATOR)
    rest = code[chars_taken:]
    buffer.puts(row, code_offset + width_taken, "".join(rest))

    if line_len > right:
        taken_from_end = 0
        width_from_end = 0
        for char in reversed(code):
            width_from_end += char_width(char)
            taken_from_end += 1
            if width_from_end >= 1:
                break
        buffer.puts(row, code_offset + width_taken + len(rest) - taken_from_end, CUT_INDICATOR)

    buffer.puts(row, 0, str(line_index).rjust(layout.max_line_num_len))
    buffer.putc(row, layout.width_offset - 2, "|")
    return left


def _render_source_line(
    buffer: _Buffer, entry: _AnnotatedLine, layout: _Layout, close_window: bool
) -> list[int]:
    """Draw one source line and its marker row; return the depths of ranges it opens/closes."""
    source_string = normalize_whitespace(entry.line.text)
    row = buffer.num_lines()
    left = _draw_line(buffer, source_string, entry.line.index, row, layout)
    width_offset = layout.width_offset
    code_offset = layout.code_offset

    if not entry.annotations:
        if close_window:
            buffer.putc(row + 1, width_offset - 2, "|")
        return []

    short_start = True
    opened: list[int] = []
    for annotation in entry.annotations:
        if annotation.kind == "start":
            if all(is_rust_whitespace(char) for char in source_string[: annotation.start]):
                buffer.putc(row, width_offset + annotation.depth - 1, "/")
                opened.append(annotation.depth)
            else:
                short_start = False
                break
        elif annotation.kind != "line":
            short_start = False
            break
    if short_start:
        return opened

    # From here on the line holds exactly one marker: a range on this line, or the
    # first or last line of a multi-line range.
    (annotation,) = [a for a in entry.annotations if a.kind != "line"]
    marker_row = row + 1
    buffer.putc(marker_row, width_offset - 2, "|")
    if annotation.kind in ("start", "end"):
        for col in range(
            width_offset + annotation.depth, max(code_offset + annotation.start - left, 0)
        ):
            buffer.putc(marker_row, col, "_")
        edge = width_offset + annotation.depth - 1
        if annotation.kind == "start":
            buffer.putc(marker_row, edge, " ")
        else:
            buffer.putc(row, edge, "|")
            buffer.putc(marker_row, edge, "|")
    for position in range(annotation.start, annotation.end):
        buffer.putc(marker_row, max(code_offset + position - left, 0), "^")
    if annotation.kind in ("start", "end"):
        buffer.putc(marker_row, max(code_offset + annotation.start - left, 0), "^")
        return [annotation.depth]

    # A very long range keeps its two ends and drops its middle.
    width = annotation.end - annotation.start
    term_width = layout.margin.column_width
    if width > term_width * 2 and width > 5 * 2 + len(CUT_INDICATOR):
        pad = max(term_width // 3, 5)
        cut_start = code_offset + max(annotation.start + pad - left, 0)
        cut_end = code_offset + max(annotation.end - pad - left, 0)
        buffer.replace(row, cut_start, cut_end, CUT_INDICATOR)
        buffer.replace(marker_row, cut_start, cut_end, CUT_INDICATOR)
    return []


def render_frame(source: SourceText, start: int, end: int, path: str) -> list[str]:
    """The ``-->`` line and the code frame for the range ``start..end`` (offsets) of ``source``."""
    first_row = source.row_of(start)
    last_row = source.row_of(end)
    if end > start and source.text[start:end].endswith(("\r", "\n")):
        last_row = max(last_row - 1, first_row)
    first_row = _context_before(source, first_row)
    last_row = _context_after(source, last_row)
    snippet_start = source.line_start(first_row)
    snippet = source.text[snippet_start : source.line_end(last_row)]

    lines = _split_lines(snippet, first_row)
    lo, hi = _span_to_locations(lines, start - snippet_start, end - snippet_start)
    depth, annotated = _annotate(lines, lo, hi)

    max_line_num_len = len(str(first_row + len(lines) - 1))
    width_offset = 3 + max_line_num_len
    code_offset = width_offset if depth == 0 else width_offset + depth + 1

    whitespace_margin: int | None = None
    for line in lines:
        if any(not is_rust_whitespace(char) for char in line.text):
            leading = 0
            for char in line.text:
                if not is_rust_whitespace(char):
                    break
                leading += 4 if char == "\t" else 1
            whitespace_margin = (
                leading if whitespace_margin is None else min(whitespace_margin, leading)
            )
    annotations = [a for entry in annotated for a in entry.annotations]
    span_left = min(min(a.start, a.end) for a in annotations)
    span_right = max(max(a.start, a.end) for a in annotations)
    label_right = max(a.end for a in annotations)
    max_line_len = max(str_width(line.text) for line in lines)
    margin = _Margin.compute(
        whitespace_margin or 0,
        span_left,
        span_right,
        label_right,
        max(TERM_WIDTH - code_offset, 0),
        max_line_len,
    )
    layout = _Layout(max_line_num_len, width_offset, code_offset, margin)

    buffer = _Buffer()
    buffer.puts(0, 0, " " * max_line_num_len + "--> " + f"{path}:{lo.line}:{lo.char + 1}")
    buffer.putc(1, max_line_num_len + 1, "|")
    open_depths: list[int] = []
    for position, entry in enumerate(annotated):
        first_buffer_row = buffer.num_lines()
        depths = _render_source_line(buffer, entry, layout, position == len(annotated) - 1)
        added: list[int] = []
        for line_depth in depths:
            if line_depth in open_depths:
                open_depths.remove(line_depth)
            else:
                added.append(line_depth)
        for open_depth in open_depths:
            for buffer_row in range(first_buffer_row, buffer.num_lines()):
                buffer.putc(buffer_row, width_offset + open_depth - 1, "|")
        open_depths.extend(added)
    return buffer.render()


def render_origin_only(path: str, row: int, column: int) -> list[str]:
    """What ruff prints in place of a frame when the file's text is not available."""
    return [f"--> {path}:{row}:{column}"]
