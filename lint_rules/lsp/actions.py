"""Code actions: a finding's fix, a ``# noqa`` for its line, and ``source.fixAll.toolret``."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from lsprotocol import types
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec

from lint_rules import fixes
from lint_rules.analysis.noqa import add_noqa
from lint_rules.lsp.base import FIX_ALL_KIND, SOURCE
from lint_rules.lsp.notebooks import Notebooks
from lint_rules.lsp.state import _NotebookState
from lint_rules.lsp.text import _LineIndex, _overlaps, _source_of, text_edits
from lint_rules.model import Applicability, Diagnostic, Fix
from lint_rules.notebook import changed_sources
from lint_rules.rules import UNSUPPRESSIBLE

logger = logging.getLogger(__name__)


FIX_ALL_TITLE = f"{SOURCE}: Fix all auto-fixable problems"


class CodeActions(Notebooks):
    """``textDocument/codeAction`` for documents and notebook cells."""

    async def _code_action(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        notebook_uri = self._notebook_of(uri)
        if notebook_uri is not None:
            return await self._cell_code_action(params, notebook_uri)
        state = await self._current(uri)
        if state is None or not state.parsed or state.source is None:
            return None
        document = self.workspace.get_text_document(uri)
        source = state.source
        if _source_of(document) != source:
            return None  # changed while it was checked: the client will ask again
        codec = document.position_codec
        only = params.context.only
        actions: list[types.CodeAction] = []
        if _wants(only, types.CodeActionKind.QuickFix):
            seen: set[tuple[str, str]] = set()  # two rules, one line: one noqa action
            for finding, shown in state.findings:
                if not _overlaps(shown.range, params.range):
                    continue
                for action in self._quick_fixes(document, source, codec, finding, shown):
                    key = (action.title, repr(action.edit))
                    if key not in seen:
                        seen.add(key)
                        actions.append(action)
        if any(fixes.is_applicable(finding) for finding, _ in state.findings):
            fix_all = await self._fix_all_action(only, uri, notebook=False)
            if fix_all is not None:
                actions.append(fix_all)
        return actions

    async def _fix_all_action(
        self, only: Sequence[str] | None, uri: str, *, notebook: bool
    ) -> types.CodeAction | None:
        """``source.fixAll.toolret`` for a request: computed when the request asks for
        it by kind (fix on save); for the light bulb's unfiltered request, offered without
        its edit where the client resolves actions (``codeAction/resolve`` computes it),
        and not at all elsewhere — never a wait for every pass of fixes on a glance."""
        if _asks_for(only, FIX_ALL_KIND):
            return await self._computed_fix_all(uri, notebook=notebook)
        if not only and self._resolves_edits:
            return types.CodeAction(
                title=FIX_ALL_TITLE, kind=FIX_ALL_KIND, data={"uri": uri, "notebook": notebook}
            )
        return None

    async def _resolve(self, action: types.CodeAction) -> types.CodeAction:
        """``codeAction/resolve``: the edit of a fix-all offered without one (``None``
        stays: the text changed or nothing is left to fix)."""
        data = action.data
        if (
            action.kind == FIX_ALL_KIND
            and isinstance(data, dict)
            and isinstance(data.get("uri"), str)
        ):
            computed = await self._computed_fix_all(
                data["uri"], notebook=bool(data.get("notebook"))
            )
            if computed is not None:
                action.edit = computed.edit
        return action

    async def _computed_fix_all(self, uri: str, *, notebook: bool) -> types.CodeAction | None:
        """Fix-all with its edit: every safe fix applied to the text as it is now (a
        notebook's: to its module, sent as edits of its cells)."""
        if notebook:
            cells = await self._current_notebook(uri)
            if cells is None or cells.notebook is None or cells.cells is None:
                return None
            module = cells.notebook.python_source
            fixed = await self._fix_anywhere(uri, module)
            edit = self._cells_edit(cells, fixed) if fixed != module else None
            if edit is None or self._cells_of(uri) != cells.cells:
                return None
            return types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL_KIND, edit=edit)
        state = await self._current(uri)
        if state is None or not state.parsed or state.source is None:
            return None
        source = state.source
        fixed = await self._fix_anywhere(uri, source)
        document = self.workspace.get_text_document(uri)
        if fixed == source or _source_of(document) != source:
            return None  # nothing to fix, or changed meanwhile
        edits = text_edits(source, fixed, document.position_codec)
        return types.CodeAction(
            title=FIX_ALL_TITLE, kind=FIX_ALL_KIND, edit=self._workspace_edit(document, edits)
        )

    def _quick_fixes(
        self,
        document: TextDocument,
        source: str,
        codec: PositionCodec,
        finding: Diagnostic,
        shown: types.Diagnostic,
    ) -> Iterable[types.CodeAction]:
        fix = finding.fix
        if fix is not None and fix.applicability is not Applicability.DISPLAY_ONLY:
            fixed = _apply_one(source, fix)
            if fixed is not None and fixed != source:
                safe = fix.applicability is Applicability.SAFE
                title = f"{SOURCE} ({finding.code}): {fix.message}"
                yield types.CodeAction(
                    title=title if safe else f"{title} (unsafe fix)",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[shown],
                    edit=self._workspace_edit(document, text_edits(source, fixed, codec)),
                    is_preferred=safe,
                )
        silenced = _with_noqa(source, finding.noqa_row, finding.code)
        if silenced is not None:
            yield types.CodeAction(
                title=f"Disable {finding.code} for this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[shown],
                edit=self._workspace_edit(document, text_edits(source, silenced, codec)),
            )

    async def _cell_code_action(
        self, params: types.CodeActionParams, notebook_uri: str
    ) -> list[types.CodeAction] | None:
        """The code actions of a notebook cell: fixes and ``# noqa`` are applied to the
        module of the code cells and sent as edits of the cells they change."""
        uri = params.text_document.uri
        state = await self._current_notebook(notebook_uri)
        if state is None or state.notebook is None or state.cells is None:
            return None
        if self._cells_of(notebook_uri) != state.cells:
            return None  # changed while it was checked: the client will ask again
        module = state.notebook.python_source
        only = params.context.only
        actions: list[types.CodeAction] = []
        if _wants(only, types.CodeActionKind.QuickFix):
            seen: set[tuple[str, str]] = set()
            for finding, shown in state.findings.get(uri, []):
                if not _overlaps(shown.range, params.range):
                    continue
                for action in self._cell_quick_fixes(state, module, finding, shown):
                    key = (action.title, repr(action.edit))
                    if key not in seen:
                        seen.add(key)
                        actions.append(action)
        if any(
            fixes.is_applicable(finding)
            for found in state.findings.values()
            for finding, _ in found
        ):
            fix_all = await self._fix_all_action(only, notebook_uri, notebook=True)
            if fix_all is not None:
                actions.append(fix_all)
        return actions

    def _cell_quick_fixes(
        self,
        state: _NotebookState,
        module: str,
        finding: Diagnostic,
        shown: types.Diagnostic,
    ) -> Iterable[types.CodeAction]:
        fix = finding.fix
        if fix is not None and fix.applicability is not Applicability.DISPLAY_ONLY:
            fixed = _apply_one(module, fix)
            edit = self._cells_edit(state, fixed) if fixed is not None else None
            if edit is not None:
                safe = fix.applicability is Applicability.SAFE
                title = f"{SOURCE} ({finding.code}): {fix.message}"
                yield types.CodeAction(
                    title=title if safe else f"{title} (unsafe fix)",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[shown],
                    edit=edit,
                    is_preferred=safe,
                )
        silenced = _with_noqa(module, finding.noqa_row, finding.code)
        edit = self._cells_edit(state, silenced) if silenced is not None else None
        if edit is not None:
            yield types.CodeAction(
                title=f"Disable {finding.code} for this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[shown],
                edit=edit,
            )

    def _cells_edit(self, state: _NotebookState, module: str) -> types.WorkspaceEdit | None:
        """The edits of the cells that the new module text changes (``None``: none, or it
        does not split back into the cells)."""
        assert state.notebook is not None and state.cells is not None
        changed = changed_sources(state.notebook, module)
        if not changed:
            return None
        changes = []
        for number, new in sorted(changed.items()):
            uri, _, old = state.cells[number - 1]
            document = self.workspace.get_text_document(uri)
            changes.append((document, text_edits(old, new, document.position_codec)))
        return self._workspace_edits(changes)


