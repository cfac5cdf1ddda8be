"""The language server at the protocol edges: malformed frames, bad bytes, requests out of turn.

Each test drives a real ``python -m lint_rules.lsp`` process over pipes and writes raw
bytes, as a buggy or unlucky client would. Whatever it is sent, the server either keeps
serving (it answers a following ``shutdown``, then exits 0 on ``exit``) or exits with a
message on stderr: it never stays alive and deaf. Every read has a timeout, so a server
that stops answering fails its test instead of hanging the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from lint_rules.lsp import _Framer

TIMEOUT = 10.0
"""Seconds to wait for one answer (the server starts in about one)."""

# A PolyAI function returning an int: TRV101 on row 3.
SOURCE = 'def count(conv):\n    n = 1\n    label = "{}"; return n\n'

Message = dict[str, Any]


def frame(message: Message | None = None, *, body: bytes | None = None) -> bytes:
    if body is None:
        body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Server:
    """A ``toolret lsp`` process and the messages it wrote, read on a thread."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lint_rules.lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONFAULTHANDLER": "1"},  # SIGABRT dumps every thread
        )
        self.messages: queue.Queue[Message | None] = queue.Queue()
        self.stderr: list[bytes] = []
        self.seen: list[Message] = []
        """Every message received so far."""
        self._next_id = 1000
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stdout(self) -> None:
        """Parse the server's frames strictly: a bad frame from the server is a failure."""
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                headers = {}
                while True:
                    line = stdout.readline()
                    if not line:
                        return
                    if line == b"\r\n":
                        break
                    assert line.endswith(b"\r\n"), line
                    name, _, value = line[:-2].partition(b": ")
                    headers[name.lower()] = value
                body = stdout.read(int(headers[b"content-length"]))
                self.messages.put(json.loads(body.decode("utf-8")))
        finally:
            self.messages.put(None)

    def _read_stderr(self) -> None:
        stderr = self.process.stderr
        assert stderr is not None
        for line in stderr:
            self.stderr.append(line)

    @property
    def log(self) -> str:
        return b"".join(self.stderr).decode("utf-8", "replace")

    def write(self, data: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(data)
        stdin.flush()

    def send(self, message: Message) -> None:
        self.write(frame(message))

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any = None) -> Message:
        """Send a request and return its response (result or error)."""
        self._next_id += 1
        msg_id = self._next_id
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return self.receive(lambda m: m.get("id") == msg_id and "method" not in m)

    def receive(self, wanted: Callable[[Message], bool], timeout: float = TIMEOUT) -> Message:
        """The next message satisfying ``wanted`` (others are skipped); fails on a timeout."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                message = self.messages.get(timeout=max(left, 0))
            except queue.Empty:
                pytest.fail(f"no answer within {timeout} s; stderr:\n{self.log}")
            if message is None:
                code = self.process.wait(1)
                pytest.fail(f"the server closed stdout (exit code {code}); stderr:\n{self.log}")
            self.seen.append(message)
            if wanted(message):
                return message

    def probe(self, after: str = "") -> None:
        """The server still reads: a request for an unknown method is answered as one."""
        answer = self.request("toolret/probe", {})
        assert answer.get("error", {}).get("code") == -32601, (after, answer)

    def initialize(self) -> None:
        answer = self.request(
            "initialize", {"capabilities": {}, "rootUri": self.root.as_uri(), "processId": None}
        )
        assert "capabilities" in answer["result"], answer
        self.notify("initialized", {})

    def open(self, uri: str, text: str, language: str = "python") -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}},
        )

    def diagnostics(self, uri: str) -> list[Message]:
        published = self.receive(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
            )
        )
        return list(published["params"]["diagnostics"])

    def finish(self) -> None:
        """The server still serves: ``shutdown`` is answered, and ``exit`` ends it with 0."""
        answer = self.request("shutdown")
        assert answer.get("result", "missing") is None and "error" not in answer, answer
        self.notify("exit")
        assert self.wait() == 0, self.log

    def wait(self, timeout: float = TIMEOUT) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            if hasattr(signal, "SIGABRT"):  # where it is stuck, in the failure's message
                self.process.send_signal(signal.SIGABRT)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(5)
                time.sleep(0.5)  # the stderr reader's last lines
            pytest.fail(f"the server did not exit within {timeout} s; stderr:\n{self.log}")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """An initialized server whose workspace is an empty temporary directory."""
    started = Server(tmp_path)
    try:
        started.initialize()
        yield started
    finally:
        started.kill()


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Server]:
    """A server not initialized yet."""
    started = Server(tmp_path)
    try:
        yield started
    finally:
        started.kill()


def function_uri(root: Path) -> str:
    path = root / "functions" / "count.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.as_uri()


# ------------------------------------------------------------------ bad bytes in a body


def test_invalid_utf8_in_a_request_answers_parse_error_with_its_id(server: Server) -> None:
    body = b'{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover\xff", "params": {}}'
    server.write(frame(body=body))
    answer = server.receive(lambda m: m.get("id") == 7)
    assert answer["error"]["code"] == -32700
    assert "UTF-8" in answer["error"]["message"]
    server.finish()


def test_invalid_utf8_in_a_notification_is_dropped_and_logged(server: Server) -> None:
    uri = function_uri(server.root)
    text = json.dumps(SOURCE.format("caf\u00e9")).encode().replace(b"caf\\u00e9", b"caf\xe9")
    body = (
        b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": '
        b'{"uri": "%s", "languageId": "python", "version": 1, "text": %s}}}' % (uri.encode(), text)
    )
    server.write(frame(body=body))
    server.finish()
    assert "UTF-8" in server.log


def test_encoded_surrogate_is_invalid_utf8(server: Server) -> None:
    # CESU-8 / "surrogatepass" bytes for U+D800: not UTF-8 (json.loads(bytes) accepts them).
    body = b'{"jsonrpc": "2.0", "id": 8, "method": "x\xed\xa0\x80", "params": null}'
    server.write(frame(body=body))
    assert server.receive(lambda m: m.get("id") == 8)["error"]["code"] == -32700
    server.finish()


def test_invalid_json_answers_parse_error_with_a_null_id(server: Server) -> None:
    server.write(frame(body=b'{"jsonrpc": "2.0", "id": 9, "method": '))
    answer = server.receive(lambda m: "error" in m)
    assert answer["id"] is None
    assert answer["error"]["code"] == -32700
    server.finish()


def test_a_body_that_is_not_a_message_answers_invalid_request(server: Server) -> None:
    for body in (b"[]", b"1", b'"x"', b"null", b'{"id": 3, "method": "x"}', b'{"id": 3}'):
        server.write(frame(body=body))
        answer = server.receive(lambda m: "error" in m)
        assert answer["error"]["code"] == -32600, body
        assert answer["id"] == (3 if b"id" in body else None), body
        server.probe()
    server.finish()


def test_deeply_nested_json_is_refused_not_fatal(server: Server) -> None:
    server.write(frame(body=b'{"jsonrpc": "2.0", "method": "x", "params": ' + b"[" * 100_000))
    server.finish()


# ------------------------------------------------------------------ framing


def test_frame_without_content_length_resyncs_on_the_next_header(server: Server) -> None:
    # The body runs straight into the next frame's header, as on the wire.
    server.write(b'Content-Type: application/vscode-jsonrpc\r\n\r\n{"jsonrpc": "2.0"}')
    server.finish()
    assert "Content-Length" in server.log


GARBAGE = {
    "text line": b"hello world\r\n",
    "binary": b"\x00\x01\xff\xfe garbage without a line break",
    "blank lines": b"\r\n\r\n\n",
    "100k bytes": b"\xff" * 100_000,
    "100k lines": b"\n" * 100_000,
    "bad number": b"Content-Length: 12abc\r\n\r\n",
    "negative": b"Content-Length: -5\r\n\r\n",
    "empty": b"Content-Length: \r\n\r\n",
    "zero": b"Content-Length: 0\r\n\r\n",
    "short length": b"Content-Length: 3\r\n\r\n{}}",
    "bad header": b"X-Header-Without-Colon\r\nContent-Length: 2\r\n\r\n{}",
    "half a header": b"Content-Len",
    "header, no body": b"Content-Length: 40\r\n",
}


def test_garbage_between_frames_is_skipped(server: Server) -> None:
    for name, garbage in GARBAGE.items():
        server.write(garbage)
        server.probe(name)
    server.finish()


def test_content_length_longer_than_the_body_resyncs(server: Server) -> None:
    # The length claims the next frame as part of this body: no JSON text holds a raw
    # line break inside a string, so a header line there means the frame is broken.
    body = b'{"jsonrpc": "2.0", "id": 4, "method": "no/such", "params": null}'
    server.write(b"Content-Length: 999\r\n\r\n" + body)
    server.finish()
    # Cut at the next header, the body was whole: its request was answered too.
    assert [m["error"]["code"] for m in server.seen if m.get("id") == 4] == [-32601]


def test_huge_content_length_does_not_exit(server: Server) -> None:
    server.write(b"Content-Length: 99999999999999999999\r\n\r\n{}")
    server.finish()
    assert "Content-Length" in server.log


def test_lowercase_headers_and_lf_line_ends_are_understood(server: Server) -> None:
    # Lenient on what is clearly meant: header names are case-insensitive.
    body = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "shutdown"}).encode()
    headers = b"content-type: application/vscode-jsonrpc\ncontent-length: %d\r\n\r\n"
    server.write(headers % len(body) + body)
    assert server.receive(lambda m: m.get("id") == 5) == {"jsonrpc": "2.0", "id": 5, "result": None}


def test_a_frame_split_into_single_bytes_is_read(server: Server) -> None:
    for byte in frame({"jsonrpc": "2.0", "id": 6, "method": "shutdown"}):
        server.write(bytes([byte]))
    assert server.receive(lambda m: m.get("id") == 6)["result"] is None


def test_end_of_input_without_exit_ends_the_process(server: Server) -> None:
    stdin = server.process.stdin
    assert stdin is not None
    stdin.close()
    assert server.wait() != 0
    assert "closed" in server.log


# ------------------------------------------------------------------ lifecycle


def test_request_before_initialize_is_server_not_initialized(fresh: Server) -> None:
    fresh.send({"jsonrpc": "2.0", "id": 1, "method": "textDocument/diagnostic", "params": {}})
    answer = fresh.receive(lambda m: m.get("id") == 1)
    assert answer["error"]["code"] == -32002
    assert "data" not in answer["error"] or not answer["error"]["data"]  # no traceback
    fresh.notify("textDocument/didOpen", {"textDocument": {}})  # dropped, not answered
    assert fresh.request("shutdown")["error"]["code"] == -32002
    fresh.initialize()
    fresh.finish()
    assert "Traceback" not in fresh.log


def test_exit_before_initialize_ends_the_process(fresh: Server) -> None:
    fresh.notify("exit")
    assert fresh.wait() == 1  # exit without shutdown: 1, as the LSP spec says


def test_request_after_shutdown_is_invalid_request(server: Server) -> None:
    assert server.request("shutdown")["result"] is None
    answer = server.request("textDocument/diagnostic", {"textDocument": {"uri": "file:///x.py"}})
    assert answer["error"]["code"] == -32600
    server.notify("exit")
    assert server.wait() == 0


def test_second_initialize_is_invalid_request(server: Server) -> None:
    answer = server.request("initialize", {"capabilities": {}})
    assert answer["error"]["code"] == -32600
    server.finish()


# ------------------------------------------------------------------ document text


def test_lone_surrogate_in_a_document_is_checked_not_an_internal_error(server: Server) -> None:
    uri = function_uri(server.root)
    server.open(uri, SOURCE.format("\ud800"))  # json.dumps writes it as "\ud800"
    diagnostics = server.diagnostics(uri)
    assert [d["code"] for d in diagnostics] == ["TRV101"]
    # The surrogate is one UTF-16 unit: the return value starts where it would without it.
    column = len('    label = "x"; return ')
    assert diagnostics[0]["range"]["start"] == {"line": 2, "character": column}
    server.finish()


# ------------------------------------------------------------------ a fresh server

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def open_at_start(server: Server, *documents: tuple[str, str]) -> None:
    """``initialize``, then ``initialized`` and a ``didOpen`` per document in one write, as
    an editor restoring its open files does: the documents arrive before the index is built."""
    answer = server.request(
        "initialize", {"capabilities": {}, "rootUri": server.root.as_uri(), "processId": None}
    )
    assert "capabilities" in answer["result"], answer
    messages = [{"jsonrpc": "2.0", "method": "initialized", "params": {}}]
    for uri, text in documents:
        document = {"uri": uri, "languageId": "python", "version": 1, "text": text}
        messages.append(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {"textDocument": document},
            }
        )
    server.write(b"".join(frame(message) for message in messages))


def codes(diagnostics: list[Message]) -> set[str]:
    return {d["code"] for d in diagnostics}


def agents_workspace(root: Path) -> str:
    """``examples/openai_agents`` in ``root``: the URI of its ``behaviors.py``, whose TRV305
    needs ``main.py``'s ``Agent(...)`` and whose TRV303 needs no other file."""
    for name in ("behaviors.py", "main.py", "models.py"):
        (root / name).write_text((EXAMPLES / "openai_agents" / name).read_text())
    return (root / "behaviors.py").as_uri()


