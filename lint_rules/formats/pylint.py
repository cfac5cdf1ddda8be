"""ruff's ``pylint`` format (flake8's ``pylint`` formatter): ``path:row: [CODE] message``.

As in ruff 0.17: the path is relative to the working directory when inside it, only the
start row is given, nothing is printed when clean.

A notebook diagnostic gets ruff 0.17's fallback row 1 (a cell's rows are not rows of the
``.ipynb`` file); unlike ruff, the message then starts with the real place:
``nb.ipynb:1: [CODE] cell 3:4:12: message``.
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import NOTEBOOK_FALLBACK, RenderOptions, cell_prefix, relative_path
from lint_rules.model import Diagnostic

NAME = "pylint"


def render_one(diagnostic: Diagnostic, options: RenderOptions) -> str:
    path = relative_path(diagnostic.filename, options.cwd)
    row = diagnostic.location.row if diagnostic.cell is None else NOTEBOOK_FALLBACK.row
    message = cell_prefix(diagnostic) + diagnostic.message
    return f"{path}:{row}: [{diagnostic.code}] {message}\n"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return "".join(render_one(diagnostic, options) for diagnostic in diagnostics)
