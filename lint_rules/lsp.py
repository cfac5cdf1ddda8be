"""``toolret lsp``: a language server (pygls 2.x) with diagnostics as you type and quick fixes.

Install it with the ``lsp`` extra (``pip install 'toolret[lsp]'``) and point any
LSP client at ``toolret lsp`` (or ``python -m lint_rules.lsp``), which speaks
JSON-RPC on stdin/stdout.

What it does
------------
* Diagnostics for Python documents on open, change (debounced by
  :data:`DEBOUNCE_SECONDS`) and save, from the same ``check_source`` as the CLI,
  run on a worker thread so the event loop keeps answering requests.
* *Pull* diagnostics (``textDocument/diagnostic``) when the client declares the
  ``textDocument.diagnostic`` capability, *push* (``publishDiagnostics``)
  otherwise; never both, or the client would show every finding twice.
* Code actions: the rule's fix as a quick fix (a safe fix is the preferred
  action; an unsafe one is offered too, titled "(unsafe fix)", and not
  preferred, so "auto fix" never applies it unasked), "Disable TRVxxx for this
  line" (adds or extends the ``# noqa`` on the diagnostic's noqa row), and
  ``source.fixAll.toolret`` (every safe fix, pass after pass, like ``toolret fix``).
  A fix is applied by the fix engine (``lint_rules.fixes``) and sent as the
  minimal edits between the text before and after, so the editor gets exactly
  what ``toolret fix`` would write.
* Jupyter notebooks, through LSP 3.17's notebook document sync (pygls keeps the
  notebook and its cell documents; the server asks for the Python cells of every
  notebook): on open, change (debounced) and save, the code cells are checked as
  one module, built as ``toolret check`` builds a ``.ipynb`` file's
  (``lint_rules.notebook``: IPython lines as placeholders, magic cells skipped),
  and each cell gets its own diagnostics at positions in the cell; pulled
  diagnostics are answered per cell as well. Quick fixes, ``# noqa`` and fix-all
  are applied to the module and sent as edits of the cells they change. A cell
  that does not parse keeps its last good diagnostics while the others are
  checked. A ``.ipynb`` file opened as a plain text document (its JSON) gets none.
* Positions in the encoding negotiated with the client (UTF-16 unless it offers
  another): toolret's code-point columns are converted line by line. Lines end
  at ``\\n``, ``\\r\\n`` or ``\\r``, as in LSP, CPython and LibCST.
* A buffer that does not parse (the engine's TRV001) keeps showing its last good
  diagnostics: code being typed rarely parses, and findings that blink out on
  every keystroke are useless. TRV001 itself is never shown (the editor's Python
  support reports syntax errors), and no fix or noqa action is offered until the
  buffer parses again, since the last good edits belong to older text.
* Settings: the closest ``[tool.toolret]`` / ``toolret.toml`` to each document,
  as for the CLI. They are read again when a config file changes: the server
  asks the client to watch them (where it supports dynamic registration) and
  also reacts to a config file saved in the editor. Files that
  ``exclude`` / ``extend-exclude`` match (applied as with ``--force-exclude``)
  get no diagnostics.
* Whole-project facts: the PolyAI directory facts (prompts and YAML) of each
  document's project, re-validated by file stats on every check, and the
  Python cross-file facts of ``toolret check``'s project index (the
  ``Agent(...)`` in ``main.py`` that gives a behaviour function in
  ``behaviors.py`` its output type). The index covers the workspace folders:
  built on the worker thread after ``initialized``, then kept up to date file by
  file from saves and watched-file events (the saved text, not unsaved
  buffers, as in ``toolret check``): a changed file's facts replace its old ones
  and only what they can change is derived again (``ProjectIndex.update``). The
  open documents whose view of the index changed are checked again. The build
  runs in slices of :data:`_INDEX_SLICE` seconds with the checks of newly
  opened documents let in first, so a document opened on a fresh
  server shows its same-file diagnostics at once, checked without the index as
  the flake8 plugin checks; once the index is ready the open documents are
  checked again with it, and published again where that changed anything.
* It never dies on a bad request. pygls 2.1 deserialises a message before it
  knows which request it answers, and on failure only shows a message: the
  request would never be answered. :class:`ToolretProtocol` answers it with the
  JSON-RPC error (``InvalidParams``, -32602, for params that do not fit the
  method's type) and goes on with the next message.
* It never goes deaf on bad input. The server reads stdin itself (pygls' reader
  loses framing for good, or exits): a frame without ``Content-Length``, garbage,
  a length that swallows the next message or one too large to hold are skipped
  up to the next ``Content-Length`` header (:class:`_Framer`); a body that is not
  UTF-8, JSON or a JSON-RPC message is answered -32700/-32600 where it has an id.
  The lifecycle is the specification's: ``ServerNotInitialized`` (-32002) before
  ``initialize``, ``InvalidRequest`` after ``shutdown``; it exits 0 on ``exit``
  after ``shutdown``, 1 otherwise, with a line on stderr if stdin just closes.

Document sync is *full*, not incremental: pygls 2.1 applies incremental changes
on ``str.splitlines`` lines, which also break at form feeds, ``\\x1c``-``\\x1e``,
``\\x85`` and ``\\u2028``/``\\u2029``, so an edit below such a character lands on the
wrong line. Full sync costs one copy of the buffer per change and is always right.
"""

from __future__ import annotations

import asyncio
import bisect
import difflib
import functools
import json
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