def test_fresh_server_publishes_same_file_findings_then_project_facts(fresh: Server) -> None:
    uri = agents_workspace(fresh.root)
    text = (fresh.root / "behaviors.py").read_text()
    open_at_start(fresh, (uri, text))
    first = fresh.diagnostics(uri)  # checked without the index, as the flake8 plugin checks
    assert "TRV303" in codes(first)
    assert "TRV305" not in codes(first)
    final = fresh.diagnostics(uri)  # the index is ready: checked again, and changed
    assert {"TRV303", "TRV305"} <= codes(final)
    assert codes(first) < codes(final)

    # What a server with its index shows for the document, opened again.
    fresh.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert fresh.diagnostics(uri) == []
    fresh.open(uri, text)
    assert fresh.diagnostics(uri) == final
    fresh.finish()


def test_fresh_server_publishes_a_same_file_result_once(fresh: Server) -> None:
    behaviors = agents_workspace(fresh.root)
    uri = function_uri(fresh.root)
    open_at_start(
        fresh,
        (uri, SOURCE.format("x")),
        (behaviors, (fresh.root / "behaviors.py").read_text()),
    )
    assert codes(fresh.diagnostics(uri)) == {"TRV101"}
    # behaviors.py's second publish means the index is ready and the open documents
    # were checked again, count.py first (in the order they were opened).
    fresh.receive(
        lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == behaviors
            and "TRV305" in codes(m["params"]["diagnostics"])
        )
    )
    fresh.probe()
    published = [
        m
        for m in fresh.seen
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
    ]
    assert len(published) == 1  # nothing needed the index: the first publish was final
    fresh.finish()


