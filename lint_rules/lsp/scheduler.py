"""Where the server's checks run: off the event loop, and never holding up what is small.

Two places, chosen by the size of the text:

* :class:`Worker` — one daemon thread that runs jobs in order. The resolver's, the
  project's and the summaries' caches are only ever touched from it, so they need no
  locks. A job whose caller gave up before it started (a superseded check, a closed
  document) is skipped. Being a daemon, it never keeps the process alive after
  ``exit``: a check under way is abandoned, not waited for.
* :class:`Isolated` — a child process (``python -m lint_rules.lsp.child``) per check of
  a document of :data:`ISOLATE_CHARS` or more. LibCST's parser holds the GIL for
  seconds on a large module (about 5 s at a time for 1 MB), which in one process
  would stall the event loop and every other document with it; in a child it stalls
  nothing. A child is killed when its check is superseded (a newer text of the same
  document), when the caller is cancelled, and at ``shutdown`` or ``exit``: a check is
  cancellable wherever it is. The child gets the settings, the project index and the
  text, pickled; it reads other modules' summaries from disk (an isolated check does
  not see another open document's unsaved buffer).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import queue
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lint_rules.analysis.index import ProjectIndex
from lint_rules.config import Settings
from lint_rules.model import Diagnostic

__all__ = [
    "ISOLATE_CHARS",
    "Isolated",
    "IsolatedError",
    "IsolatedRequest",
    "IsolatedResult",
    "Worker",
]

ISOLATE_CHARS = 128 * 1024
"""A document at least this long is checked (and fixed) in a child process. LibCST
parses about 100 KB a second here, holding the GIL for most of it: below this size a
check stalls the loop for well under a second, above it the child's start (about half
a second) is the smaller cost."""


class Worker:
    """A daemon thread running jobs one at a time, in the order they were asked for."""

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` on the worker thread; cancelling the caller before the job
        starts drops it."""
        if self._closed:
            raise asyncio.CancelledError
        job = _Job(function, args, asyncio.get_running_loop())
        self._jobs.put(job)
        try:
            return await job.future
        except asyncio.CancelledError:
            job.dropped = True
            raise

    def shutdown(self) -> None:
        """No more jobs: those queued are dropped; the one running is abandoned."""
        self._closed = True
        self._jobs.put(None)

    def _serve(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None or self._closed:
                return
            if job.dropped:
                continue
            try:
                result = job.function(*job.args)
            except BaseException as error:  # handed to the caller, whatever it is
                job.settle(None, error)
            else:
                job.settle(result, None)


@dataclass(eq=False)
class _Job:
    function: Callable[..., Any]
    args: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    dropped: bool = False
    """The caller gave up (read by the worker: a plain flag, set once)."""

    def __post_init__(self) -> None:
        self.future: asyncio.Future[Any] = self.loop.create_future()

    def settle(self, result: Any, error: BaseException | None) -> None:
        """From the worker thread: the outcome, handed to the loop."""

        def set_outcome() -> None:
            if self.future.done():
                return  # the caller was cancelled meanwhile
            if error is not None:
                self.future.set_exception(error)
            else:
                self.future.set_result(result)

        with contextlib.suppress(RuntimeError):  # the loop is closed: the server is exiting
            self.loop.call_soon_threadsafe(set_outcome)


@dataclass(frozen=True)
class IsolatedRequest:
    """What a child process needs for one check or fix-all."""

    kind: str
    """``"check"``: the diagnostics; ``"fix"``: the text with every safe fix applied."""
    path: str
    source: str
    settings: Settings
    index: ProjectIndex | None


@dataclass(frozen=True)
class IsolatedResult:
    """A child's answer: ``diagnostics`` for a check (with the modules whose summaries it
    read, ``deps``), ``source`` for a fix-all."""

    diagnostics: list[Diagnostic]
    deps: frozenset[str]
    source: str | None = None


class IsolatedError(Exception):
    """A child process died or answered something other than a result."""


class Isolated:
    """Checks in child processes, each cancellable by killing it (see the module's doc)."""

    def __init__(self) -> None:
        self._running: dict[object, asyncio.subprocess.Process] = {}
        self.closed = False
        """After :meth:`shutdown`: every run answers ``None`` at once."""

    async def run(self, key: object, request: bytes) -> IsolatedResult | None:
        """Run the pickled :class:`IsolatedRequest` in a new child; ``None`` when it was
        superseded (another run with the same ``key`` started) or killed by
        :meth:`shutdown`. Cancelling the caller kills the child; a child that fails
        raises :class:`IsolatedError`."""
        self.cancel(key)
        if self.closed:
            return None
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "lint_rules.lsp.child",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )  # its stderr is the server's: a traceback there reaches the client's log
        if self.closed:  # shut down while it started
            _kill(process)
            await process.wait()
            return None
        self._running[key] = process
        try:
            output, _ = await process.communicate(request)
        except BaseException:
            _kill(process)
            raise
        finally:
            if self._running.get(key) is process:
                del self._running[key]
        if process.returncode in (-signal.SIGKILL, -signal.SIGTERM):
            return None  # superseded, or shut down
        if process.returncode != 0:
            raise IsolatedError(f"the child process exited with {process.returncode}")
        try:
            result = pickle.loads(output)  # our own child's answer
        except Exception as error:
            raise IsolatedError(f"the child process answered garbage: {error!r}") from None
        if not isinstance(result, IsolatedResult):
            raise IsolatedError(f"the child process answered {type(result).__name__}")
        return result

    def cancel(self, key: object) -> None:
        """Kill the child running for ``key``, if any (its ``run`` returns ``None``)."""
        process = self._running.pop(key, None)
        if process is not None:
            _kill(process)

    def shutdown(self) -> None:
        """Kill every child; later runs do nothing."""
        self.closed = True
        for key in list(self._running):
            self.cancel(key)


def _kill(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    try:
        process.kill()
    except ProcessLookupError:  # it ended meanwhile
        pass
    except RuntimeError:  # the event loop is closed (the server is exiting): by its pid
        with contextlib.suppress(OSError):
            os.kill(process.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
