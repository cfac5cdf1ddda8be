"""The server's shared state: settings, the project, the worker, publishing and edits."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec

from lint_rules import __version__
from lint_rules.analysis.index import EMPTY_FACTS, ModuleFacts, wants_facts
from lint_rules.analysis.project import Project
from lint_rules.analysis.summaries import SummaryStore
from lint_rules.config import CONFIG_FILENAMES, Settings, SettingsResolver
from lint_rules.discovery import DiscoveryError, discover
from lint_rules.lsp.protocol import ToolretProtocol
from lint_rules.lsp.scheduler import Isolated, Worker
from lint_rules.lsp.state import _Document, _NotebookState
from lint_rules.lsp.text import _LineIndex
from lint_rules.model import Diagnostic, Location, Severity
from lint_rules.rules import InternalError, ParseError

logger = logging.getLogger(__name__)

SOURCE = "toolret"
"""The ``source`` of every diagnostic, and the server's name."""

FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.{SOURCE}"
"""``source.fixAll.toolret``: what ``editor.codeActionsOnSave`` names to fix on save."""

DEBOUNCE_SECONDS = 0.3
"""How long typing must pause before a changed buffer is checked again (push mode), at
most: the pause adapts to the document (``debounce_for``)."""
MIN_DEBOUNCE_SECONDS = 0.03
"""The shortest pause: a burst of keystrokes still makes one check, not one each."""


def debounce_for(check_seconds: float | None) -> float:
    """The pause before re-checking a changed document whose last check took
    ``check_seconds``: as long as that check (a pause shorter than the check would queue
    checks that the next keystroke supersedes; a longer one only delays the answer),
    between ``MIN_DEBOUNCE_SECONDS`` and ``DEBOUNCE_SECONDS``; the longest while the
    document has not been checked yet."""
    if check_seconds is None:
        return DEBOUNCE_SECONDS
    return min(max(check_seconds, MIN_DEBOUNCE_SECONDS), DEBOUNCE_SECONDS)


_PYTHON_SUFFIXES = (".py", ".pyi")
# The files whose change can change diagnostics of open documents: config files and
# the text files a PolyAI project's prompts and YAML live in (analysis.project).
_FACT_SUFFIXES = (".yaml", ".yml", ".txt", ".md", ".json")
_WATCHED_GLOBS = (
    *(f"**/{name}" for name in CONFIG_FILENAMES),
    "**/*.{yaml,yml,txt,md,json}",
    "**/*.{py,pyi}",
)

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