def test_an_empty_language_id_falls_back_on_the_file_name(server: Server) -> None:
    uri = function_uri(server.root)  # functions/count.py
    server.open(uri, SOURCE.format("x"), language="")
    assert codes(server.diagnostics(uri)) == {"TRV101"}
    notes = (server.root / "notes.txt").as_uri()  # not Python by its name: not checked
    server.open(notes, SOURCE.format("x"), language="")
    server.probe()
    assert not [m for m in server.seen if m.get("params", {}).get("uri") == notes]
    server.finish()


# ------------------------------------------------------------------ the framer itself


def test_framer_reads_frames_in_any_chunking() -> None:
    frames = [frame({"jsonrpc": "2.0", "id": n, "method": "m"}) for n in range(3)]
    stream = b"".join(frames)
    for size in (1, 2, 7, len(stream)):
        framer = _Framer()
        bodies = []
        for start in range(0, len(stream), size):
            bodies.extend(body for body, _ in framer.feed(stream[start : start + size]))
        assert [json.loads(body)["id"] for body in bodies if body is not None] == [0, 1, 2]


def test_framer_drops_an_oversized_body_without_holding_it() -> None:
    framer = _Framer(limit=100)
    events = framer.feed(b"Content-Length: 1000\r\n\r\n" + b"x" * 1000)
    events += framer.feed(frame({"jsonrpc": "2.0", "id": 1, "method": "m"}))
    assert len(framer.buffer) < 200
    assert [json.loads(body)["id"] for body, _ in events if body is not None] == [1]
    assert any("1000" in str(problem) for _, problem in events if problem)
