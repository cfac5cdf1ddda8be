"""ruff's ``grouped`` format: diagnostics under a ``path:`` heading per file.

::

    a.py:
       1:8  TRV101 [*] message
      12:10 TRV203 message

Rows are right-aligned and columns left-aligned to the widest in the file; a blank
line follows each file.

A notebook diagnostic's position is ``cell 3:4:12`` (rows relative to the cell), as in
ruff 0.17::

    nb.ipynb:
       cell 2:1:8  TRV101 [*] message
      cell 3:10:12 TRV203 message

the row padding (before ``cell``) counting the printed, cell-relative rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import RenderOptions, relative_path
from lint_rules.formats.full import header
from lint_rules.model import Diagnostic

NAME = "grouped"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    by_file: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        by_file.setdefault(diagnostic.filename, []).append(diagnostic)
    out: list[str] = []
    for filename in sorted(by_file):
        in_file = by_file[filename]
        row_width = len(str(max(d.location.row for d in in_file)))
        column_width = len(str(max(d.location.column for d in in_file)))
        out.append(f"{relative_path(filename, options.cwd)}:\n")
        for diagnostic in in_file:
            row = str(diagnostic.location.row).rjust(row_width)
            column = str(diagnostic.location.column).ljust(column_width)
            if diagnostic.cell is not None:  # ruff pads before the cell: "   cell 3:4:12"
                row = f"{' ' * (len(row) - len(row.lstrip()))}cell {diagnostic.cell}:{row.lstrip()}"
            out.append(f"  {row}:{column} {header(diagnostic, options)}\n")
        out.append("\n")
    return "".join(out)
