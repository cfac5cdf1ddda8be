"""What every format module shares: the render options and the fix / path conventions.

Notebook diagnostics (``Diagnostic.cell`` set, rows relative to that cell) are printed
as ruff 0.17 prints them: :func:`where` gives ``cell 3:4:12`` for the text formats;
the formats whose positions are read as rows of the file on disk use ruff's
:data:`NOTEBOOK_FALLBACK` and say the cell in their text (:func:`cell_prefix`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Literal

from lint_rules.model import Applicability, Diagnostic, Location

FixableApplicability = Literal["safe", "unsafe"]
"""Which fixes ``--fix`` applies: ``"safe"`` (default) or ``"unsafe"`` (``--unsafe-fixes``)."""


@dataclass(frozen=True)
class RenderOptions:
    """Everything a format needs besides the diagnostics themselves."""

    sources: Mapping[str, str]
    """Filename -> source text, for code frames and fix diffs; a missing file gets neither."""
    cwd: Path
    """Text formats print filenames relative to this directory (when they are inside it)."""
    fixable_applicability: FixableApplicability = "safe"
    show_fix_hint: bool = True
    """Mark fixable diagnostics with ``[*]``; ruff turns this off when it applied fixes."""
    color: bool = False
    """Colour the text formats as ruff does on a terminal (``paint``)."""


_STYLES = {"path": "1", "code": "1;31", "fix": "36"}
"""ruff's colours: a bold path, a bold red code, a cyan ``[*]``."""


def paint(text: str, style: str, options: RenderOptions) -> str:
    """``text`` in ``style`` (``path``, ``code``, ``fix``) when ``options.color``."""
    if not options.color or not text:
        return text
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m"


Renderer = Callable[[Sequence[Diagnostic], RenderOptions], str]
"""A format: the text to print for a run's diagnostics (already sorted)."""


def is_fixable(diagnostic: Diagnostic, fixable_applicability: FixableApplicability) -> bool:
    """Whether ``--fix`` (with or without ``--unsafe-fixes``) would apply this diagnostic's fix."""
    fix = diagnostic.fix
    if fix is None:
        return False
    if fix.applicability is Applicability.SAFE:
        return True
    return fix.applicability is Applicability.UNSAFE and fixable_applicability == "unsafe"


def is_hidden_unsafe(diagnostic: Diagnostic, fixable_applicability: FixableApplicability) -> bool:
    """An unsafe fix that only ``--unsafe-fixes`` would apply (display-only fixes never count)."""
    fix = diagnostic.fix
    return (
        fix is not None
        and fix.applicability is Applicability.UNSAFE
        and fixable_applicability == "safe"
    )


def relative_path(filename: str, cwd: Path) -> str:
    """ruff's ``relativize_path``: strip the working directory if the path is inside it."""
    try:
        return str(PurePath(filename).relative_to(cwd))
    except ValueError:
        return filename


def where(diagnostic: Diagnostic) -> str:
    """The start position as ruff's text formats print it: ``4:12``, or ``cell 3:4:12`` for
    a notebook diagnostic (whose rows are relative to its cell)."""
    location = diagnostic.location
    position = f"{location.row}:{location.column}"
    return position if diagnostic.cell is None else f"cell {diagnostic.cell}:{position}"


def cell_prefix(diagnostic: Diagnostic) -> str:
    """``cell 3:4:12: `` for a notebook diagnostic, else ``""``: what the formats whose
    positions cannot point into a notebook put before the message, so a reader sees where."""
    return "" if diagnostic.cell is None else f"{where(diagnostic)}: "


NOTEBOOK_FALLBACK = Location(row=1, column=1)
"""ruff's position for a notebook diagnostic in the formats read as lines of the file on
disk (github, gitlab, azure, pylint): "clearly a fallback", since a cell's rows are not
rows of the ``.ipynb`` JSON."""


def plural(count: int, singular: str, plural_form: str) -> str:
    return singular if count == 1 else plural_form