def _wants(only: Sequence[str] | None, kind: str) -> bool:
    """Whether a code-action request restricted to ``only`` kinds asks for ``kind``."""
    if not only:
        return True
    return any(kind == wanted or kind.startswith(f"{wanted}.") for wanted in only)


def _asks_for(only: Sequence[str] | None, kind: str) -> bool:
    """Whether a request names ``kind`` (or a kind it belongs to) in ``only``. Fix-all is
    computed for these requests alone: it checks the text pass after pass, and the
    request an editor sends for its light bulb (no ``only``) must not wait for that."""
    return bool(only) and _wants(only, kind)


def _apply_one(source: str, fix: Fix) -> str | None:
    try:
        fixed, applied, _ = fixes.apply_fixes(source, [fix])
    except Exception:
        logger.exception("Applying %r failed", fix.message)
        return None
    return fixed if applied else None


def _with_noqa(source: str, row: int, code: str) -> str | None:
    """``source`` with ``code`` silenced on ``row``; ``None`` if there is nothing to add
    (or ``code`` is one no directive silences)."""
    if code in UNSUPPRESSIBLE:
        return None
    index = _LineIndex(source)
    if not 1 <= row <= len(index.starts):
        return None
    line = index.line_text(row - 1)
    silenced = add_noqa(line, code)
    if silenced == line:
        return None
    start = index.starts[row - 1]
    return source[:start] + silenced + source[start + len(line) :]
