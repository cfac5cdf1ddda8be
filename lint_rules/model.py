"""The values every front end exchanges with the core: diagnostics, fixes, rule metadata.

Positions follow ruff's JSON output: rows and columns are 1-based, columns count
Unicode code points, and ``end_location`` is exclusive.

Plain frozen dataclasses (no pydantic: importing it would cost more than a whole
run on a small tree). ``to_json`` / ``from_json`` are the cache's serialised form.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

DOCS_URL_ENV = "TOOLRET_DOCS_URL"
"""The one configurable base of the rule pages: the root of the documentation site built
from ``docs/`` (``https://docs.example.org/toolret``). JSON ``url``, SARIF ``helpUri``,
the language server's links and ``toolret rules`` point into it
(``<base>/rules/TRV101/``); where it is not set they are left out, never invented."""


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


class Applicability(str, Enum):
    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, slots=True)
class Location:
    row: int
    column: int

    def to_json(self) -> dict[str, Any]:
        return {"row": self.row, "column": self.column}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Location:
        return cls(row=data["row"], column=data["column"])


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the text between ``location`` and ``end_location`` with ``content``."""

    content: str
    location: Location
    end_location: Location

    def to_json(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Edit:
        return cls(
            content=data["content"],
            location=Location.from_json(data["location"]),
            end_location=Location.from_json(data["end_location"]),
        )


@dataclass(frozen=True, slots=True)
class Fix:
    message: str
    applicability: Applicability
    edits: tuple[Edit, ...]

    def __post_init__(self) -> None:
        # Callers may pass the enum's value and any sequence of edits (pydantic coerced both).
        if not isinstance(self.applicability, Applicability):
            object.__setattr__(self, "applicability", Applicability(self.applicability))
        if type(self.edits) is not tuple:
            object.__setattr__(self, "edits", tuple(self.edits))

    def to_json(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "applicability": self.applicability.value,
            "edits": [edit.to_json() for edit in self.edits],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Fix:
        return cls(
            message=data["message"],
            applicability=Applicability(data["applicability"]),
            edits=tuple(Edit.from_json(edit) for edit in data["edits"]),
        )


@dataclass(frozen=True, slots=True)
class Diagnostic:
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
    cell: int | None = None
    """For a notebook: the 1-based cell (among all cells) the diagnostic is in; its rows
    (and its fix's) are then relative to that cell, as in ruff's output."""

    def __post_init__(self) -> None:
        if not isinstance(self.severity, Severity):
            object.__setattr__(self, "severity", Severity(self.severity))

    @property
    def noqa_row(self) -> int:
        """The row whose ``# noqa`` comment suppresses this diagnostic."""
        return self.noqa_line if self.noqa_line is not None else self.location.row

    @property
    def url(self) -> str | None:
        return rule_url(self.code)

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (
            self.filename,
            self.cell or 0,
            self.location.row,
            self.location.column,
            self.code,
        )

    def to_json(self) -> dict[str, Any]:
        """The fields as JSON values (enums as their values), nested objects as dicts."""
        return {
            "code": self.code,
            "name": self.name,
            "message": self.message,
            "severity": self.severity.value,
            "filename": self.filename,
            "location": self.location.to_json(),
            "end_location": self.end_location.to_json(),
            "fix": None if self.fix is None else self.fix.to_json(),
            "noqa_line": self.noqa_line,
            "cell": self.cell,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Diagnostic:
        """The diagnostic ``to_json`` gave. Raises ``KeyError``, ``TypeError`` or
        ``ValueError`` (an unknown enum value) for a malformed object."""
        fix = data.get("fix")
        return cls(
            code=data["code"],
            name=data["name"],
            message=data["message"],
            severity=Severity(data["severity"]),
            filename=data["filename"],
            location=Location.from_json(data["location"]),
            end_location=Location.from_json(data["end_location"]),
            fix=None if fix is None else Fix.from_json(fix),
            noqa_line=data.get("noqa_line"),
            cell=data.get("cell"),
        )


def docs_base() -> str | None:
    """The documentation site's root (``TOOLRET_DOCS_URL``), without a trailing slash."""
    base = os.environ.get(DOCS_URL_ENV, "").strip().rstrip("/")
    return base or None


def rule_url(code: str) -> str | None:
    """The rule's page on the documentation site, or ``None`` when no site is configured."""
    base = docs_base()
    return None if base is None else f"{base}/rules/{code}/"