try:
    from cattrs import ClassValidationError, transform_error
    from lsprotocol import types
    from pygls.exceptions import (
        JsonRpcException,
        JsonRpcInvalidParams,
        JsonRpcInvalidRequest,
        JsonRpcParseError,
        JsonRpcServerNotInitialized,
    )
    from pygls.io_ import StdoutWriter
    from pygls.lsp.server import LanguageServer
    from pygls.protocol import LanguageServerProtocol, lsp_method
    from pygls.uris import to_fs_path
    from pygls.workspace import TextDocument
    from pygls.workspace.position_codec import PositionCodec
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "toolret lsp needs the language-server extra: pip install 'toolret[lsp]'"
    ) from error

from lint_rules import __version__, fixes
from lint_rules.analysis.index import EMPTY_FACTS, ModuleFacts, ProjectIndex, wants_facts
from lint_rules.analysis.module import cpython_tree_quietly
from lint_rules.analysis.noqa import add_noqa
from lint_rules.analysis.project import Project
from lint_rules.analysis.summaries import SummaryStore
from lint_rules.config import CONFIG_FILENAMES, ConfigError, Settings, SettingsResolver
from lint_rules.discovery import DiscoveryError, discover
from lint_rules.engine import check_source
from lint_rules.fileio import read_regular
from lint_rules.model import Applicability, Diagnostic, Fix, Location, Severity
from lint_rules.notebook import Notebook, NotebookError, changed_sources, from_cells
from lint_rules.rules import UNSUPPRESSIBLE, InternalError, ParseError

__all__ = ["DEBOUNCE_SECONDS", "FIX_ALL_KIND", "ToolretLanguageServer", "ToolretProtocol", "main"]

logger = logging.getLogger(__name__)

SOURCE = "toolret"
"""The ``source`` of every diagnostic, and the server's name."""

FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.{SOURCE}"
"""``source.fixAll.toolret``: what ``editor.codeActionsOnSave`` names to fix on save."""

DEBOUNCE_SECONDS = 0.3
"""How long typing must pause before a changed buffer is checked again (push mode)."""

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_SURROGATE = re.compile("[\ud800-\udfff]")
_PYTHON_SUFFIXES = (".py", ".pyi")
# The files whose change can change diagnostics of open documents: config files and
# the text files a PolyAI project's prompts and YAML live in (analysis.project).
_FACT_SUFFIXES = (".yaml", ".yml", ".txt", ".md", ".json")
_WATCHED_GLOBS = (
    *(f"**/{name}" for name in CONFIG_FILENAMES),
    "**/*.{yaml,yml,txt,md,json}",
    "**/*.{py,pyi}",
)
_INDEX_LIMIT = 50_000
_INDEX_SLICE = 0.05
"""Seconds of indexing the worker does at a time: a check waits for one slice at most."""
"""Files indexed per workspace folder at most (a home directory opened as a workspace)."""
_DIFF_WINDOW = 4000
"""Above this many changed characters an edit is sent as one replacement, not diffed."""

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}


# ------------------------------------------------------------------ JSON-RPC robustness

_MESSAGE_LIMIT = 64 * 1024 * 1024
"""The largest message body held in memory (bytes); a longer one is dropped as it streams by."""
_HEADER_LINE_LIMIT = 8192
"""A header line longer than this is garbage (real headers are a few dozen bytes)."""
_HEADER_LINE = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*:[ \t]*(.*?)[ \t]*")
_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
# A complete Content-Length header line. It cannot occur in a JSON text: outside strings
# it is no JSON token, and a string cannot hold a raw line break. Seen inside a body, it
# means the body's length was wrong and the next message starts there.
_HEADER_IN_BODY = re.compile(
    rb"content-length[ \t]{0,16}:[ \t]{0,16}\d{1,20}[ \t]{0,16}\r?\n", re.IGNORECASE
)
_READ_SIZE = 65536
_READ_AHEAD = 4
"""Chunks read from stdin before the event loop has taken them."""
_HEADER_IN_BODY_SPAN = 128
"""Longer than any match of ``_HEADER_IN_BODY``: what is scanned again when bytes arrive."""
_NAME_SPAN = 32
"""Longer than any match of ``_CONTENT_LENGTH``: what is kept of skipped bytes."""


class _Event(NamedTuple):
    """What :class:`_Framer` found: a message body, a framing problem, or both."""

    body: bytes | None
    problem: str | None


