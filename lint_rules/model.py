"""The values every front end exchanges with the core: diagnostics, fixes, rule metadata.

Positions follow ruff's JSON output: rows and columns are 1-based, columns count
Unicode code points, and ``end_location`` is exclusive.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict

DOCS_URL = "https://github.com/toolret/toolret/blob/main/docs/rules/{code}.md"
"""Where a rule's page lives; JSON ``url``, SARIF ``helpUri`` and LSP links use it."""


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Applicability(str, Enum):
    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


class Location(BaseModel):
    model_config = ConfigDict(frozen=True)

    row: int
    column: int


class Edit(BaseModel):
    """Replace the text between ``location`` and ``end_location`` with ``content``."""

    model_config = ConfigDict(frozen=True)

    content: str
    location: Location
    end_location: Location


class Fix(BaseModel):
    model_config = ConfigDict(frozen=True)

    message: str
    applicability: Applicability
    edits: tuple[Edit, ...]


class Diagnostic(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str
    name: str
    message: str
    severity: Severity
    filename: str
    location: Location
    end_location: Location
    fix: Fix | None = None
    noqa_line: int | None = None
    """Where a ``# noqa`` for this diagnostic goes, when not its first row (a
    multi-line string's last line, as in ruff); set by the engine."""

    @property
    def noqa_row(self) -> int:
        """The row whose ``# noqa`` comment suppresses this diagnostic."""
        return self.noqa_line if self.noqa_line is not None else self.location.row

    @property
    def url(self) -> str:
        return rule_url(self.code)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.filename, self.location.row, self.location.column, self.code)


def rule_url(code: str) -> str:
    return DOCS_URL.format(code=code)
