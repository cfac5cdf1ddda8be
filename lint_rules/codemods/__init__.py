"""LibCST codemods: toolret's fixes for teams that already run ``python -m libcst.tool codemod``.

With ``modules: ['lint_rules.codemods']`` in ``.libcst.codemod.yaml`` the
command is ``fix.ToolretFixCommand`` (``python -m libcst.tool list`` shows
it); without that entry, ``-x lint_rules.codemods.ToolretFixCommand`` names
the class directly. Pass ``--no-format`` (and set ``formatter: []``) so that
LibCST does not run black over the fixed files. See ``docs/fixing.md``.
"""

from __future__ import annotations

from lint_rules.codemods.fix import ToolretFixCommand

__all__ = ["ToolretFixCommand"]