class _Framer:
    """LSP's base protocol (``Content-Length: N\\r\\n`` headers, a blank line, N bytes of
    body) cut out of a byte stream, recovering from whatever the stream holds.

    pygls' reader keeps no state it can recover: a frame without ``Content-Length``
    makes it read the next frame's header as body bytes, garbage lines are skipped
    only while they happen to end at a line break, and it reads a body with one
    ``read(N)`` of whatever N the header claimed (``MemoryError`` and the process
    exits). Here every problem is reported and the stream is *resynchronised*:

    * a line that is not a header, a header block without ``Content-Length``, or a
      length that is not a number: skip to the next ``Content-Length:``, wherever it
      is (a body without length usually runs straight into the next header);
    * a body longer than ``limit``: dropped as it streams by, never held;
    * a ``Content-Length`` header line *inside* a body (the length was too long and
      swallowed the next message): the body ends there and the next frame starts.
    Blank lines between frames are skipped; header names are case-insensitive and a
    bare ``\\n`` ends a header line as well as ``\\r\\n``.
    """

    def __init__(self, limit: int = _MESSAGE_LIMIT) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self._in_headers = False
        self._length: int | None = None
        self._body: int | None = None
        """In a body: its length (held in ``buffer`` until complete)."""
        self._scanned = 0
        """In a body: how much of it was searched for a header."""
        self._dropping = 0
        """In an oversized body: how many of its bytes are still to come."""
        self._lost = False
        """Skipping to the next ``Content-Length:``."""

    def feed(self, data: bytes) -> list[_Event]:
        """Take the next bytes of the stream; what they complete, in order."""
        self.buffer += data
        events: list[_Event] = []
        while self._step(events):
            pass
        return events

    def _step(self, events: list[_Event]) -> bool:
        """Make one step of progress on the buffer; whether another may follow."""
        if self._lost:
            return self._resync()
        if self._dropping:
            return self._drop()
        if self._body is not None:
            return self._read_body(events)
        return self._read_header(events)

    def _read_header(self, events: list[_Event]) -> bool:
        end = self.buffer.find(b"\n")
        if end < 0:
            if len(self.buffer) > _HEADER_LINE_LIMIT:
                return self._lose(events, "a header line too long to be one", 1)
            return False
        line = bytes(self.buffer[:end]).rstrip(b"\r")
        if not line:
            del self.buffer[: end + 1]
            if not self._in_headers:
                return True  # a blank line between frames
            if self._length is None:
                return self._lose(events, "a message without a Content-Length header", 0)
            return self._start_body(events, self._length)
        match = _HEADER_LINE.fullmatch(line)
        if match is None or _CONTENT_LENGTH.search(line, 1):  # "garbageContent-Length: 9"
            return self._lose(events, f"bytes that are not a header: {line[:60]!r}", 1)
        if _CONTENT_LENGTH.match(line):
            value = match.group(1)
            if not value.isdigit() or not value.isascii():
                return self._lose(events, f"a Content-Length that is no length: {line[:60]!r}", 1)
            self._length = int(value)
        self._in_headers = True
        del self.buffer[: end + 1]
        return True

    def _start_body(self, events: list[_Event], length: int) -> bool:
        self._in_headers, self._length = False, None
        if length > self.limit:
            events.append(
                _Event(
                    None,
                    f"a message of {length} bytes (Content-Length), over the limit of "
                    f"{self.limit}: dropped",
                )
            )
            self._dropping = length
            return True
        self._body, self._scanned = length, 0
        return True

    def _read_body(self, events: list[_Event]) -> bool:
        assert self._body is not None
        length = self._body
        complete = len(self.buffer) >= length
        # Once complete, look a little past the end too: a header that starts inside
        # the body (a length a few bytes too long) ends beyond it.
        end = min(len(self.buffer), length + _HEADER_IN_BODY_SPAN) if complete else length
        start = max(self._scanned - _HEADER_IN_BODY_SPAN, 0)
        header = _HEADER_IN_BODY.search(self.buffer, start, end)
        if header is not None and header.start() >= length:
            header = None  # the next frame, right where it should be
        if header is None and not complete:
            self._scanned = len(self.buffer)
            return False
        if header is not None:
            # The length swallowed the next message: what precedes its header may well
            # be the whole body (it is answered as a parse error if it is not).
            cut = header.start()
            problem = f"a Content-Length of {length} running into the next message's header"
        else:
            cut, problem = length, None
        events.append(_Event(bytes(self.buffer[:cut]), problem))
        del self.buffer[:cut]
        self._body = None
        return True

    def _drop(self) -> bool:
        span = min(len(self.buffer), self._dropping)
        header = _HEADER_IN_BODY.search(self.buffer, 0, span)
        if header is not None:
            drop = header.start()
            self._dropping = 0
        elif span == self._dropping:
            drop = span
            self._dropping = 0
        else:
            drop = max(span - _HEADER_IN_BODY_SPAN, 0)
            self._dropping -= drop
        del self.buffer[:drop]
        return self._dropping == 0

    def _lose(self, events: list[_Event], problem: str, start: int) -> bool:
        """Framing is lost: skip to the next ``Content-Length:`` from ``buffer[start:]``."""
        events.append(_Event(None, f"{problem}; skipped to the next Content-Length header"))
        self._in_headers, self._length, self._lost = False, None, True
        del self.buffer[:start]
        return True

    def _resync(self) -> bool:
        found = _CONTENT_LENGTH.search(self.buffer)
        if found is None:
            del self.buffer[: max(len(self.buffer) - _NAME_SPAN, 0)]
            return False
        del self.buffer[: found.start()]
        self._lost = False
        return True


class _Answered:
    """What a request that was already answered with an error deserialises to."""

    jsonrpc = None


_ANSWERED = _Answered()


