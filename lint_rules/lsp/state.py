"""What the server knows about each open document and notebook."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from lsprotocol import types

from lint_rules.model import Diagnostic
from lint_rules.notebook import Notebook


@dataclass
class _Document:
    """What the server knows about one document."""

    source: str | None = None
    """The text ``findings`` were computed from (``None``: not checked yet)."""
    version: int | None = None
    generation: int = -1
    """The settings/facts generation ``findings`` were computed with."""
    parsed: bool = True
    """Whether ``source`` parsed; if not, ``shown`` still holds an older text's findings."""
    findings: list[tuple[Diagnostic, types.Diagnostic]] = field(default_factory=list)
    """toolret's diagnostics of ``source`` and their LSP form (when ``parsed``)."""
    shown: list[types.Diagnostic] = field(default_factory=list)
    result_id: str = ""
    """Pull mode: changes whenever ``shown`` does."""
    applied_serial: int = -1
    pending: asyncio.Task[None] | None = None
    """Push mode: the debounced check waiting to publish."""
    check_seconds: float | None = None
    """How long the last check took (the adaptive debounce's measure)."""


_Cells = tuple[tuple[str, str, str], ...]
"""A notebook's cells as synced: (cell URI, ``"code"`` or ``"markdown"``, text)."""


@dataclass
class _NotebookState:
    """What the server knows about one notebook document."""

    cells: _Cells | None = None
    """The cells ``notebook`` was built from (``None``: not checked yet)."""
    notebook: Notebook | None = None
    generation: int = -1
    findings: dict[str, list[tuple[Diagnostic, types.Diagnostic]]] = field(default_factory=dict)
    """Cell URI → toolret's diagnostics of the module (module rows, for fixes) and their
    LSP form in the cell."""
    shown: dict[str, list[types.Diagnostic]] = field(default_factory=dict)
    result_id: str = ""
    applied_serial: int = -1
    published: set[str] = field(default_factory=set)
    """Push mode: the cells that were sent diagnostics (cleared when they go)."""
    pending: asyncio.Task[None] | None = None
