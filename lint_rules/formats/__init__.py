"""Output formats, in ruff's dialect (names, shapes, JSON fields), one module per format.

A format module defines ``NAME`` and ``render(diagnostics, options) -> str``; register it
in ``_MODULES`` below. All twelve of ruff 0.17's formats are here, in its order:
``concise``, ``full``, ``json``, ``json-lines``, ``junit``, ``grouped``, ``github``,
``gitlab``, ``pylint``, ``rdjson``, ``azure``, ``sarif``. Each module's docstring says
what it shares with ruff's output and where it deliberately differs.

What the CLI prints, in order (all to stdout, or all to ``--output-file``, like ruff):

1. ``render(fmt, …)`` — exactly, no newline added (``json``, ``gitlab``, ``rdjson`` and
   ``sarif`` have no trailing newline, like ruff's);
2. unless ``--quiet``: ``summary(fmt, …)``, which is empty except for ``full``,
   ``concise`` and ``grouped`` (``fix_only_summary`` replaces it in ``--fix-only`` /
   ``--diff`` mode), preceded by ``render_fix_table(…)`` with ``--show-fixes``.

``--statistics`` replaces the body: ``render_statistics(…)``, then (unless ``--quiet``)
``summary(fmt, …)`` — but only when the table is not empty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from lint_rules.formats import (
    azure,
    concise,
    full,
    github,
    gitlab,
    grouped,
    json,
    json_lines,
    junit,
    pylint,
    rdjson,
    sarif,
)
from lint_rules.formats._base import FixableApplicability, Renderer, RenderOptions
from lint_rules.formats.statistics import (
    STATISTICS_FORMATS,
    UnsupportedStatisticsFormat,
    render_statistics,
)
from lint_rules.formats.summary import check_summary, fix_only_summary, render_fix_table
from lint_rules.model import Diagnostic

__all__ = [
    "DEFAULT_FORMAT",
    "FORMATS",
    "STATISTICS_FORMATS",
    "FixableApplicability",
    "RenderOptions",
    "UnsupportedStatisticsFormat",
    "check_summary",
    "fix_only_summary",
    "has_summary",
    "render",
    "render_fix_table",
    "render_statistics",
    "summary",
]

_MODULES = (
    concise,
    full,
    json,
    json_lines,
    junit,
    grouped,
    github,
    gitlab,
    pylint,
    rdjson,
    azure,
    sarif,
)
_RENDERERS: dict[str, Renderer] = {module.NAME: module.render for module in _MODULES}

FORMATS: tuple[str, ...] = tuple(_RENDERERS)
"""The implemented ``--output-format`` values, in ruff's order."""
DEFAULT_FORMAT = "full"
_SUMMARY_FORMATS = frozenset({"full", "concise", "grouped"})


def has_summary(fmt: str) -> bool:
    """Whether ruff prints the ``Found N errors.`` / ``All checks passed!`` lines for ``fmt``."""
    return fmt in _SUMMARY_FORMATS


def summary(
    fmt: str,
    diagnostics: Sequence[Diagnostic],
    *,
    fixable_applicability: FixableApplicability = "safe",
    hint_unsafe_fixes: bool = True,
    fixed: int = 0,
) -> str:
    """The lines ruff prints after the body (``Found 3 errors.`` …), or ``""`` for ``fmt``s
    that have none. See :func:`lint_rules.formats.summary.check_summary`.
    """
    if not has_summary(fmt):
        return ""
    return check_summary(
        diagnostics,
        fixable_applicability=fixable_applicability,
        hint_unsafe_fixes=hint_unsafe_fixes,
        fixed=fixed,
    )


def render(
    fmt: str,
    diagnostics: Sequence[Diagnostic],
    *,
    sources: Mapping[str, str],
    cwd: Path,
    fixable_applicability: FixableApplicability = "safe",
    show_fix_hint: bool = True,
    color: bool = False,
) -> str:
    """The text to print for ``diagnostics`` (already sorted) in format ``fmt``.

    ``show_fix_hint=False`` drops the ``[*]`` markers; ruff does so when it applied fixes
    (``--fix``). Raises :class:`KeyError` for an unknown format.
    """
    options = RenderOptions(
        sources=sources,
        cwd=cwd.absolute(),
        fixable_applicability=fixable_applicability,
        show_fix_hint=show_fix_hint,
        color=color and fmt in _COLORED,
    )
    return _RENDERERS[fmt](diagnostics, options)


_COLORED = frozenset({"full", "concise", "grouped"})
"""The formats a terminal shows as they are (the others are read by programs)."""
