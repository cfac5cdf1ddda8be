"""Positions and edits in LSP's terms: lines, the negotiated encoding's units, minimal edits."""

from __future__ import annotations

import bisect
import difflib
import re

from lsprotocol import types
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec

from lint_rules.model import Location

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SURROGATE = re.compile("[\ud800-\udfff]")
_DIFF_WINDOW = 4000
"""Above this many changed characters an edit is sent as one replacement, not diffed."""


class _LineIndex:
    """Rows and offsets of one text, in LSP's lines (``\\n``, ``\\r\\n``, ``\\r`` end a line)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.starts = [0, *(match.end() for match in _LINE_BREAK.finditer(source))]

    def line_text(self, line: int) -> str:
        """Line ``line`` (0-based) without its line break."""
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.source)
        text = self.source[start:end]
        return text.rstrip("\r\n") if line + 1 < len(self.starts) else text

    def location(self, location: Location, codec: PositionCodec) -> types.Position:
        """A toolret location (1-based row, 1-based code-point column) as an LSP position."""
        line = min(max(location.row - 1, 0), len(self.starts) - 1)
        text = self.line_text(line)
        return types.Position(line, codec.client_num_units(text[: max(location.column - 1, 0)]))

    def to_offset(self, position: types.Position, codec: PositionCodec) -> int:
        """An LSP position as a code-point offset into the text (clamped to the text)."""
        if position.line >= len(self.starts):
            return len(self.source)
        start = self.starts[position.line]
        units = 0
        for at, char in enumerate(self.line_text(position.line)):
            if units >= position.character:
                return start + at
            units += codec.client_num_units(char)
        return start + len(self.line_text(position.line))

    def offset(self, offset: int, codec: PositionCodec) -> types.Position:
        """A code-point offset into the text as an LSP position."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return types.Position(line, codec.client_num_units(self.source[self.starts[line] : offset]))


def text_edits(old: str, new: str, codec: PositionCodec) -> list[types.TextEdit]:
    """Small edits that turn ``old`` into ``new`` (positions in ``old``, LSP's rules).

    The common prefix and suffix are never touched; what lies between is diffed
    character by character when it is short, so a fix that wraps a value in
    ``str(...)`` arrives as two insertions rather than a rewrite of the line.
    """
    if old == new:
        return []
    prefix = _common_prefix(old, new)
    suffix = _common_prefix(old[prefix:][::-1], new[prefix:][::-1])
    old_end, new_end = len(old) - suffix, len(new) - suffix
    spans: list[tuple[int, int, str]]
    if (old_end - prefix) + (new_end - prefix) <= _DIFF_WINDOW:
        matcher = difflib.SequenceMatcher(None, old[prefix:old_end], new[prefix:new_end], False)
        spans = [
            (prefix + i1, prefix + i2, new[prefix + j1 : prefix + j2])
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag != "equal"
        ]
    else:
        spans = [(prefix, old_end, new[prefix:new_end])]
    index = _LineIndex(old)
    edits = []
    for start, end, text in spans:
        # Never split a \r\n: a position between its halves is not a position in LSP.
        if 0 < start < len(old) and old[start - 1] == "\r" and old[start] == "\n":
            start, text = start - 1, "\r" + text
        if 0 < end < len(old) and old[end - 1] == "\r" and old[end] == "\n":
            end, text = end + 1, text + "\n"
        edits.append(
            types.TextEdit(
                range=types.Range(index.offset(start, codec), index.offset(end, codec)),
                new_text=text,
            )
        )
    return edits


def _applied(text: str, change: types.TextDocumentContentChangeEvent, codec: PositionCodec) -> str:
    """``text`` with one content change applied (a range: on LSP lines)."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return change.text
    index = _LineIndex(text)
    start = index.to_offset(change.range.start, codec)
    end = max(index.to_offset(change.range.end, codec), start)
    return text[:start] + change.text + text[end:]


def _common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix (by halving: slices compare in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _overlaps(a: types.Range, b: types.Range) -> bool:
    a_start, a_end = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b_start, b_end = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a_start <= b_end and b_start <= a_end


def _source_of(document: TextDocument) -> str:
    """The document's text as it would be saved: a lone surrogate (JSON can carry one,
    and an editor's UTF-16 buffer can hold one) becomes U+FFFD, as a UTF-8 encoder
    writes it. One code point and one UTF-16 unit for another: no position moves.
    """
    return _SURROGATE.sub("\ufffd", document.source)
