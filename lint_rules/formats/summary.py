"""The lines ruff prints after the diagnostics of the ``full``, ``concise`` and ``grouped``
formats (and after ``--statistics``), to the same stream as the diagnostics.

ruff 0.17 wording, in ``check`` mode::

    Found 3 errors.
    Found 3 errors (1 fixed, 2 remaining).
    All checks passed!
    [*] 2 fixable with `--fix`.
    [*] 1 fixable with `--fix` (2 unsafe fixes available with `--fix --unsafe-fixes`).
    1 unsafe fix available with `--fix --unsafe-fixes`.

and in ``--fix-only`` / ``--diff`` mode::

    Fixed 2 errors.
    Fixed 1 error (1 additional fix available with `--unsafe-fixes`).
    No errors fixed (1 fix available with `--unsafe-fixes`).
    Would fix 1 error.                    (``--diff``: "Would fix" / "No errors would be fixed")

Display-only fixes are never counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from lint_rules.formats._base import (
    FixableApplicability,
    is_fixable,
    is_hidden_unsafe,
    plural,
    relative_path,
)
from lint_rules.model import Diagnostic

MULTIPLICATION_SIGN = "\u00d7"


def check_summary(
    diagnostics: Sequence[Diagnostic],
    *,
    fixable_applicability: FixableApplicability = "safe",
    hint_unsafe_fixes: bool = True,
    fixed: int = 0,
) -> str:
    """The trailing lines of a ``check`` run over the diagnostics that remain.

    ``hint_unsafe_fixes=False`` is ruff's ``--no-unsafe-fixes``: unsafe fixes are not
    mentioned. ``fixed`` counts the diagnostics ``--fix`` already fixed.
    """
    remaining = len(diagnostics)
    total = fixed + remaining
    if fixed:
        errors = plural(total, "error", "errors")
        lines = [f"Found {total} {errors} ({fixed} fixed, {remaining} remaining)."]
    elif remaining:
        lines = [f"Found {remaining} {plural(remaining, 'error', 'errors')}."]
    else:
        lines = ["All checks passed!"]

    applicable = sum(is_fixable(d, fixable_applicability) for d in diagnostics)
    hidden = sum(is_hidden_unsafe(d, fixable_applicability) for d in diagnostics)
    unsafe_hint = (
        f"{hidden} unsafe {plural(hidden, 'fix', 'fixes')} available with `--fix --unsafe-fixes`"
    )
    if fixable_applicability == "safe" and hint_unsafe_fixes:
        if applicable and hidden:
            lines.append(f"[*] {applicable} fixable with `--fix` ({unsafe_hint}).")
        elif applicable:
            lines.append(f"[*] {applicable} fixable with `--fix`.")
        elif hidden:
            lines.append(f"{unsafe_hint}.")
    elif applicable:
        lines.append(f"[*] {applicable} fixable with `--fix`.")
    return "".join(line + "\n" for line in lines)


def fix_only_summary(
    remaining: Sequence[Diagnostic],
    *,
    fixed: int,
    fixable_applicability: FixableApplicability = "safe",
    dry_run: bool = False,
) -> str:
    """The trailing line of ``--fix-only`` (``dry_run``: of ``--diff``); may be empty."""
    unapplied = sum(is_hidden_unsafe(d, fixable_applicability) for d in remaining)
    errors = plural(fixed, "error", "errors")
    verb = "Would fix" if dry_run else "Fixed"
    if unapplied:
        fixes = plural(unapplied, "fix", "fixes")
        if fixed:
            return (
                f"{verb} {fixed} {errors} ({unapplied} additional {fixes} available with "
                "`--unsafe-fixes`).\n"
            )
        nothing = "No errors would be fixed" if dry_run else "No errors fixed"
        return f"{nothing} ({unapplied} {fixes} available with `--unsafe-fixes`).\n"
    if fixed:
        return f"{verb} {fixed} {errors}.\n"
    return ""


def render_fix_table(fixed: Mapping[str, Mapping[tuple[str, str], int]], *, cwd: Path) -> str:
    """``--show-fixes``: what was fixed, per file; ``fixed`` maps filename -> (code, name) -> count.

    Includes the blank lines ruff prints before and after it; empty when nothing was fixed.
    """
    counts = [count for table in fixed.values() for count in table.values() if count]
    if not counts:
        return ""
    total = sum(counts)
    width = len(str(max(counts)))
    lines = ["", f"Fixed {total} {plural(total, 'error', 'errors')}:"]
    for filename in sorted(fixed):
        table = {rule: count for rule, count in fixed[filename].items() if count}
        if not table:
            continue
        lines.append(f"- {relative_path(filename, cwd)}:")
        for (code, name), count in sorted(table.items(), key=lambda item: (-item[1], item[0])):
            lines.append(f"    {count:>{width}} {MULTIPLICATION_SIGN} {code} ({name})")
    lines.append("")
    return "".join(line + "\n" for line in lines)
