"""Jupyter notebooks through LSP 3.17's notebook sync: the code cells checked as one module."""

from __future__ import annotations

import asyncio
import logging

from lsprotocol import types

from lint_rules.lsp.base import _to_lsp
from lint_rules.lsp.documents import Documents
from lint_rules.lsp.state import _Cells, _NotebookState
from lint_rules.lsp.text import _LineIndex, _source_of
from lint_rules.model import Diagnostic
from lint_rules.notebook import Notebook, NotebookError, from_cells
from lint_rules.rules import ParseError

logger = logging.getLogger(__name__)


class Notebooks(Documents):
    """Open notebooks: each code cell gets its diagnostics at positions in the cell."""

    def _did_open_notebook(self, params: types.DidOpenNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        self._notebooks[uri] = _NotebookState()
        self._schedule_notebook(uri, 0.0)

    def _did_change_notebook(self, params: types.DidChangeNotebookDocumentParams) -> None:
        self._schedule_notebook(params.notebook_document.uri, self.debounce)

    def _did_save_notebook(self, params: types.DidSaveNotebookDocumentParams) -> None:
        self._schedule_notebook(params.notebook_document.uri, 0.0)

    def _did_close_notebook(self, params: types.DidCloseNotebookDocumentParams) -> None:
        state = self._notebooks.pop(params.notebook_document.uri, None)
        if state is not None and state.pending is not None:
            state.pending.cancel()
        self._isolated.cancel(("check", params.notebook_document.uri))
        if not self.pull_diagnostics:
            cells = {cell.uri for cell in params.cell_text_documents}
            for uri in sorted(cells | (state.published if state is not None else set())):
                self._publish(uri, [], None)

    async def _pull(self, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
        notebook_uri = self._notebook_of(params.text_document.uri)
        if notebook_uri is not None:
            return await self._pull_cell(params, notebook_uri)
        state = await self._current(params.text_document.uri)
        if state is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if params.previous_result_id is not None and params.previous_result_id == state.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=state.result_id)
        return types.RelatedFullDocumentDiagnosticReport(
            items=state.shown, result_id=state.result_id or None
        )

    async def _pull_cell(
        self, params: types.DocumentDiagnosticParams, notebook_uri: str
    ) -> types.DocumentDiagnosticReport:
        state = await self._current_notebook(notebook_uri)
        if state is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if params.previous_result_id is not None and params.previous_result_id == state.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=state.result_id)
        return types.RelatedFullDocumentDiagnosticReport(
            items=state.shown.get(params.text_document.uri, []),
            result_id=state.result_id or None,
        )

    def _notebook_of(self, uri: str) -> str | None:
        """The URI of the open notebook ``uri`` is a cell of (``None``: not a cell)."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        if notebook is None or notebook.uri not in self._notebooks:
            return None
        return notebook.uri

    def _cells_of(self, uri: str) -> _Cells | None:
        """The notebook's cells as synced now (``None``: not open). A cell is code when
        its kind is code and its language Python (the cells the selector syncs)."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is None:
            return None
        cells = []
        for cell in notebook.cells:
            document = self.workspace.get_text_document(cell.document)
            try:
                text = _source_of(document)
            except Exception:  # a cell whose text the client never sent
                text = ""
            code = cell.kind == types.NotebookCellKind.Code and document.language_id in (
                None,
                "python",
            )
            cells.append((cell.document, "code" if code else "markdown", text))
        return tuple(cells)

    async def _current_notebook(self, uri: str) -> _NotebookState | None:
        """The notebook's state, checked for its current cells (``None``: not open)."""
        state = self._notebooks.get(uri)
        cells = self._cells_of(uri)
        if state is None or cells is None:
            return None
        generation = self._generation
        if state.cells == cells and state.generation == generation:
            return state
        self._serial += 1
        serial = self._serial
        notebook = await self._run(self._read_notebook, uri, cells)
        found: list[Diagnostic] | None = []
        if notebook is not None and notebook.cells:
            found = await self._check_anywhere(uri, notebook.python_source)
        if found is None:  # a newer check took over: its answer
            return state if self._isolated.closed else await self._current_notebook(uri)
        if serial < state.applied_serial:
            return state  # newer cells were checked meanwhile
        state.applied_serial = serial
        state.cells, state.notebook, state.generation = cells, notebook, generation
        findings: dict[str, list[tuple[Diagnostic, types.Diagnostic]]] = {
            cell_uri: [] for cell_uri, kind, _ in cells if kind == "code"
        }
        codec = self.workspace.position_codec
        indexes: dict[int, _LineIndex] = {}
        for finding in found:
            placed = notebook.to_cells(finding) if notebook is not None else finding
            if placed.cell is None or placed.code == ParseError.code:
                continue
            cell_uri, _, text = cells[placed.cell - 1]
            index = indexes.setdefault(placed.cell, _LineIndex(text))
            findings[cell_uri].append((finding, _to_lsp(placed, index, codec)))
        broken = (
            {cells[c.number - 1][0] for c in notebook.skipped if c.reason == "syntax"}
            if notebook is not None
            else set()
        )
        state.findings = findings
        # A cell that does not parse keeps showing its last good diagnostics (as a
        # document does); its fixes are gone, they belong to older text.
        shown = {
            cell_uri: state.shown.get(cell_uri, [])
            if cell_uri in broken
            else [s for _, s in found_]
            for cell_uri, found_ in findings.items()
        }
        if shown != state.shown or not state.result_id:
            state.shown = shown
            state.result_id = str(serial)
        return state

    @staticmethod
    def _read_notebook(uri: str, cells: _Cells) -> Notebook | None:
        """Runs on the worker thread: the module of the code cells (``None``: unreadable)."""
        try:
            notebook = from_cells([(kind, text) for _, kind, text in cells])
        except NotebookError:
            logger.exception("Reading notebook %s failed", uri)
            return None
        return notebook

    def _schedule_notebook(self, uri: str, delay: float) -> None:
        """Push mode: check notebook ``uri`` after ``delay`` seconds of quiet, then publish."""
        state = self._notebooks.get(uri)
        if self.pull_diagnostics or state is None:
            return
        if state.pending is not None:
            state.pending.cancel()
        state.pending = asyncio.get_running_loop().create_task(
            self._publish_notebook_later(uri, delay)
        )

    async def _publish_notebook_later(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            state = await self._current_notebook(uri)
            if state is not None and self._notebooks.get(uri) is state:
                self._publish_notebook(state)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Publishing diagnostics for %s failed", uri)

    def _publish_notebook(self, state: _NotebookState) -> None:
        """Push mode: each code cell's diagnostics to the cell; cells that are no longer
        code cells (or gone) are cleared."""
        for uri in sorted(state.published - set(state.shown)):
            self._publish(uri, [], None)
        for uri, shown in state.shown.items():
            self._publish(uri, shown, self.workspace.get_text_document(uri).version)
        state.published = set(state.shown)
