"""``--statistics``: one row per rule, as ruff prints it.

Text (``full`` / ``concise``), flake8's shape with ruff's fix markers::

    3\tTRV101\t[*] return-not-serializable
    1\tTRV2  \t[-] other-rule

``[*]`` every occurrence is fixable, ``[-]`` some are, ``[ ]`` none; the markers only
appear when at least one row has a fixable occurrence. Rows are ordered by count
(descending), then by rule name. ruff prints the summary after the table (see
:func:`lint_rules.formats.summary.summary`), and nothing at all when there are no
diagnostics.

JSON: an indented array of ``{"code", "name", "count", "fixable", "fixable_count"}``
(in that key order, ``fixable`` meaning every occurrence is), ending with a newline.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from lint_rules.formats._base import FixableApplicability, is_fixable
from lint_rules.model import Diagnostic

STATISTICS_FORMATS = ("full", "concise", "json")

# How ruff names its formats in "Unsupported serialization format for statistics: …".
_RUFF_FORMAT_NAMES = {
    "concise": "Concise",
    "full": "Full",
    "json": "Json",
    "json-lines": "JsonLines",
    "junit": "Junit",
    "grouped": "Grouped",
    "github": "Github",
    "gitlab": "Gitlab",
    "pylint": "Pylint",
    "rdjson": "Rdjson",
    "azure": "Azure",
    "sarif": "Sarif",
}


class UnsupportedStatisticsFormat(ValueError):
    """ruff refuses ``--statistics`` with any format but full, concise and json (exit 2)."""

    def __init__(self, fmt: str) -> None:
        name = _RUFF_FORMAT_NAMES.get(fmt, fmt)
        super().__init__(f"Unsupported serialization format for statistics: {name}")


@dataclass(frozen=True)
class RuleStatistic:
    code: str
    name: str
    count: int
    fixable_count: int

    @property
    def fixable(self) -> bool:
        return self.fixable_count == self.count


def collect(
    diagnostics: Sequence[Diagnostic], fixable_applicability: FixableApplicability = "safe"
) -> list[RuleStatistic]:
    counts: dict[str, list[int]] = {}
    names: dict[str, str] = {}
    for diagnostic in diagnostics:
        entry = counts.setdefault(diagnostic.code, [0, 0])
        entry[0] += 1
        entry[1] += is_fixable(diagnostic, fixable_applicability)
        names.setdefault(diagnostic.code, diagnostic.name)
    statistics = [
        RuleStatistic(code, names[code], count, fixable_count)
        for code, (count, fixable_count) in counts.items()
    ]
    return sorted(statistics, key=lambda s: (-s.count, s.name, s.code))


def render_statistics(
    diagnostics: Sequence[Diagnostic],
    *,
    fixable_applicability: FixableApplicability = "safe",
    fmt: str = "full",
) -> str:
    """The ``--statistics`` table for ``fmt``; ``""`` when there is nothing to count."""
    if fmt not in STATISTICS_FORMATS:
        raise UnsupportedStatisticsFormat(fmt)
    statistics = collect(diagnostics, fixable_applicability)
    if not statistics:
        return ""
    if fmt == "json":
        rows = [
            {
                "code": s.code,
                "name": s.name,
                "count": s.count,
                "fixable": s.fixable,
                "fixable_count": s.fixable_count,
            }
            for s in statistics
        ]
        return json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    count_width = len(str(max(s.count for s in statistics)))
    code_width = max(len(s.code) for s in statistics)
    any_fixable = any(s.fixable_count for s in statistics)
    lines = []
    for s in statistics:
        marker = ""
        if any_fixable:
            marker = "[*] " if s.fixable else "[-] " if s.fixable_count else "[ ] "
        lines.append(f"{s.count:>{count_width}}\t{s.code:<{code_width}}\t{marker}{s.name}\n")
    return "".join(lines)