class ToolretProtocol(LanguageServerProtocol):
    """pygls' protocol, answering every request it is sent and reading bodies itself.

    * A request whose params cannot be deserialised: pygls would report the error out
      of band (``window/showMessage``) and lose the request's id, so the client
      waits for an answer forever; JSON-RPC 2.0 asks for an error response instead.
    * A body that is not UTF-8, not JSON or not a JSON-RPC message
      (:meth:`receive`): a parse error (-32700) or invalid request (-32600), with the
      request's id where one can be read, and the next message is read as usual.
    * The lifecycle, as the LSP specification has it: before ``initialize`` a request
      is answered ``ServerNotInitialized`` (-32002) and a notification other than
      ``exit`` is dropped; a second ``initialize`` and any request after ``shutdown``
      are answered ``InvalidRequest`` (-32600), never left unanswered.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initialize_received = False

    def receive(self, body: bytes) -> None:
        """Handle one message body as the transport cut it out; never raises an
        ``Exception`` (``SystemExit`` ends the server on ``exit``)."""
        try:
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as error:
                self._refuse_undecodable(body, error)
                return
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as error:
                self._answer(None, JsonRpcParseError(f"Parse error: {_one_line(error)}"))
                return
            if not _is_message(data):
                self._refuse_invalid(data)
                return
            if not self._in_turn(data):
                return
            self.handle_message(self.structure_message(data))
        except JsonRpcException as error:  # a notification pygls could not deserialise
            logger.warning("Dropped a notification: %s", error.message)
            self._server._report_server_error(error, JsonRpcException)
        except BrokenPipeError:
            raise
        except Exception:
            logger.exception("Handling a message failed")

    def _refuse_undecodable(self, body: bytes, error: UnicodeDecodeError) -> None:
        reason = f"the message is not valid UTF-8 (byte {error.start} of {len(body)})"
        try:  # the id, if the rest of the message can be read
            data = json.loads(body.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            data = None
        msg_id = _message_id(data)
        if isinstance(data, dict) and isinstance(data.get("method"), str):
            if msg_id is None:
                logger.warning("Dropped a %r notification: %s", data["method"], reason)
                return
            logger.warning("Answered request %r: %s", msg_id, reason)
        elif msg_id is not None and msg_id in self._request_futures:
            # The client's answer to a request of ours: fail that request, or it waits forever.
            self._request_futures.pop(msg_id).set_exception(JsonRpcParseError(reason))
            logger.warning("The client's response to %r: %s", msg_id, reason)
            return
        self._answer(msg_id, JsonRpcParseError(f"Parse error: {reason}"))

    def _refuse_invalid(self, data: Any) -> None:
        msg_id = _message_id(data)
        if msg_id is None and isinstance(data, dict) and isinstance(data.get("method"), str):
            logger.warning("Dropped a %r notification that is not JSON-RPC 2.0", data["method"])
            return
        self._answer(msg_id, JsonRpcInvalidRequest("Invalid request: not a JSON-RPC 2.0 message"))

    def _answer(self, msg_id: int | str | None, error: JsonRpcException) -> None:
        """Answer request ``msg_id`` (``None``: one whose id is unknown) with ``error``."""
        if msg_id is None:  # pygls would leave the null id out; JSON-RPC wants it there
            logger.warning("Answered a message with id null: %s", error.message)
            error_object = {"code": error.code, "message": error.message}
            self._send_data({"jsonrpc": "2.0", "id": None, "error": error_object})
        else:
            self._send_response(msg_id, None, error.to_response_error())

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if not _is_request(data):
                raise  # a notification has no one to answer: pygls reports it
            if isinstance(error.__cause__, ClassValidationError):
                details = "; ".join(transform_error(error.__cause__, path="$.params"))
                error = JsonRpcInvalidParams(f"Invalid params for {data['method']}: {details}")
            logger.warning("Answered request %r with %s", data.get("id"), error.message)
            self._answer(_message_id(data), error)
            return _ANSWERED

    def _in_turn(self, data: dict[str, Any]) -> bool:
        """Whether a message may be handled now (before its params are deserialised: a
        request before ``initialize`` is ``ServerNotInitialized`` whatever its params)."""
        method = data.get("method")
        if method is None:  # a response
            return True
        if "id" not in data:  # a notification
            if method == types.EXIT or self.initialize_received:
                return True
            logger.warning("Dropped a %r notification sent before initialize", method)
            return False
        refusal: JsonRpcException | None = None
        if not self.initialize_received and method != types.INITIALIZE:
            refusal = JsonRpcServerNotInitialized(
                f"Server not initialized: {method} before initialize"
            )
        elif self.initialize_received and method == types.INITIALIZE:
            refusal = JsonRpcInvalidRequest("Invalid request: initialize was already sent")
        elif self._shutdown:
            refusal = JsonRpcInvalidRequest(f"Invalid request: {method} after shutdown")
        if refusal is None:
            return True
        logger.warning("Answered request %r: %s", data["id"], refusal.message)
        self._answer(_message_id(data), refusal)
        return False

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(
        self, params: types.DidChangeNotebookDocumentParams
    ) -> Any:
        """pygls' handler, given each changed cell's whole new text: pygls applies a
        cell's ranged change as a whole-text one when the sync kind is *full* (and the
        notebook sync has no kind of its own: clients send ranges), so the ranges are
        applied here first, on LSP lines (:func:`_applied`)."""
        cells = params.change.cells
        if cells is not None and cells.text_content:
            opened = {
                cell.uri: cell.text
                for cell in (cells.structure.did_open or [] if cells.structure else [])
            }
            for content in cells.text_content:
                uri = content.document.uri
                try:
                    text = opened.get(uri)
                    if text is None:
                        text = self.workspace.get_text_document(uri).source
                    codec = self.workspace.position_codec
                    for change in content.changes:
                        text = _applied(text, change, codec)
                except Exception:  # a cell the notebook never opened: pygls' business
                    logger.warning("A change to unknown notebook cell %s", uri)
                    continue
                content.changes = [types.TextDocumentContentChangeWholeDocument(text=text)]
        return (yield from super().lsp_notebook_document__did_change(params))

    def handle_message(self, message: Any) -> None:
        if message is _ANSWERED:
            return
        if getattr(message, "method", None) == types.INITIALIZE and hasattr(message, "id"):
            self.initialize_received = True
        super().handle_message(message)


def _is_request(data: dict[str, Any]) -> bool:
    return "jsonrpc" in data and "id" in data and "method" in data


def _is_message(data: Any) -> bool:
    """Whether ``data`` has a JSON-RPC 2.0 message's shape (its params are pygls' business)."""
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        return False
    if "method" in data:
        return isinstance(data["method"], str)
    return "id" in data and ("result" in data or "error" in data)


def _message_id(data: Any) -> int | str | None:
    """The id of a (possibly malformed) message, if it has a usable one."""
    msg_id = data.get("id") if isinstance(data, dict) else None
    if isinstance(msg_id, bool) or not isinstance(msg_id, int | str):
        return None
    return msg_id


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


# ------------------------------------------------------------------ positions


class _LineIndex:
    """Rows and offsets of one text, in LSP's lines (``\\n``, ``\\r\\n``, ``\\r`` end a line)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.starts = [0, *(match.end() for match in _LINE_BREAK.finditer(source))]

    def line_text(self, line: int) -> str:
        """Line ``line`` (0-based) without its line break."""
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.source)
        text = self.source[start:end]
        return text.rstrip("\r\n") if line + 1 < len(self.starts) else text

    def location(self, location: Location, codec: PositionCodec) -> types.Position:
        """A toolret location (1-based row, 1-based code-point column) as an LSP position."""
        line = min(max(location.row - 1, 0), len(self.starts) - 1)
        text = self.line_text(line)
        return types.Position(line, codec.client_num_units(text[: max(location.column - 1, 0)]))

    def to_offset(self, position: types.Position, codec: PositionCodec) -> int:
        """An LSP position as a code-point offset into the text (clamped to the text)."""
        if position.line >= len(self.starts):
            return len(self.source)
        start = self.starts[position.line]
        units = 0
        for at, char in enumerate(self.line_text(position.line)):
            if units >= position.character:
                return start + at
            units += codec.client_num_units(char)
        return start + len(self.line_text(position.line))

    def offset(self, offset: int, codec: PositionCodec) -> types.Position:
        """A code-point offset into the text as an LSP position."""
        line = bisect.bisect_right(self.starts, offset) - 1
        return types.Position(line, codec.client_num_units(self.source[self.starts[line] : offset]))


