"""ruff's default ``full`` format: header, code frame, fix title, fix preview.

Shape, per diagnostic (ruff 0.17)::

    TRV101 [*] message
     --> path/to/file.py:3:12
      |
    1 | context line
    2 | context line
    3 |     return value
      |            ^^^^^
    4 | context line
      |
    help: fix title
      |
    2 | context line
      -     return value
    3 +     return {"result": value}
    4 | context line
      |
    note: This is an unsafe fix and may change runtime behavior

The frame is omitted (only ``--> path:row:col`` remains) when the source text is not
available, or when the range is empty at the start of the file (ruff's mark of a
file-level diagnostic). ``help:`` appears when there is a fix; the preview and the note
when the source is available too. Each diagnostic ends with a blank line.
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import RenderOptions, is_fixable, paint, relative_path
from lint_rules.formats._diff import render_fix_diff
from lint_rules.formats._snippet import render_frame, render_origin_only
from lint_rules.formats._source import SourceText
from lint_rules.model import Applicability, Diagnostic

NAME = "full"

UNSAFE_FIX_NOTE = "This is an unsafe fix and may change runtime behavior"
DISPLAY_ONLY_FIX_NOTE = (
    "This suggestion may be incorrect or produce invalid syntax. "
    "It requires manual review and cannot be applied automatically"
)


def header(diagnostic: Diagnostic, options: RenderOptions) -> str:
    """``CODE [*] message`` — the ``[*]`` when the fix would be applied by ``--fix``."""
    marker = (
        " " + paint("[*]", "fix", options)
        if options.show_fix_hint and is_fixable(diagnostic, options.fixable_applicability)
        else ""
    )
    return f"{paint(diagnostic.code, 'code', options)}{marker} {diagnostic.message}"


def render_one(
    diagnostic: Diagnostic, options: RenderOptions, source: SourceText | None = None
) -> str:
    path = relative_path(diagnostic.filename, options.cwd)
    lines = [header(diagnostic, options)]
    start = end = 0
    if source is not None:
        start = source.offset(diagnostic.location)
        end = max(source.offset(diagnostic.end_location), start)
    if source is None or start == end == 0:
        # ruff draws no frame for an empty range at the very start of the file: that is
        # how it marks a diagnostic about the file as a whole.
        lines += render_origin_only(path, diagnostic.location.row, diagnostic.location.column)
    else:
        lines += render_frame(source, start, end, path)
    out = ["\n".join(lines), "\n"]
    fix = diagnostic.fix
    if fix is not None:
        out.append(f"help: {fix.message}\n")
        if source is not None:
            out.append(render_fix_diff(source, fix))
            if fix.applicability is Applicability.UNSAFE:
                out.append(f"note: {UNSAFE_FIX_NOTE}\n")
            elif fix.applicability is Applicability.DISPLAY_ONLY:
                out.append(f"note: {DISPLAY_ONLY_FIX_NOTE}\n")
    out.append("\n")
    return "".join(out)


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    sources: dict[str, SourceText] = {}
    out: list[str] = []
    for diagnostic in diagnostics:
        source: SourceText | None = None
        text = options.sources.get(diagnostic.filename)
        if text is not None:
            source = sources.get(diagnostic.filename)
            if source is None:
                source = sources[diagnostic.filename] = SourceText(text)
        out.append(render_one(diagnostic, options, source))
    return "".join(out)
