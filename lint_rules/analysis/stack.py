"""Running LibCST's recursive code generation on deep-but-valid trees.

LibCST generates code (``code_for_node``, positions) by recursing once per
level of the tree, several Python frames a level: a 500-branch ``elif``
chain, a 500-line implicit string concatenation (a long ``instructions=``
prompt) or a 600-term ``a + b + …`` exceeds Python's default recursion limit
of 1,000 frames. Raising the limit for the calling thread would risk
overflowing its C stack (each frame also uses some C stack) and crashing the
process, so ``call_deep`` runs such a call again in a fresh thread given a
C stack sized for the larger limit, and raises the limit only while that
thread runs (the caller waits for it). Only calls that already failed with
``RecursionError`` pay for it; normal code never gets here.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

DEEP_RECURSION_LIMIT = 60_000
"""Python frames allowed in a deep call (a 5,000-branch ``elif`` chain needs ~30,000)."""

_DEEP_STACK_BYTES = 1024 * 1024 * 1024
"""The deep thread's C stack, reserved not committed: ~17 KiB per allowed frame, several
times what a frame takes in a release build of CPython 3.10-3.13."""

_LOCK = threading.Lock()


def call_deep(function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` with room for ``DEEP_RECURSION_LIMIT`` frames.

    Raises what ``function`` raises (``RecursionError`` if even that is not
    enough), or ``RecursionError`` when no such thread can be started.
    """
    outcome: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(function(*args))
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    with _LOCK:  # the stack size and the recursion limit are process-wide
        try:
            previous_size = threading.stack_size(_DEEP_STACK_BYTES)
        except (ValueError, RuntimeError) as error:  # a platform without the setting
            raise RecursionError(f"no deep stack: {error}") from None
        try:
            thread = threading.Thread(target=target, name="toolret-deep", daemon=True)
            previous_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(previous_limit, DEEP_RECURSION_LIMIT))
            try:
                thread.start()
                thread.join()
            finally:
                sys.setrecursionlimit(previous_limit)
        except RuntimeError as error:  # the thread could not be started (memory)
            raise RecursionError(f"no deep stack: {error}") from None
        finally:
            threading.stack_size(previous_size)
    if failure:
        raise failure[0]
    return outcome[0]


def deep_if_needed(function: Callable[..., T], *args: object) -> T:
    """``function(*args)``, run again by ``call_deep`` if it ran out of recursion."""
    try:
        return function(*args)
    except RecursionError:
        return call_deep(function, *args)
