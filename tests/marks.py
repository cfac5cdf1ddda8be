"""Snippets whose expected diagnostics are marked in the source: ``# !TRV601`` at the end
of the line where a diagnostic starts. The family acceptance tests (MCP, LangChain,
Pydantic AI) check a snippet against its marks."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from lint_rules.config import Settings
from lint_rules.engine import check_source

MARK = re.compile(r"# !(TRV\d{3})")
Found = set[tuple[str, int]]


@dataclass(frozen=True)
class Marks:
    """A family's defaults: the codes selected (its prefix) and the snippet's file name."""

    prefix: str
    path: str

    def findings(self, source: str, select: str | None = "", path: str = "") -> Found:
        """``(code, row)`` of what toolret reports; ``select=None``: the default rules."""
        source = textwrap.dedent(source)
        path = path or self.path
        compile(source, path, "exec")
        chosen = self.prefix if select == "" else select
        settings = Settings() if chosen is None else Settings().with_overrides(select=[chosen])
        return {(d.code, d.location.row) for d in check_source(source, path, settings)}

    def marked(self, source: str, prefix: str = "") -> Found:
        """``(code, row)`` of the marks whose code starts with ``prefix``."""
        source = textwrap.dedent(source)
        prefix = prefix or self.prefix
        return {
            (m.group(1), n)
            for n, line in enumerate(source.splitlines(), 1)
            for m in MARK.finditer(line)
            if m.group(1).startswith(prefix)
        }

    def assert_marked(self, source: str, select: str = "") -> None:
        select = select or self.prefix
        assert self.findings(source, select) == self.marked(source, select)
