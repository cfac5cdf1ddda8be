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

A notebook diagnostic (``cell`` set) is shown as ruff 0.17 shows it: ``--> path:cell 3:4:12``,
a frame of that cell's own text (``NotebookText.cell_source``, IPython lines included)
with the cell-relative rows, and the fix preview of that cell under a `` ::: cell 3``
line. Without the notebook's text (a plain ``str`` source), only the ``-->`` line.
"""

from __future__ import annotations

from collections.abc import Sequence

from lint_rules.formats._base import RenderOptions, is_fixable, paint, relative_path
from lint_rules.formats._diff import render_fix_diff
from lint_rules.formats._snippet import render_frame, render_origin_only
from lint_rules.formats._source import SourceText
from lint_rules.model import Applicability, Diagnostic
from lint_rules.notebook import NotebookText

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
    if diagnostic.cell is not None:
        path = f"{path}:cell {diagnostic.cell}"
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
            diff = render_fix_diff(source, fix)
            if diff and diagnostic.cell is not None:
                # ruff names the cell above the preview, aligned with the gutter's "|".
                width = diff.index("|") - 1
                diff = f"{' ' * width}::: cell {diagnostic.cell}\n{diff}"
            out.append(diff)
            if fix.applicability is Applicability.UNSAFE:
                out.append(f"note: {UNSAFE_FIX_NOTE}\n")
            elif fix.applicability is Applicability.DISPLAY_ONLY:
                out.append(f"note: {DISPLAY_ONLY_FIX_NOTE}\n")
    out.append("\n")
    return "".join(out)


def source_text(diagnostic: Diagnostic, text: str | None) -> str | None:
    """The text the diagnostic's rows refer to: its cell's for a notebook diagnostic (none
    when the source is not a :class:`NotebookText`), else the file's."""
    if diagnostic.cell is None or text is None:
        return text
    if isinstance(text, NotebookText):
        return text.cell_source(diagnostic.cell)
    return None


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    sources: dict[tuple[str, int | None], SourceText] = {}
    out: list[str] = []
    for diagnostic in diagnostics:
        source: SourceText | None = None
        key = (diagnostic.filename, diagnostic.cell)
        text = source_text(diagnostic, options.sources.get(diagnostic.filename))
        if text is not None:
            source = sources.get(key)
            if source is None:
                source = sources[key] = SourceText(text)
        out.append(render_one(diagnostic, options, source))
    return "".join(out)
