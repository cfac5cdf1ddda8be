"""The language server: its lifecycle, transport and the features it registers."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.io_ import StdoutWriter

from lint_rules import __version__
from lint_rules.lsp.actions import CodeActions
from lint_rules.lsp.base import _WATCHED_GLOBS, FIX_ALL_KIND, SOURCE
from lint_rules.lsp.framing import _READ_AHEAD, _chunk_reader, _Framer
from lint_rules.lsp.protocol import ToolretProtocol

logger = logging.getLogger(__name__)


class ToolretLanguageServer(CodeActions):
    """The toolret language server. ``start_io()`` serves one client on stdin/stdout."""

    def __init__(self, *, debounce: float | None = None, owns_process: bool = False) -> None:
        super().__init__(debounce=debounce)
        self.owns_process = owns_process
        """``toolret lsp``'s server: ``exit`` ends the process at once (:meth:`_exit`)."""
        self._register_features()

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve one client on ``stdin``/``stdout`` until ``exit`` or the end of its input.

        pygls' reading loop is replaced (see :class:`_Framer` and
        :meth:`ToolretProtocol.receive`): no input makes the server go deaf. It ends
        with :attr:`exit_code` set, 0 after ``shutdown`` and 1 otherwise (the codes
        the LSP specifies for ``exit``), and a line on stderr when the client went
        away without saying so, so that the client can tell and restart it.
        """
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            self.exit_code = asyncio.run(self._serve(stdin or sys.stdin.buffer))
        except SystemExit as exited:  # the ``exit`` notification (pygls' handler)
            self.exit_code = exited.code if isinstance(exited.code, int) else 1
        except BrokenPipeError:
            logger.error("stdout is closed: the client is gone; exiting")
            self.exit_code = 1
        except KeyboardInterrupt:
            self.exit_code = 1
        finally:
            self._worker.shutdown()
            self._isolated.shutdown()  # no child outlives the server
            self.shutdown()  # type: ignore[no-untyped-call]

    async def _serve(self, stdin: BinaryIO) -> int:
        protocol = self.protocol
        assert isinstance(protocol, ToolretProtocol)
        loop = asyncio.get_running_loop()
        chunks: asyncio.Queue[bytes] = asyncio.Queue()
        room = threading.Semaphore(_READ_AHEAD)
        read = _chunk_reader(stdin)

        def pump() -> None:
            """On a daemon thread: a blocked read never keeps the process from exiting."""
            while True:
                room.acquire()
                try:
                    chunk = read()
                except (OSError, ValueError) as error:
                    logger.error("Reading stdin failed: %s", error)
                    chunk = b""
                try:
                    loop.call_soon_threadsafe(chunks.put_nowait, chunk)
                except RuntimeError:  # the loop is closed: the server is exiting
                    return
                if not chunk:
                    return

        threading.Thread(target=pump, name="toolret-lsp-stdin", daemon=True).start()
        framer = _Framer()
        while True:
            chunk = await chunks.get()
            room.release()
            if not chunk:
                break
            for body, problem in framer.feed(chunk):
                if problem is not None:
                    logger.warning("Malformed input from the client: %s", problem)
                if body is not None:
                    protocol.receive(body)
                    await asyncio.sleep(0)  # let the handlers it started run
        if protocol._shutdown:
            return 0
        logger.error("The client closed stdin without shutdown and exit; exiting")
        return 1

    def _register_features(self) -> None:
        # pygls marks a handler with attributes, which a bound method cannot take: a
        # partial can (and asyncio still sees through it to the coroutine function).
        def on(method: str, handler: Callable[..., Any], options: Any = None) -> None:
            self.feature(method, options)(functools.partial(handler))

        on(types.INITIALIZE, self._initialize)
        on(types.INITIALIZED, self._initialized)
        on(types.TEXT_DOCUMENT_DID_OPEN, self._did_open)
        on(types.TEXT_DOCUMENT_DID_CHANGE, self._did_change)
        on(types.TEXT_DOCUMENT_DID_SAVE, self._did_save, types.SaveOptions(include_text=False))
        on(types.TEXT_DOCUMENT_DID_CLOSE, self._did_close)
        on(types.NOTEBOOK_DOCUMENT_DID_OPEN, self._did_open_notebook)
        on(types.NOTEBOOK_DOCUMENT_DID_CHANGE, self._did_change_notebook)
        on(types.NOTEBOOK_DOCUMENT_DID_SAVE, self._did_save_notebook)
        on(types.NOTEBOOK_DOCUMENT_DID_CLOSE, self._did_close_notebook)
        on(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, self._did_change_watched_files)
        on(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, self._did_change_folders)
        on(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            self._pull,
            types.DiagnosticOptions(
                identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False
            ),
        )
        on(
            types.TEXT_DOCUMENT_CODE_ACTION,
            self._code_action,
            types.CodeActionOptions(
                code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
                resolve_provider=True,
            ),
        )
        on(types.CODE_ACTION_RESOLVE, self._resolve)
        on(types.SHUTDOWN, self._shutdown)
        on(types.EXIT, self._exit)

    def _initialize(self, params: types.InitializeParams) -> None:
        capabilities = params.capabilities
        text_document = capabilities.text_document
        workspace = capabilities.workspace
        self.pull_diagnostics = text_document is not None and text_document.diagnostic is not None
        code_action = text_document.code_action if text_document is not None else None
        resolve = code_action.resolve_support if code_action is not None else None
        self._resolves_edits = resolve is not None and "edit" in resolve.properties
        if workspace is not None:
            self._refresh_support = bool(
                workspace.diagnostics is not None and workspace.diagnostics.refresh_support
            )
            self._document_changes = bool(
                workspace.workspace_edit is not None and workspace.workspace_edit.document_changes
            )
            self._watch_files = bool(
                workspace.did_change_watched_files is not None
                and workspace.did_change_watched_files.dynamic_registration
            )
        logger.info(
            "toolret %s: %s diagnostics", __version__, "pull" if self.pull_diagnostics else "push"
        )

    async def _initialized(self, params: types.InitializedParams) -> None:
        self._spawn(self._index_workspace())
        if not self._watch_files:
            return
        watchers = [types.FileSystemWatcher(glob_pattern=glob) for glob in _WATCHED_GLOBS]
        registration = types.Registration(
            id="toolret-watched-files",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        try:
            await self.client_register_capability_async(
                types.RegistrationParams(registrations=[registration])
            )
        except Exception:  # the client refused: config changes then need a save or a restart
            logger.warning("The client did not accept file watchers", exc_info=True)

    def _shutdown(self, params: None) -> None:
        pending = [state.pending for state in self._documents.values()]
        pending += [state.pending for state in self._notebooks.values()]
        for task in pending:
            if task is not None:
                task.cancel()
        for task in self._tasks:
            task.cancel()
        self._worker.shutdown()  # a check under way is abandoned, not waited for
        self._isolated.shutdown()

    def _exit(self, params: None) -> None:
        """``exit`` (pygls calls this before its own handler): when the server owns its
        process, end it here — every answer is written (stdout is flushed on each
        message), no child is left, and nothing else can delay the end: not a check
        under way, not asyncio's or the interpreter's teardown."""
        if not self.owns_process:
            return  # pygls' handler ends ``start_io``
        self._worker.shutdown()
        self._isolated.shutdown()
        _end_process(0 if self.protocol._shutdown else 1)

    def _invalidate(
        self, *, settings: bool, delay: float | None = None, uris: Iterable[str] | None = None
    ) -> None:
        """Settings or project facts may have changed: check the open documents again
        (only ``uris``, when given) after ``delay`` seconds (default: the debounce, as file
        events come in bursts)."""
        if settings:
            self._resolver = self._new_resolver()
        if uris is None:
            self._generation += 1
        else:
            for uri in uris:
                state = self._documents.get(uri)
                if state is not None:
                    state.generation = -1  # checked with facts that are gone
        self._spawn(self._recheck_open_documents(self.debounce if delay is None else delay))

    async def _recheck_open_documents(self, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            changed = False
            for uri in list(self._documents):
                before = self._documents[uri].shown
                state = await self._current(uri)
                if state is None or state.shown == before:
                    continue
                changed = True
                if not self.pull_diagnostics and self._documents.get(uri) is state:
                    self._publish(uri, state.shown, state.version)
            for uri in list(self._notebooks):
                shown_before = dict(self._notebooks[uri].shown)
                notebook = await self._current_notebook(uri)
                if notebook is None or notebook.shown == shown_before:
                    continue
                changed = True
                if not self.pull_diagnostics and self._notebooks.get(uri) is notebook:
                    self._publish_notebook(notebook)
            if changed and self.pull_diagnostics and self._refresh_support:
                self.workspace_diagnostic_refresh(None)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Re-checking the open documents failed")


def main() -> None:
    """``toolret lsp``: serve the language server on stdin/stdout until the client exits."""
    logging.basicConfig(
        stream=sys.stderr,  # stdout carries the protocol
        level=logging.WARNING,
        format="toolret lsp: %(levelname)s %(name)s: %(message)s",
    )
    server = ToolretLanguageServer(owns_process=True)
    server.start_io()
    _end_process(server.exit_code)


def _end_process(code: int) -> None:
    """End the process now, its output flushed. The interpreter's own teardown
    (modules, caches, LibCST's trees) takes up to a second after a check, and a client
    restarting the server waits for the process to end."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