class ServerBase(LanguageServer):
    """The state every part of the server shares, and the means to run work off the loop.

    The parts are layered: :class:`~lint_rules.lsp.indexing.Indexing` (the project
    index), :class:`~lint_rules.lsp.documents.Documents` (text documents),
    :class:`~lint_rules.lsp.notebooks.Notebooks`, :class:`~lint_rules.lsp.actions.CodeActions`
    and :class:`~lint_rules.lsp.server.ToolretLanguageServer` (lifecycle and features),
    each a subclass of the one before.
    """

    def __init__(self, *, debounce: float | None = None) -> None:
        super().__init__(
            SOURCE,
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Full,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                # Every notebook, its Python cells. (``notebook: "*"`` rather than no
                # notebook filter: lsprotocol's clients cannot read a cells-only filter.)
                notebook_selector=[
                    types.NotebookDocumentFilterWithNotebook(
                        notebook="*", cells=[types.NotebookCellLanguage(language="python")]
                    )
                ],
                save=True,
            ),
            protocol_cls=ToolretProtocol,
        )
        self.debounce = DEBOUNCE_SECONDS if debounce is None else debounce
        """The pause before re-checking after a change (``None`` given: adaptive, each
        document's from its last check, ``debounce_for``; a number: fixed)."""
        self._adaptive = debounce is None
        self.pull_diagnostics = False
        """Whether the client pulls diagnostics (decided at ``initialize``)."""
        self._refresh_support = False
        self._document_changes = False
        self._resolves_edits = False
        """Whether the client resolves a code action's ``edit`` (``codeAction/resolve``)."""
        self._watch_files = False
        self._documents: dict[str, _Document] = {}
        self._notebooks: dict[str, _NotebookState] = {}
        self._serial = 0
        self._generation = 0
        self._resolver = self._new_resolver()
        self._summaries = SummaryStore(keeps_checked=True)
        self._project = Project(revalidate=True, summaries=self._summaries)
        self._deps: dict[str, frozenset[str]] = {}
        """Checked path → the other modules whose summaries its last check read (worker
        thread writes, the loop reads after awaiting the check)."""
        self._replaced: set[str] = set()
        """Modules whose summary the last checks replaced (a buffer's edit)."""
        # One worker: checks run in order, and the resolver's and the project's
        # caches are only ever touched from that thread; large texts in child processes.
        self._worker = Worker("toolret-check")
        self._isolated = Isolated()
        self._isolating: dict[str, tuple[tuple[str, int], asyncio.Future[Any]]] = {}
        """URI → the child's check under way: the (text, generation) it checks, and it."""
        self._tasks: set[asyncio.Task[None]] = set()
        # Cross-file facts: each indexed file's stamp and facts, and the index built
        # from them (worker thread only).
        self._facts: dict[str, tuple[tuple[int, int], ModuleFacts]] = {}
        self._index_roots: tuple[Path, ...] = ()
        self._indexing = False
        """A build is under way (worker thread): a re-index reads facts, the build derives."""
        self._build = 0
        """The latest build started (event loop): an older one stops at its next slice."""
        self.exit_code = 1
        """The process's exit code once :meth:`start_io` returns (0: ``shutdown``, then the end)."""

    # -- transport ----------------------------------------------------------

    async def _run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` on the worker thread."""
        return await self._worker.run(function, *args)

    def _debounce_for(self, uri: str) -> float:
        """The pause before re-checking ``uri`` after a change."""
        if not self._adaptive:
            return self.debounce
        state = self._documents.get(uri)
        return debounce_for(state.check_seconds if state is not None else None)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _settings_for(self, path: str) -> Settings:
        if path:
            return self._resolver(Path(path))
        root = self.workspace.root_path
        return self._resolver(Path(root) if root else Path.cwd())

    @staticmethod
    def _new_resolver() -> SettingsResolver:
        # TRV001 always on: it is how a buffer that does not parse is told apart
        # (it is never shown, so the user's choice about it does not matter here).
        return SettingsResolver(
            overrides=lambda settings: settings.with_overrides(extend_select=[ParseError.code])
        )

    def _publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def _workspace_edit(
        self, document: TextDocument, edits: list[types.TextEdit]
    ) -> types.WorkspaceEdit:
        return self._workspace_edits([(document, edits)])

    def _workspace_edits(
        self, changes: list[tuple[TextDocument, list[types.TextEdit]]]
    ) -> types.WorkspaceEdit:
        if self._document_changes:
            return types.WorkspaceEdit(
                document_changes=[
                    types.TextDocumentEdit(
                        text_document=types.OptionalVersionedTextDocumentIdentifier(
                            uri=document.uri, version=document.version
                        ),
                        edits=list(edits),
                    )
                    for document, edits in changes
                ]
            )
        return types.WorkspaceEdit(
            changes={document.uri: list(edits) for document, edits in changes}
        )

    def _invalidate(
        self, *, settings: bool, delay: float | None = None, uris: Iterable[str] | None = None
    ) -> None:
        """Settings or project facts changed: check the open documents again (the server's)."""
        raise NotImplementedError


def _path_of(uri: str) -> str:
    """The file system path of a ``file:`` URI; ``""`` for an unsaved buffer."""
    if not uri.startswith("file:"):
        return ""
    return to_fs_path(uri) or ""


def _file_name(uri: str) -> str:
    return uri.rstrip("/").rsplit("/", 1)[-1]


def _is_python(document: TextDocument) -> bool:
    """Python by its language id; by its name when the client sent none (or ``""``, as
    some clients do for a buffer they have not classified)."""
    if document.language_id:
        return document.language_id == "python"
    return _file_name(document.uri).endswith(_PYTHON_SUFFIXES)


def _is_excluded(path: str, resolver: SettingsResolver) -> bool:
    """Whether ``exclude`` settings drop ``path`` (ruff's ``--force-exclude`` semantics)."""
    try:
        return not any(
            True for _ in discover([Path(path)], settings_for=resolver, force_exclude=True)
        )
    except DiscoveryError:  # not on disk (yet): nothing to match but the name
        return False


def _to_lsp(finding: Diagnostic, index: _LineIndex, codec: PositionCodec) -> types.Diagnostic:
    url = finding.url  # a link only when the documentation site is configured
    return types.Diagnostic(
        range=types.Range(
            index.location(finding.location, codec), index.location(finding.end_location, codec)
        ),
        message=finding.message,
        severity=_SEVERITY[finding.severity],
        code=finding.code,
        code_description=None if url is None else types.CodeDescription(href=url),
        source=SOURCE,
    )


def _engine_diagnostic(path: str, message: str) -> Diagnostic:
    start = Location(row=1, column=1)
    return Diagnostic(
        code=InternalError.code,
        name=InternalError.name,
        message=message,
        severity=InternalError.severity,
        filename=path,
        location=start,
        end_location=start,
    )


def _module_facts(path: str, data: bytes, project: Project, *, named: bool = False) -> ModuleFacts:
    """A file's index facts, as ``toolret check`` gathers them: read only when its bytes
    can hold a cross-file fact and its CPython tree a contribution (the facts' screen,
    ``index_facts.screened_extract``), or in full when another file's fact ``named`` it."""
    if named:
        from lint_rules.frameworks.index_facts import extract

        return extract(path, data, project)
    if not wants_facts(data):
        return EMPTY_FACTS
    from lint_rules.frameworks.index_facts import screened_extract

    return screened_extract(path, data, project)