def text_edits(old: str, new: str, codec: PositionCodec) -> list[types.TextEdit]:
    """Small edits that turn ``old`` into ``new`` (positions in ``old``, LSP's rules).

    The common prefix and suffix are never touched; what lies between is diffed
    character by character when it is short, so a fix that wraps a value in
    ``str(...)`` arrives as two insertions rather than a rewrite of the line.
    """
    if old == new:
        return []
    prefix = _common_prefix(old, new)
    suffix = _common_prefix(old[prefix:][::-1], new[prefix:][::-1])
    old_end, new_end = len(old) - suffix, len(new) - suffix
    spans: list[tuple[int, int, str]]
    if (old_end - prefix) + (new_end - prefix) <= _DIFF_WINDOW:
        matcher = difflib.SequenceMatcher(None, old[prefix:old_end], new[prefix:new_end], False)
        spans = [
            (prefix + i1, prefix + i2, new[prefix + j1 : prefix + j2])
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag != "equal"
        ]
    else:
        spans = [(prefix, old_end, new[prefix:new_end])]
    index = _LineIndex(old)
    edits = []
    for start, end, text in spans:
        # Never split a \r\n: a position between its halves is not a position in LSP.
        if 0 < start < len(old) and old[start - 1] == "\r" and old[start] == "\n":
            start, text = start - 1, "\r" + text
        if 0 < end < len(old) and old[end - 1] == "\r" and old[end] == "\n":
            end, text = end + 1, text + "\n"
        edits.append(
            types.TextEdit(
                range=types.Range(index.offset(start, codec), index.offset(end, codec)),
                new_text=text,
            )
        )
    return edits


def _applied(text: str, change: types.TextDocumentContentChangeEvent, codec: PositionCodec) -> str:
    """``text`` with one content change applied (a range: on LSP lines)."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return change.text
    index = _LineIndex(text)
    start = index.to_offset(change.range.start, codec)
    end = max(index.to_offset(change.range.end, codec), start)
    return text[:start] + change.text + text[end:]


def _common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix (by halving: slices compare in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _overlaps(a: types.Range, b: types.Range) -> bool:
    a_start, a_end = (a.start.line, a.start.character), (a.end.line, a.end.character)
    b_start, b_end = (b.start.line, b.start.character), (b.end.line, b.end.character)
    return a_start <= b_end and b_start <= a_end


def _wants(only: Sequence[str] | None, kind: str) -> bool:
    """Whether a code-action request restricted to ``only`` kinds asks for ``kind``."""
    if not only:
        return True
    return any(kind == wanted or kind.startswith(f"{wanted}.") for wanted in only)


# ------------------------------------------------------------------ per-document state


@dataclass
class _Document:
    """What the server knows about one document."""

    source: str | None = None
    """The text ``findings`` were computed from (``None``: not checked yet)."""
    version: int | None = None
    generation: int = -1
    """The settings/facts generation ``findings`` were computed with."""
    parsed: bool = True
    """Whether ``source`` parsed; if not, ``shown`` still holds an older text's findings."""
    findings: list[tuple[Diagnostic, types.Diagnostic]] = field(default_factory=list)
    """toolret's diagnostics of ``source`` and their LSP form (when ``parsed``)."""
    shown: list[types.Diagnostic] = field(default_factory=list)
    result_id: str = ""
    """Pull mode: changes whenever ``shown`` does."""
    applied_serial: int = -1
    pending: asyncio.Task[None] | None = None
    """Push mode: the debounced check waiting to publish."""


_Cells = tuple[tuple[str, str, str], ...]
"""A notebook's cells as synced: (cell URI, ``"code"`` or ``"markdown"``, text)."""


@dataclass
class _NotebookState:
    """What the server knows about one notebook document."""

    cells: _Cells | None = None
    """The cells ``notebook`` was built from (``None``: not checked yet)."""
    notebook: Notebook | None = None
    generation: int = -1
    findings: dict[str, list[tuple[Diagnostic, types.Diagnostic]]] = field(default_factory=dict)
    """Cell URI → toolret's diagnostics of the module (module rows, for fixes) and their
    LSP form in the cell."""
    shown: dict[str, list[types.Diagnostic]] = field(default_factory=dict)
    result_id: str = ""
    applied_serial: int = -1
    published: set[str] = field(default_factory=set)
    """Push mode: the cells that were sent diagnostics (cleared when they go)."""
    pending: asyncio.Task[None] | None = None


# ------------------------------------------------------------------ the server


