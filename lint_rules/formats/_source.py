"""Row/column arithmetic over a source text, the way ruff's ``LineIndex`` does it.

Offsets are indices into the Python ``str`` (code points), so they agree with the
code-point columns of :class:`~lint_rules.model.Location`.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from lint_rules.model import Location

_NEWLINE = re.compile(r"\r\n|\r|\n")


def _line_starts(text: str) -> list[int]:
    """Offsets where each line starts; ``\\n``, ``\\r\\n`` and a lone ``\\r`` end a line."""
    return [0, *(match.end() for match in _NEWLINE.finditer(text))]


class SourceText:
    """A source text with its line starts computed once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = _line_starts(text)

    @property
    def line_count(self) -> int:
        """Lines as ruff counts them: a text ending in a newline has an empty last line."""
        return len(self.line_starts)

    def offset(self, location: Location) -> int:
        """The offset of a 1-based row / 1-based code-point column, clamped to the text."""
        row_index = location.row - 1
        if row_index < 0:
            return 0
        if row_index >= len(self.line_starts):
            return len(self.text)
        return max(0, min(self.line_starts[row_index] + location.column - 1, len(self.text)))

    def row_of(self, offset: int) -> int:
        """The 1-based row that contains ``offset``."""
        return bisect_right(self.line_starts, offset)

    def line_start(self, row: int) -> int:
        return self.line_starts[min(row, len(self.line_starts)) - 1]

    def line_end(self, row: int) -> int:
        """The end of ``row``, including its newline."""
        if row >= len(self.line_starts):
            return len(self.text)
        return self.line_starts[row]

    def line_text(self, row: int) -> str:
        """The text of ``row`` without its newline; ``""`` for rows past the end."""
        if row < 1 or row > len(self.line_starts):
            return ""
        return self.text[self.line_start(row) : self.line_end(row)].rstrip("\r\n")
