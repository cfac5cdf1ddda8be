"""ruff's ``azure`` format: Azure Pipelines ``task.logissue`` logging commands.

::

    ##vso[task.logissue type=error;sourcepath=/abs/a.py;linenumber=17;columnnumber=12;
    code=TRV301;]msg

(one line, wrapped here). As in ruff 0.17: one line per diagnostic, the absolute path,
the start position, nothing when clean. Azure Pipelines knows only ``error`` and
``warning``: toolret's ``info`` is a ``warning``, as ruff's info and help diagnostics
are.

Unlike ruff 0.17, which writes values as they are, property values are escaped as the
Azure Pipelines task library does (``;`` → ``%3B``, ``]`` → ``%5D``, CR → ``%0D``,
LF → ``%0A``) and so are CR and LF in the message, so a path or message holding them
keeps the command on one line and intact.

A notebook diagnostic gets ruff 0.17's fallback position, ``linenumber=1;columnnumber=1``
(a cell's rows are not rows of the ``.ipynb`` file); unlike ruff, the message then starts
with the real place: ``]cell 3:4:12: message``.
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import NOTEBOOK_FALLBACK, RenderOptions, cell_prefix
from lint_rules.model import Diagnostic, Severity

NAME = "azure"

ISSUE_TYPE = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "warning"}


def escape_data(text: str) -> str:
    return text.replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(";", "%3B").replace("]", "%5D")


def render_one(diagnostic: Diagnostic) -> str:
    start = diagnostic.location if diagnostic.cell is None else NOTEBOOK_FALLBACK
    properties = {
        "type": ISSUE_TYPE[diagnostic.severity],
        "sourcepath": diagnostic.filename,
        "linenumber": str(start.row),
        "columnnumber": str(start.column),
        "code": diagnostic.code,
    }
    command = "".join(f"{key}={escape_property(value)};" for key, value in properties.items())
    message = cell_prefix(diagnostic) + diagnostic.message
    return f"##vso[task.logissue {command}]{escape_data(message)}\n"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return "".join(render_one(diagnostic) for diagnostic in diagnostics)
