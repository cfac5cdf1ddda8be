"""toolret: a static linter for the return values of LLM tool functions.

The public API is small: :func:`check_source` checks one file's text and
returns :class:`Diagnostic` values; every front end (CLI, flake8, language
server, codemod) calls it. Names are imported lazily so that ``toolret`` on a
tree without tool files never imports LibCST.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from lint_rules.engine import check_bytes, check_source
    from lint_rules.model import Applicability, Diagnostic, Edit, Fix, Location, Severity

_LAZY = {
    "check_source": "lint_rules.engine",
    "check_bytes": "lint_rules.engine",
    "Applicability": "lint_rules.model",
    "Diagnostic": "lint_rules.model",
    "Edit": "lint_rules.model",
    "Fix": "lint_rules.model",
    "Location": "lint_rules.model",
    "Severity": "lint_rules.model",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'lint_rules' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "Applicability",
    "Diagnostic",
    "Edit",
    "Fix",
    "Location",
    "Severity",
    "__version__",
    "check_bytes",
    "check_source",
]
