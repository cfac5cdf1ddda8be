"""Applying diagnostics' fixes to source text.

Edits are positioned like ruff's (1-based rows, 1-based code-point columns,
exclusive end). Fixes are applied whole or not at all: a fix whose edits
overlap an edit already taken waits for a later pass (the caller re-checks the
result and applies again), so nothing is silently dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lint_rules.model import Applicability, Diagnostic, Edit, Fix, Location


def line_offsets(source: str) -> list[int]:
    """Offset of the start of each line (index 0 → row 1). Only ``\\n`` ends a line here,
    which is also true for ``\\r\\n`` files; LibCST counts rows the same way."""
    offsets = [0]
    start = source.find("\n")
    while start != -1:
        offsets.append(start + 1)
        start = source.find("\n", start + 1)
    return offsets


def offset_of(offsets: Sequence[int], location: Location) -> int:
    return offsets[location.row - 1] + location.column - 1


def fixes_to_apply(diagnostics: Iterable[Diagnostic], *, unsafe: bool = False) -> list[Fix]:
    allowed = {Applicability.SAFE, Applicability.UNSAFE} if unsafe else {Applicability.SAFE}
    return [d.fix for d in diagnostics if d.fix is not None and d.fix.applicability in allowed]


def apply_fixes(source: str, fixes: Iterable[Fix]) -> tuple[str, int, int]:
    """Apply non-overlapping fixes; return (new source, applied count, deferred count)."""
    offsets = line_offsets(source)
    taken: list[tuple[int, int]] = []
    chosen: list[tuple[int, int, str]] = []
    applied = deferred = 0
    for fix in fixes:
        spans = [_span(offsets, edit) for edit in fix.edits]
        if any(_overlaps(span, other) for span in spans for other in taken):
            deferred += 1
            continue
        for span, edit in zip(spans, fix.edits, strict=True):
            taken.append(span)
            chosen.append((span[0], span[1], edit.content))
        applied += 1
    # Apply from the end so earlier offsets stay valid; at one offset, keep edit order.
    result = source
    for start, end, content in sorted(chosen, key=lambda c: (c[0], c[1]), reverse=True):
        result = result[:start] + content + result[end:]
    return result, applied, deferred


def _span(offsets: Sequence[int], edit: Edit) -> tuple[int, int]:
    return offset_of(offsets, edit.location), offset_of(offsets, edit.end_location)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    # Two insertions at the same point conflict; an insertion at the boundary of a
    # replacement does not.
    if a == b:
        return True
    return a[0] < b[1] and b[0] < a[1]
