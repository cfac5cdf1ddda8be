"""Where the language server's checks run: nothing small waits for something large.

A large document (``scheduler.ISOLATE_CHARS`` or more) is checked in a child process:
LibCST's parser holds the GIL for seconds on it, which in the server's own process
would stall every request. These tests drive a real ``python -m lint_rules.lsp`` (the
``Server`` of ``test_lsp_protocol``) and bound what must be quick generously; they
are protocol tests, not benchmarks.
"""

from __future__ import annotations

import os
import time
from collections.abc import Set as AbstractSet
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from lint_rules.analysis.project import Project
from lint_rules.config import Settings
from lint_rules.engine import check_source
from lint_rules.lsp.child import answer
from lint_rules.lsp.scheduler import ISOLATE_CHARS, IsolatedRequest
from tests.test_lsp_protocol import SOURCE, Message, Server, codes, function_uri
from tests.test_lsp_protocol import server as server

HELPER = (
    "def helper_{n}(conv):\n"
    '    """Look the booking up."""\n'
    '    value = conv.state.get("booking_{n}")\n'
    "    if value is None:\n"
    '        return {{"content": "none"}}\n'
    "    return value\n\n\n"
)


def large(size: int, tool: str = SOURCE.format("x")) -> str:
    """A PolyAI function file of at least ``size`` characters: ``tool`` (TRV101 on row 3),
    then helpers."""
    parts, length, n = [tool, "\n\n"], len(tool) + 2, 0
    while length < size:
        part = HELPER.format(n=n)
        parts.append(part)
        length, n = length + len(part), n + 1
    return "".join(parts)


def children(pid: int) -> set[int]:
    """The server's child processes (Linux: ``/proc``), for the tests that need them."""
    if os.path.isdir(f"/proc/{pid}") and not os.path.exists(f"/proc/{pid}/task/{pid}/children"):
        pytest.skip("no /proc/PID/task/TID/children here")
    found: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as listing:
                found.update(int(child) for child in listing.read().split())
        except OSError:  # a thread that ended since the listing (asyncio's child watchers)
            continue
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def gone_within(pids: set[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.02)
    return not any(alive(pid) for pid in pids)


def started_child(
    server: Server, seconds: float = 10.0, besides: AbstractSet[int] = frozenset()
) -> set[int]:
    """The server's live child processes other than ``besides``, once there is one. A child
    that was killed stays listed (a zombie) until the server reaps it, which under load
    can take a while: it is not counted."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = {pid for pid in children(server.process.pid) - besides if alive(pid)}
        if found:
            return found
        time.sleep(0.02)
    pytest.fail(f"no child process started; stderr:\n{server.log}")


def code_action(server: Server, uri: str, diagnostic: Message) -> Message:
    return server.request(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": diagnostic["range"],
            "context": {"diagnostics": [diagnostic]},
        },
    )


def test_a_small_document_is_answered_while_a_large_one_is_checked(server: Server) -> None:
    big = (server.root / "functions" / "big.py").as_uri()
    small = function_uri(server.root)
    server.open(big, large(1_000_000))
    started_child(server)  # the large document's check is under way, in its child

    started = time.monotonic()
    server.open(small, SOURCE.format("x"))
    (diagnostic,) = server.diagnostics(small)  # not after the large check (tens of seconds)
    assert diagnostic["code"] == "TRV101"
    assert time.monotonic() - started < 5.0, "the small document waited for the large one"

    started = time.monotonic()
    answer_ = code_action(server, small, diagnostic)
    assert time.monotonic() - started < 0.5
    titles = [action["title"] for action in answer_["result"]]
    assert titles == ["toolret (TRV101): Wrap in `str()`", "Disable TRV101 for this line"]

    # ``exit`` ends the server within a second, the large check and its child with it.
    running = children(server.process.pid)
    assert server.request("shutdown").get("error") is None
    server.notify("exit")
    started = time.monotonic()
    assert server.wait() == 0, server.log
    assert time.monotonic() - started < 1.0
    assert gone_within(running, 1.0)


SLOW_CHARS = 3_000_000
"""A text whose check keeps a child busy for about ten seconds here (LibCST parses some
300 KB a second), more under load: far longer than :data:`KILLED_WITHIN`, so a child
that is gone within that was killed, not done."""

KILLED_WITHIN = 3.0
"""Seconds for a child that was sent SIGKILL to be gone (milliseconds, unloaded)."""


def test_a_newer_text_kills_the_check_of_the_older_one(server: Server) -> None:
    big = (server.root / "functions" / "big.py").as_uri()
    server.open(big, large(SLOW_CHARS))
    first = started_child(server, seconds=60.0)
    server.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": big, "version": 2},
            "contentChanges": [{"text": large(SLOW_CHARS, SOURCE.format("y"))}],
        },
    )
    # The newer text's check starts in a new child (after the debounce: whenever the
    # server gets to it), and the older child is killed as it starts, not left to finish.
    second = started_child(server, seconds=60.0, besides=first)
    assert gone_within(first, KILLED_WITHIN), "the superseded check still runs"
    assert started_child(server) == second, "more than the newer text's check runs"
    server.finish()  # shutdown and exit kill the child of the check under way
    assert gone_within(second, KILLED_WITHIN), "the check still runs after exit"


def test_a_large_document_gets_the_diagnostics_of_a_small_one(server: Server) -> None:
    big = (server.root / "functions" / "count.py").as_uri()
    text = large(ISOLATE_CHARS + 1000)
    server.open(big, text)
    diagnostics = server.receive(
        lambda m: (
            m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == big
        ),
        timeout=60,
    )["params"]["diagnostics"]
    assert codes(diagnostics) == {"TRV101"}
    (diagnostic,) = diagnostics
    assert diagnostic["range"]["start"] == {"line": 2, "character": 24}
    server.finish()


def test_the_child_answers_what_the_engine_answers(tmp_path: Path) -> None:
    path = str(tmp_path / "functions" / "count.py")
    text = large(20_000)
    expected = check_source(text, path, Settings(), Project(revalidate=False))
    assert [d.code for d in expected] == ["TRV101"]
    result = answer(IsolatedRequest("check", path, text, Settings(), None))
    assert result.diagnostics == expected
    fixed = answer(IsolatedRequest("fix", path, text, Settings(), None)).source
    assert fixed is not None and "return str(n)" in fixed and fixed.count("str(") == 1