class ToolretLanguageServer(LanguageServer):
    """The toolret language server. ``start_io()`` serves one client on stdin/stdout."""

    def __init__(self, *, debounce: float = DEBOUNCE_SECONDS) -> None:
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
        self.debounce = debounce
        self.pull_diagnostics = False
        """Whether the client pulls diagnostics (decided at ``initialize``)."""
        self._refresh_support = False
        self._document_changes = False
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
        # caches are only ever touched from that thread.
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolret-check")
        self._tasks: set[asyncio.Task[None]] = set()
        # Cross-file facts: each indexed file's stamp and facts, and the index built
        # from them (worker thread only).
        self._facts: dict[str, tuple[tuple[int, int], ModuleFacts]] = {}
        self._index_roots: tuple[Path, ...] = ()
        self._indexing = False
        """A build is under way (worker thread): a re-index reads facts, the build derives."""
        self._build = 0
        """The latest build started (event loop): an older one stops at its next slice."""
        self._register_features()
        self.exit_code = 1
        """The process's exit code once :meth:`start_io` returns (0: ``shutdown``, then the end)."""

    # -- transport ----------------------------------------------------------

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

    # -- features -----------------------------------------------------------

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
                resolve_provider=False,
            ),
        )
        on(types.SHUTDOWN, self._shutdown)

    def _initialize(self, params: types.InitializeParams) -> None:
        capabilities = params.capabilities
        text_document = capabilities.text_document
        workspace = capabilities.workspace
        self.pull_diagnostics = text_document is not None and text_document.diagnostic is not None
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

    def _did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        self._documents[uri] = _Document()
        self._schedule(uri, 0.0)

    def _did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        self._schedule(params.text_document.uri, self.debounce)

    def _did_save(self, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if _file_name(uri) in CONFIG_FILENAMES:
            self._invalidate(settings=True)
        elif _file_name(uri).endswith(_FACT_SUFFIXES):
            self._invalidate(settings=False)
        elif _file_name(uri).endswith(_PYTHON_SUFFIXES):
            self._spawn(self._reindex([uri]))
        self._schedule(uri, 0.0)

    def _did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        self._spawn(self._release(uri))
        state = self._documents.pop(uri, None)
        if state is not None and state.pending is not None:
            state.pending.cancel()
        if not self.pull_diagnostics:
            self._publish(uri, [], None)

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
        if not self.pull_diagnostics:
            cells = {cell.uri for cell in params.cell_text_documents}
            for uri in sorted(cells | (state.published if state is not None else set())):
                self._publish(uri, [], None)

    def _did_change_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        names = [_file_name(change.uri) for change in params.changes]
        if any(name in CONFIG_FILENAMES for name in names):
            self._invalidate(settings=True)
        elif any(name.endswith(_FACT_SUFFIXES) for name in names):
            self._invalidate(settings=False)
        python = [c.uri for c in params.changes if _file_name(c.uri).endswith(_PYTHON_SUFFIXES)]
        if python:
            self._spawn(self._reindex(python))

    def _did_change_folders(self, params: types.DidChangeWorkspaceFoldersParams) -> None:
        self._spawn(self._index_workspace())  # pygls has updated ``workspace.folders``

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
        if _wants(only, FIX_ALL_KIND) and any(
            fixes.is_applicable(finding) for finding, _ in state.findings
        ):
            fixed = await self._run(self._fix_all, uri, source)
            if fixed != source and _source_of(self.workspace.get_text_document(uri)) == source:
                actions.append(
                    types.CodeAction(
                        title=f"{SOURCE}: Fix all auto-fixable problems",
                        kind=FIX_ALL_KIND,
                        edit=self._workspace_edit(document, text_edits(source, fixed, codec)),
                    )
                )
        return actions

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
        if _wants(only, FIX_ALL_KIND) and any(
            fixes.is_applicable(finding)
            for found in state.findings.values()
            for finding, _ in found
        ):
            fixed = await self._run(self._fix_all, notebook_uri, module)
            edit = self._cells_edit(state, fixed) if fixed != module else None
            if edit is not None and self._cells_of(notebook_uri) == state.cells:
                actions.append(
                    types.CodeAction(
                        title=f"{SOURCE}: Fix all auto-fixable problems",
                        kind=FIX_ALL_KIND,
                        edit=edit,
                    )
                )
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

    def _shutdown(self, params: None) -> None:
        pending = [state.pending for state in self._documents.values()]
        pending += [state.pending for state in self._notebooks.values()]
        for task in pending:
            if task is not None:
                task.cancel()
        for task in self._tasks:
            task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- checking -----------------------------------------------------------

    async def _current(self, uri: str) -> _Document | None:
        """The document's state, checked for its current text (``None``: not Python)."""
        document = self.workspace.get_text_document(uri)
        try:
            source = _source_of(document)
        except Exception:  # not open, and not a file on disk (or no path at all)
            return None
        if not _is_python(document):
            return None
        state = self._documents.get(uri) or _Document()
        generation = self._generation
        if state.source == source and state.generation == generation:
            return state
        self._serial += 1
        serial = self._serial
        found = await self._run(self._check, uri, source)
        self._recheck_readers(exclude=uri)
        if serial < state.applied_serial:
            return state  # a newer text was checked meanwhile
        state.applied_serial = serial
        state.source, state.version, state.generation = source, document.version, generation
        if any(finding.code == ParseError.code for finding in found):
            state.parsed = False  # keep showing the last good findings
            return state
        state.parsed = True
        index = _LineIndex(source)
        codec = document.position_codec
        state.findings = [(finding, _to_lsp(finding, index, codec)) for finding in found]
        shown = [lsp for _, lsp in state.findings]
        if shown != state.shown or not state.result_id:
            state.shown = shown
            state.result_id = str(serial)
        return state

    # -- notebooks ------------------------------------------------------------

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
        notebook, found = await self._run(self._check_notebook, uri, cells)
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

    def _check_notebook(self, uri: str, cells: _Cells) -> tuple[Notebook | None, list[Diagnostic]]:
        """Runs on the worker thread: the module of the code cells, checked as one."""
        try:
            notebook = from_cells([(kind, text) for _, kind, text in cells])
        except NotebookError:
            logger.exception("Reading notebook %s failed", uri)
            return None, []
        if not notebook.cells:
            return notebook, []
        return notebook, self._check(uri, notebook.python_source)

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

    async def _run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` on the worker thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function, *args)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the project index ----------------------------------------------------

    async def _index_workspace(self) -> None:
        self._build += 1
        build = self._build
        try:
            folders = [to_fs_path(f.uri) for f in self.workspace.folders.values()]
            roots = tuple(
                [Path(f) for f in folders if f]
                or ([Path(self.workspace.root_path)] if self.workspace.root_path else [])
            )
            first = self._project.index is None
            files = await self._run(self._start_build, roots)
            while True:
                await self._checks_first()
                if build != self._build:
                    return  # a newer build (workspace folders changed) took over
                if await self._run(self._index_slice, files):
                    break
            if await self._run(self._finish_build, roots) or (first and self._documents):
                # The open documents were checked without the index so far: again with it.
                self._invalidate(settings=False, delay=0.0)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Indexing the workspace failed")
            if build == self._build:
                self._indexing = False

    async def _checks_first(self) -> None:
        """Wait for the first check of the documents opened meanwhile (push mode): their
        same-file diagnostics are published before the next slice of indexing."""
        waiting = [
            state.pending
            for state in self._documents.values()
            if state.source is None and state.pending is not None and not state.pending.done()
        ]
        if waiting:
            await asyncio.wait(waiting)

    async def _reindex(self, uris: list[str]) -> None:
        try:
            paths = [path for path in map(_path_of, uris) if path]
            if not paths:
                return
            open_paths = {uri: _path_of(uri) for uri in self._documents}
            changed = await self._run(self._update_index, paths, set(open_paths.values()))
            stale = [uri for uri, path in open_paths.items() if path in changed]
            if stale:
                self._invalidate(settings=False, uris=stale)
            await self._run(self._forget_summaries, paths)
            self._recheck_readers()
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Updating the project index failed")

    def _start_build(self, roots: tuple[Path, ...]) -> Iterator[str]:
        """Worker thread: begin indexing ``roots``; the files to read, for :meth:`_index_slice`."""
        self._indexing = True
        for path in list(self._facts):  # a folder was removed from the workspace
            if not any(root in Path(path).parents for root in roots):
                del self._facts[path]
        return self._index_files(roots)

    def _index_files(self, roots: tuple[Path, ...]) -> Iterator[str]:
        """Every Python file of ``roots`` (discovered lazily, on the worker thread)."""
        for root in roots:
            try:
                files = discover([root], settings_for=self._resolver, force_exclude=True)
                for count, found in enumerate(files):
                    if count == _INDEX_LIMIT:
                        logger.warning("Indexed the first %d files of %s only", count, root)
                        break
                    yield os.path.abspath(found)
            except (OSError, ValueError, DiscoveryError, ConfigError):
                logger.warning("Could not index %s", root, exc_info=True)

    def _index_slice(self, files: Iterator[str]) -> bool:
        """Worker thread: read facts for :data:`_INDEX_SLICE` seconds; whether all are read."""
        deadline = time.monotonic() + _INDEX_SLICE
        for path in files:
            try:
                self._read_facts(path)
            except (OSError, ValueError, DiscoveryError, ConfigError):
                logger.warning("Could not index %s", path, exc_info=True)
            if time.monotonic() >= deadline:
                return False
        return True

    def _finish_build(self, roots: tuple[Path, ...]) -> bool:
        """Worker thread: derive the index of ``roots``; whether facts were found."""
        self._index_roots = roots
        self._indexing = False
        return self._rebuild_index()

    def _forget_summaries(self, paths: list[str]) -> None:
        """Worker thread: files changed on disk; their summaries are read again."""
        self._summaries.refresh()
        self._replaced |= self._summaries.changed | set(paths)
        self._summaries.changed.clear()

    def _update_index(self, paths: list[str], open_paths: set[str]) -> set[str]:
        """Worker thread: re-read the facts of ``paths`` and update the index with those
        that changed (only what they can affect is derived again); the ``open_paths``
        whose view of the index (:meth:`ProjectIndex.view`) changed."""
        if self._indexing:  # the build's end derives the index from these facts too
            for path in paths:
                self._read_facts(path)
            return set()
        if not self._index_roots:
            return set()
        index = self._project.index
        if index is None:  # the build failed: try again from the facts read
            for path in paths:
                self._read_facts(path)
            return open_paths if self._rebuild_index() else set()
        views = {path: index.view(path) for path in open_paths if path}
        for path in paths:
            before = self._facts.get(path)
            self._read_facts(path)
            after = self._facts.get(path)
            if after is not before:  # created, deleted or changed on disk
                index.update(path, None if after is None else after[1])
        return {path for path, view in views.items() if index.view(path) != view}

    async def _release(self, uri: str) -> None:
        """A closed document is what its file says again: for the modules that read it."""
        path = _path_of(uri)
        if path:
            await self._run(self._release_summary, path)
            self._recheck_readers()

    def _release_summary(self, path: str) -> None:
        self._summaries.release(path)
        self._deps.pop(path, None)
        self._replaced |= self._summaries.changed
        self._summaries.changed.clear()

    def _recheck_readers(self, exclude: str | None = None) -> None:
        """Check again the open documents whose last check read the summary of a module
        that a check, a closed buffer or a change on disk has replaced since."""
        replaced, self._replaced = self._replaced, set()
        if not replaced:
            return
        stale = [
            uri
            for uri in self._documents
            if uri != exclude and self._deps.get(_path_of(uri), frozenset()) & replaced
        ]
        if stale:
            self._invalidate(settings=False, uris=stale)

    def _read_facts(self, path: str) -> None:
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_size)
            known = self._facts.get(path)
            if known is not None and known[0] == stamp:
                return
            data = read_regular(path)  # a FIFO or device named *.py never blocks the server
        except OSError:  # deleted, or unreadable: no facts
            self._facts.pop(path, None)
            return
        self._facts[path] = (stamp, _module_facts(path, data, self._project))

    def _rebuild_index(self) -> bool:
        """Derive the index from the facts read; whether any file names another."""
        index = ProjectIndex(
            roots=self._index_roots,
            # A file a fact names is parsed in full, whatever its bytes hold.
            extract=lambda path, data: _module_facts(path, data, self._project, named=True),
        )
        for path, (_, facts) in self._facts.items():
            index.add(path, facts)
        index.finish()
        had_facts = self._project.index is not None and self._project.index.has_cross_facts
        self._project.index = index
        return index.has_cross_facts or had_facts

    def _check(self, uri: str, source: str) -> list[Diagnostic]:
        """Runs on the worker thread: settings, exclusion, the engine; never raises."""
        path = _path_of(uri)
        try:
            settings = self._settings_for(path)
            if path and _is_excluded(path, self._resolver):
                return []
            self._summaries.refresh()
            adopted = self._summaries.adoptions.get(path)
            found = check_source(source, path, settings, self._project)
            if path and self._summaries.adoptions.get(path) == adopted:
                # No family parsed it (no signal): other modules still see this text.
                self._summaries.adopt(path, cpython_tree_quietly(source))
            self._deps[path] = frozenset(self._summaries.take_deps(path))
            self._replaced |= self._summaries.changed
            self._summaries.changed.clear()
            return fixes.without_unfixable(settings, found)  # ``unfixable``: no quick fix
        except ConfigError as error:
            return [_engine_diagnostic(path, error.summary)]
        except Exception as error:
            logger.exception("Checking %s failed", uri)
            return [_engine_diagnostic(path, f"Internal error in toolret: {error!r}")]

    def _fix_all(self, uri: str, source: str) -> str:
        """Runs on the worker thread: ``source`` with every safe fix applied."""
        path = _path_of(uri)
        try:
            settings = self._settings_for(path)

            def check(text: str) -> list[Diagnostic]:
                found = check_source(text, path, settings, self._project)
                return fixes.without_unfixable(settings, found)

            return fixes.fix_source(source, check).source
        except Exception:
            logger.exception("Fixing %s failed", uri)
            return source

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

    # -- publishing -----------------------------------------------------------

    def _schedule(self, uri: str, delay: float) -> None:
        """Push mode: check ``uri`` after ``delay`` seconds of quiet, then publish."""
        state = self._documents.get(uri)
        if self.pull_diagnostics or state is None:
            return
        if state.pending is not None:
            state.pending.cancel()
        state.pending = asyncio.get_running_loop().create_task(self._publish_later(uri, delay))

    async def _publish_later(self, uri: str, delay: float) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            state = await self._current(uri)
            if state is not None and self._documents.get(uri) is state:
                self._publish(uri, state.shown, state.version)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("Publishing diagnostics for %s failed", uri)

    def _publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

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


# ------------------------------------------------------------------ helpers


def _chunk_reader(stream: BinaryIO) -> Callable[[], bytes]:
    """A function returning the next bytes of ``stream`` as soon as any arrive (``b""``: its end).

    The file descriptor is read directly where there is one: a thread blocked in a
    buffered reader holds its lock, which the interpreter would wait for at exit.
    """
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is both
        read1 = getattr(stream, "read1", None)
        if callable(read1):
            return lambda: bytes(read1(_READ_SIZE))
        return stream.readline
    return lambda: os.read(fd, _READ_SIZE)


def _path_of(uri: str) -> str:
    """The file system path of a ``file:`` URI; ``""`` for an unsaved buffer."""
    if not uri.startswith("file:"):
        return ""
    return to_fs_path(uri) or ""


def _source_of(document: TextDocument) -> str:
    """The document's text as it would be saved: a lone surrogate (JSON can carry one,
    and an editor's UTF-16 buffer can hold one) becomes U+FFFD, as a UTF-8 encoder
    writes it. One code point and one UTF-16 unit for another: no position moves.
    """
    return _SURROGATE.sub("\ufffd", document.source)


def _file_name(uri: str) -> str:
    return uri.rstrip("/").rsplit("/", 1)[-1]


def _is_python(document: TextDocument) -> bool:
    if document.language_id is not None:
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
    """A file's index facts, as ``toolret check`` gathers them: parsed only when its
    bytes can hold an ``Agent(...)`` fact, or when another file's fact ``named`` it."""
    if not named and not wants_facts(data):
        return EMPTY_FACTS
    from lint_rules.frameworks.index_facts import extract

    return extract(path, data, project)


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


# ------------------------------------------------------------------ entry point


def main() -> None:
    """``toolret lsp``: serve the language server on stdin/stdout until the client exits."""
    logging.basicConfig(
        stream=sys.stderr,  # stdout carries the protocol
        level=logging.WARNING,
        format="toolret lsp: %(levelname)s %(name)s: %(message)s",
    )
    server = ToolretLanguageServer()
    server.start_io()
    sys.exit(server.exit_code)


if __name__ == "__main__":
    main()
