"""JSON-RPC framing read from stdin by the server itself: no input makes it go deaf.

pygls' reader loses framing for good on a frame without ``Content-Length``, garbage or a
length that swallows the next message; :class:`_Framer` skips such input up to the next
``Content-Length`` header and says what it skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import BinaryIO, NamedTuple

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
