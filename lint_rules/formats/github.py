"""GitHub Actions workflow commands, in ruff's ``github`` shape.

::

    ::error title=toolret (TRV101),file=/abs/a.py,line=1,col=8,endLine=1,endColumn=10::a.py:1:8:
    TRV101 message%0A  help: fix title

(one line, wrapped here).
As in ruff 0.17: the ``file`` property is the absolute path, the text repeats the
relative ``path:row:col: CODE message``, ``help: <fix title>`` follows on a second line
when there is a fix, and ``col`` / ``endColumn`` are left out when the range spans
several lines. Severity maps to ``error`` / ``warning`` / ``notice``.

Unlike ruff 0.17, which only encodes the newline before ``help:``, the message is
escaped as GitHub's workflow-command syntax requires (``%``, CR, LF), and so are
properties (also ``:`` and ``,``), so a path or message holding them stays intact.

A notebook diagnostic gets ruff 0.17's "clearly a fallback" position,
``line=1,col=1,endLine=1,endColumn=1`` (a cell's rows are not rows of the ``.ipynb``
file GitHub annotates); unlike ruff, whose text then says ``path:1:1:``, the text gives
the real place, ``path:cell 3:4:12: CODE message``.
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import NOTEBOOK_FALLBACK, RenderOptions, relative_path, where
from lint_rules.model import Diagnostic, Severity

NAME = "github"
PROGRAM = "toolret"

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_one(diagnostic: Diagnostic, options: RenderOptions) -> str:
    start, end = diagnostic.location, diagnostic.end_location
    if diagnostic.cell is not None:
        start = end = NOTEBOOK_FALLBACK
    properties = [
        f"title={escape_property(f'{PROGRAM} ({diagnostic.code})')}",
        f"file={escape_property(diagnostic.filename)}",
        f"line={start.row}",
    ]
    if start.row == end.row:
        properties.append(f"col={start.column}")
    properties.append(f"endLine={end.row}")
    if start.row == end.row:
        properties.append(f"endColumn={end.column}")
    path = relative_path(diagnostic.filename, options.cwd)
    message = f"{path}:{where(diagnostic)}: {diagnostic.code} {diagnostic.message}"
    if diagnostic.fix is not None:
        message += f"\n  help: {diagnostic.fix.message}"
    return f"::{_COMMAND[diagnostic.severity]} {','.join(properties)}::{escape_data(message)}\n"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return "".join(render_one(diagnostic, options) for diagnostic in diagnostics)
