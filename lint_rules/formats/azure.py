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
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import RenderOptions
from lint_rules.model import Diagnostic, Severity

NAME = "azure"

ISSUE_TYPE = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "warning"}


def escape_data(text: str) -> str:
    return text.replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(";", "%3B").replace("]", "%5D")


def render_one(diagnostic: Diagnostic) -> str:
    properties = {
        "type": ISSUE_TYPE[diagnostic.severity],
        "sourcepath": diagnostic.filename,
        "linenumber": str(diagnostic.location.row),
        "columnnumber": str(diagnostic.location.column),
        "code": diagnostic.code,
    }
    command = "".join(f"{key}={escape_property(value)};" for key, value in properties.items())
    return f"##vso[task.logissue {command}]{escape_data(diagnostic.message)}\n"


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return "".join(render_one(diagnostic) for diagnostic in diagnostics)
