"""Time toolret's language server: ``didOpen`` → diagnostics for a ~1,000-line tool-heavy file,
and ``didSave`` of one file → the re-published diagnostics of another it changes.

Usage: python benchmarks/lsp_latency.py [--runs N] [--lines N] [--apps N] [--workdir DIR]
       [--toolret-ref REF]

Generates a project (one tool-heavy file of about ``--lines`` lines with the tool
code of all four frameworks, plus a few hundred generated files of the same kind
so the workspace index has work, plus ``--apps`` small packages whose facts cross
files: an ``Agent(...)`` in ``main.py`` with its behaviour functions and output
types in ``behaviors.py`` and ``models.py``, a Chat Completions loop in ``loop.py``
with its registry in ``tools.py``), then, ``--runs`` times, starts a new server
(``python -m lint_rules lsp``) over pipes and speaks LSP to it by hand:

* **fresh**: ``initialize``, ``initialized`` and at once ``didOpen`` of the file
  (the index is being built meanwhile);
* **warm**, on the same server once the fresh diagnostics have settled:
  ``didClose`` + ``didOpen`` of the same file, then a ``didChange`` of one line
  (full-text sync; the server debounces changes, see the table);
* **save**, on the same server: with the first package's ``behaviors.py`` and
  ``main.py`` open too, ``main.py`` is edited on disk (its agent's ``output_type``
  toggles between a model of ``models.py`` and ``str``, which adds or removes a
  TRV305 in ``behaviors.py``), then ``didChange`` + ``didSave``; twice per server.

Per case it times from sending the notification to the first
``publishDiagnostics`` for the file with a non-empty list (save: for
``behaviors.py``, with diagnostics other than before), and to the last publish
for the file before ``--settle`` seconds pass without another (the server may
publish twice: same-file findings, then refined by the index). A benchmark, not
a timed test. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import platform
import queue
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import corpora
import run as cli_bench

PUBLISH = "textDocument/publishDiagnostics"
Message = dict[str, Any]


# ---------------------------------------------------------------------------
# The project
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Project:
    root: Path
    path: Path
    """The tool-heavy file that is opened."""
    text: str
    other_files: int
    other_lines: int
    app: Path | None = None
    """The first cross-file package (``--apps``): its ``main.py`` is saved in the save case."""

    @property
    def lines(self) -> int:
        return self.text.count("\n")


def build_project(dest: Path, lines: int, project_lines: int, seed: int, apps: int = 0) -> Project:
    """The opened file (``editor_agent/functions/<stem>.py``), generated project files and
    ``apps`` cross-file packages (``apps/app_NNN/``)."""
    rng = random.Random(seed)
    domain = rng.choice(corpora.DOMAINS)
    stem = corpora.Names(rng, set()).make(
        rng.choice(corpora.VERBS), domain.entity, rng.choice(domain.fields)
    )
    text = corpora.FileBuilder(rng, domain, stem, star_header=False).render(lines)
    path = dest / "editor_agent" / "functions" / f"{stem}.py"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    info = corpora.generate_tool_corpus(dest / "agents", project_lines, seed + 1)
    files, total = info.files, info.lines
    for n in range(apps):
        for name, source in app_files(n).items():
            target = dest / "apps" / f"app_{n:03d}" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source, encoding="utf-8")
            files += 1
            total += source.count("\n")
    return Project(dest, path, text, files, total, dest / "apps" / "app_000" if apps else None)


# One package whose facts cross files. models.py, behaviors.py and tools.py carry no
# signal of their own (no `tool_use_behavior`, no `tool_calls`): the index parses them
# because main.py and loop.py name them.
APP_MODELS = """\
from pydantic import BaseModel


class Report(BaseModel):
    city: str
    summary: str


class Forecast(BaseModel):
    city: str
    day: str
    high: int
    low: int


class Alert(BaseModel):
    city: str
    level: int
    message: str
"""
APP_BEHAVIORS = """\
from agents import ToolsToFinalOutputResult


def stop_on_report(context, results):
    return ToolsToFinalOutputResult(is_final_output=True, final_output="done")


def keep_going(context, results):
    return {"is_final_output": False}
"""
APP_MAIN = """\
from agents import Agent

from .behaviors import keep_going, stop_on_report
from .models import Report

reporter = Agent(name="Reporter {n}", output_type=Report, tool_use_behavior=stop_on_report)
helper = Agent(name="Helper {n}", tool_use_behavior=keep_going)
"""
APP_TOOLS = """\
from datetime import datetime


def get_report(city: str) -> str:
    return f"report for {{city}}"


def get_time(city: str):
    return {{"city": city, "time": datetime.now()}}


REGISTRY = {{"get_report": get_report, "get_time": get_time}}
"""
APP_LOOP = """\
import json

from openai import OpenAI

from .tools import REGISTRY

client = OpenAI()
CITY = {{"type": "object", "properties": {{"city": {{"type": "string"}}}}, "required": ["city"]}}
tools = [
    {{"type": "function", "function": {{"name": "get_report", "parameters": CITY}}}},
]


def run_{n}(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    for tool_call in message.tool_calls:
        result = REGISTRY[tool_call.function.name](**json.loads(tool_call.function.arguments))
        messages.append(
            {{"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result)}}
        )
"""


def app_files(n: int) -> dict[str, str]:
    return {
        "__init__.py": "",
        "models.py": APP_MODELS,
        "behaviors.py": APP_BEHAVIORS,
        "main.py": APP_MAIN.format(n=n),
        "tools.py": APP_TOOLS.format(n=n),
        "loop.py": APP_LOOP.format(n=n),
    }


def saved_main(n: int) -> str:
    """The first package's main.py, edited for the ``n``-th save: ``output_type`` toggles."""
    text = APP_MAIN.format(n=0)
    return text.replace("output_type=Report", "output_type=str") if n % 2 == 0 else text


def edited(text: str, n: int) -> str:
    """``text`` with one line changed: the first blank line past the middle gets a comment."""
    lines = text.split("\n")
    start = len(lines) // 2
    for i in range(start, len(lines) - 1):
        if not lines[i].strip() or lines[i].startswith("# edit "):
            lines[i] = f"# edit {n}"
            return "\n".join(lines)
    lines[start] += f"  # edit {n}"
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# A hand-written LSP client
# ---------------------------------------------------------------------------


class Client:
    """One server process over pipes; messages are timestamped as they are read."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str], stderr: IO[bytes]) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr
        )
        self.inbox: queue.Queue[tuple[float, Message | None]] = queue.Queue()
        self._lock = threading.Lock()
        self._next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            while True:
                length = None
                while True:
                    line = stream.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if length is None:
                    continue
                message = json.loads(stream.read(length))
                now = time.perf_counter()
                if "method" in message and "id" in message:  # a request of the server's
                    self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                self.inbox.put((now, message))
        finally:
            self.inbox.put((time.perf_counter(), None))

    def send(self, message: Message) -> float:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        with self._lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()
            return time.perf_counter()

    def notify(self, method: str, params: Message) -> float:
        return self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any, timeout: float) -> Message:
        self._next_id += 1
        ident = self._next_id
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        deadline = time.perf_counter() + timeout
        while True:
            _, message = self.get(deadline)
            if message.get("id") == ident and "method" not in message:
                return message

    def get(self, deadline: float) -> tuple[float, Message]:
        try:
            at, message = self.inbox.get(timeout=max(0.0, deadline - time.perf_counter()))
        except queue.Empty:
            raise TimeoutError("the server did not answer in time") from None
        if message is None:
            raise RuntimeError(f"the server exited (code {self.proc.wait()})")
        return at, message

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        except (OSError, RuntimeError, TimeoutError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


@dataclass(frozen=True)
class Observation:
    first: float
    """Seconds from the notification to the first non-empty publish for the file."""
    last: float
    """... to the last publish for the file within the settle window."""
    publishes: int
    diagnostics: int
    """Diagnostics in the last publish."""


def await_publishes(
    client: Client, uri: str, sent: float, version: int | None, settle: float, timeout: float
) -> Observation:
    """Publishes for ``uri`` (of ``version``, when given) until ``settle`` s pass without one."""
    first: float | None = None
    last = sent
    count = 0
    diagnostics = 0
    deadline = sent + timeout
    while True:
        wait_until = deadline if first is None else min(deadline, last + settle)
        try:
            at, message = client.get(wait_until)
        except TimeoutError:
            if first is None:
                raise TimeoutError(f"no diagnostics for the file within {timeout:.0f} s") from None
            return Observation(first - sent, last - sent, count, diagnostics)
        if message.get("method") != PUBLISH:
            continue
        params = message["params"]
        if params["uri"] != uri:
            continue
        if version is not None and params.get("version") not in (None, version):
            continue
        if first is None and not params["diagnostics"]:
            continue  # e.g. the empty list of the didClose before
        first = at if first is None else first
        last = at
        count += 1
        diagnostics = len(params["diagnostics"])


def await_change(
    client: Client, uri: str, sent: float, before: list[str], settle: float, timeout: float
) -> tuple[Observation, list[str]]:
    """Publishes for ``uri`` until one has other codes than ``before``, then until ``settle``
    s pass without another; the observation and the last publish's codes."""
    first: float | None = None
    last = sent
    count = 0
    codes = before
    deadline = sent + timeout
    while True:
        wait_until = deadline if first is None else min(deadline, last + settle)
        try:
            at, message = client.get(wait_until)
        except TimeoutError:
            if first is None:
                raise TimeoutError(f"no new diagnostics for {uri} within {timeout:.0f} s") from None
            return Observation(first - sent, last - sent, count, len(codes)), codes
        if message.get("method") != PUBLISH or message["params"]["uri"] != uri:
            continue
        published = sorted(str(d.get("code")) for d in message["params"]["diagnostics"])
        if first is None and published == before:
            continue
        first = at if first is None else first
        last = at
        count += 1
        codes = published


def await_first(client: Client, uri: str, timeout: float) -> list[str]:
    """The codes of the next publish for ``uri`` (empty or not)."""
    deadline = time.perf_counter() + timeout
    while True:
        _, message = client.get(deadline)
        if message.get("method") == PUBLISH and message["params"]["uri"] == uri:
            return sorted(str(d.get("code")) for d in message["params"]["diagnostics"])


def initialize(client: Client, root: Path, timeout: float) -> float:
    """``initialize`` + ``initialized`` (push diagnostics); seconds from spawn to the answer."""
    uri = root.as_uri()
    params = {
        "processId": os.getpid(),
        "rootUri": uri,
        "rootPath": str(root),
        "workspaceFolders": [{"uri": uri, "name": root.name}],
        "capabilities": {
            "general": {"positionEncodings": ["utf-16"]},
            "textDocument": {
                "synchronization": {"didSave": True},
                "publishDiagnostics": {"versionSupport": True},
            },
            "workspace": {"workspaceFolders": True},
        },
        "clientInfo": {"name": "toolret-lsp-benchmark"},
    }
    answer = client.request("initialize", params, timeout)
    if "error" in answer:
        raise RuntimeError(f"initialize failed: {answer['error']}")
    answered = time.perf_counter() - client.started
    client.notify("initialized", {})
    return answered


# ---------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------

START, FRESH, WARM_OPEN, WARM_CHANGE, SAVE = "start", "fresh", "warm-open", "warm-change", "save"


@dataclass
class Results:
    start: list[float] = field(default_factory=list)
    cases: dict[str, list[Observation]] = field(default_factory=dict)

    def add(self, case: str, observation: Observation) -> None:
        self.cases.setdefault(case, []).append(observation)


def one_server(
    project: Project,
    argv: list[str],
    env: dict[str, str],
    args: argparse.Namespace,
    results: Results,
    serial: int,
) -> None:
    uri = project.path.as_uri()
    with tempfile.TemporaryFile() as stderr:
        client = Client(argv, project.root, env, stderr)
        try:
            results.start.append(initialize(client, project.root, args.timeout))

            def open_document(version: int) -> Observation:
                document = {
                    "uri": uri,
                    "languageId": "python",
                    "version": version,
                    "text": project.text,
                }
                sent = client.notify("textDocument/didOpen", {"textDocument": document})
                return await_publishes(client, uri, sent, None, args.settle, args.timeout)

            results.add(FRESH, open_document(1))

            client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            deadline = time.perf_counter() + args.timeout
            while True:  # the close's empty publish, so it is not counted below
                _, message = client.get(deadline)
                if message.get("method") == PUBLISH and message["params"]["uri"] == uri:
                    break
            results.add(WARM_OPEN, open_document(2))

            change = {
                "textDocument": {"uri": uri, "version": 3},
                "contentChanges": [{"text": edited(project.text, serial)}],
            }
            sent = client.notify("textDocument/didChange", change)
            results.add(
                WARM_CHANGE, await_publishes(client, uri, sent, 3, args.settle, args.timeout)
            )
            if project.app is not None:
                save_cases(client, project.app, args, results)
        except (RuntimeError, TimeoutError) as error:
            client.proc.kill()
            client.proc.wait()
            stderr.seek(0)
            tail = "\n".join(stderr.read().decode("utf-8", "replace").splitlines()[-10:])
            raise RuntimeError(f"{error}\n{tail}") from None
        finally:
            if client.proc.poll() is None:
                client.close()


def save_cases(client: Client, app: Path, args: argparse.Namespace, results: Results) -> None:
    """``didSave`` of ``main.py`` (edited on disk) → ``behaviors.py`` re-published, twice.

    The saves wait for the workspace index: ``behaviors.py``'s TRV305 needs main.py's
    agent, so it is published only once the index is built (a fresh server may still
    be building it when the warm cases end)."""
    behaviors, main = (app / "behaviors.py").as_uri(), (app / "main.py").as_uri()
    for uri, path in ((behaviors, app / "behaviors.py"), (main, app / "main.py")):
        document = {"uri": uri, "languageId": "python", "version": 1, "text": path.read_text()}
        client.notify("textDocument/didOpen", {"textDocument": document})
        codes = await_first(client, uri, args.timeout)
        while uri == behaviors and "TRV305" not in codes:
            codes = await_first(client, uri, args.timeout)
        if uri == behaviors:
            before = codes
    for n in range(2):
        text = saved_main(n)
        (app / "main.py").write_text(text, encoding="utf-8")
        change = {
            "textDocument": {"uri": main, "version": n + 2},
            "contentChanges": [{"text": text}],
        }
        client.notify("textDocument/didChange", change)
        sent = client.notify("textDocument/didSave", {"textDocument": {"uri": main}})
        observation, before = await_change(
            client, behaviors, sent, before, args.settle, args.timeout
        )
        results.add(SAVE, observation)


# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------


def spread(values: Sequence[float]) -> tuple[str, str]:
    median = cli_bench.fmt_s(statistics.median(values))
    low, high = min(values), max(values)
    return median, (
        f"{cli_bench.fmt_s(low)[:-2]}–{cli_bench.fmt_s(high)}" if len(values) > 1 else ""
    )


def counts(values: Sequence[int]) -> str:
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}–{high}"


def result_table(results: Results, debounce: str, change_debounce: str | None = None) -> list[str]:
    change_debounce = change_debounce or debounce
    rows = [["case", "runs", "median", "min–max", "publishes", "diagnostics"]]
    if results.start:
        median, low_high = spread(results.start)
        rows.append(
            [
                "server start: spawn → initialize answered",
                str(len(results.start)),
                median,
                low_high,
                "",
                "",
            ]
        )
    labels = {
        FRESH: "fresh: didOpen after initialized",
        WARM_OPEN: "warm: didClose + didOpen",
        WARM_CHANGE: f"warm: didChange of 1 line (incl. {change_debounce} debounce)",
        SAVE: f"save: didSave of main.py → behaviors.py (incl. {debounce} debounce)",
    }
    for case, label in labels.items():
        observations = results.cases.get(case, [])
        if not observations:
            continue
        publishes = counts([o.publishes for o in observations])
        diagnostics = counts([o.diagnostics for o in observations])
        for what, values in (
            ("first diagnostics", [o.first for o in observations]),
            ("last publish", [o.last for o in observations]),
        ):
            median, low_high = spread(values)
            rows.append(
                [f"{label} → {what}", str(len(values)), median, low_high, publishes, diagnostics]
            )
    return cli_bench.table(rows, "lrrrrr")


def server_debounce(env: dict[str, str], cwd: Path) -> tuple[str, str]:
    """The server's debounce after a save, and after a change (adaptive since issue 29:
    the document's last check time, at most the fixed one)."""
    probe = (
        "from lint_rules.lsp import DEBOUNCE_SECONDS as d\n"
        "try:\n    from lint_rules.lsp.base import debounce_for\nexcept ImportError:\n"
        "    print(d, 'fixed')\nelse:\n    print(d, 'adaptive')\n"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
            timeout=60,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "the server's", "the server's"
    seconds, kind = out.split()
    fixed = f"{float(seconds):g} s"
    return fixed, fixed if kind == "fixed" else f"≤ {fixed} adaptive"


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time toolret's language server from didOpen/didChange to diagnostics "
        "on a generated tool-heavy file, fresh and warm."
    )
    parser.add_argument("--runs", type=int, default=5, help="servers started (default 5)")
    parser.add_argument(
        "--lines", type=int, default=1000, help="lines of the opened file (default 1000)"
    )
    parser.add_argument(
        "--project-lines",
        type=int,
        default=None,
        help="lines of the other generated project files (default 80 times --lines)",
    )
    parser.add_argument(
        "--apps",
        type=int,
        default=50,
        help="cross-file packages of 6 files (an Agent, a chat loop and the files they "
        "name) for the save case; 0: no save case (default 50)",
    )
    parser.add_argument("--seed", type=int, default=20240, help="seed of the generated files")
    parser.add_argument(
        "--settle",
        type=float,
        default=1.5,
        help="seconds without another publish after which a case is over (default 1.5)",
    )
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="seconds to wait for any answer"
    )
    parser.add_argument(
        "--workdir", type=Path, default=None, help="build the project here and keep it"
    )
    parser.add_argument(
        "--toolret-ref",
        metavar="REF",
        default=None,
        help="time lint_rules/ as committed at this git ref (as benchmarks/run.py does)",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.lines < 50:
        parser.error("--lines must be at least 50")
    if args.apps < 0:
        parser.error("--apps must not be negative")
    if args.project_lines is None:
        args.project_lines = 80 * args.lines
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    if not cli_bench.has_module("pygls"):
        print("error: the language server needs pygls (pip install -e '.[lsp]')", file=sys.stderr)
        return 2
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="toolret-lsp-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        env = cli_bench.child_env()
        source = f"the working tree of {cli_bench.REPO} ({cli_bench.repo_state()})"
        if args.toolret_ref is not None:
            try:
                commit, env = cli_bench.snapshot_toolret(args.toolret_ref, workdir / "toolret-src")
            except (
                OSError,
                subprocess.CalledProcessError,
                RuntimeError,
                tarfile.TarError,
            ) as error:
                print(
                    f"error: cannot snapshot toolret at {args.toolret_ref}: {error}",
                    file=sys.stderr,
                )
                return 2
            source = f"a snapshot of {args.toolret_ref} = {commit[:10]}"

        dest = workdir / "project"
        corpora.remove_tree(dest)
        dest.mkdir(parents=True)
        project = build_project(dest, args.lines, args.project_lines, args.seed, args.apps)
        argv_server = [sys.executable, "-m", "lint_rules", "lsp"]
        try:
            pygls_version = importlib.metadata.version("pygls")
        except importlib.metadata.PackageNotFoundError:
            pygls_version = "-"
        print(
            "\n".join(
                [
                    f"toolret language-server benchmark, "
                    f"{datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
                    f"machine: {cli_bench.cpu_model()}, {os.cpu_count()} cores, "
                    f"{platform.system()} {platform.release()}, Python {platform.python_version()}",
                    f"versions: {', '.join(cli_bench.versions()[:2])}, pygls {pygls_version}",
                    f"toolret code: {source}",
                    f"server: {' '.join(['python', *argv_server[1:]])}, push diagnostics, "
                    "full-text sync; a new server per run",
                    f"file: {project.path.relative_to(project.root)}, {project.lines:,} lines "
                    "(PolyAI, browser-use, Agents SDK and Chat Completions tool code)",
                    f"workspace: {project.other_files + 1} Python files, "
                    f"{project.other_lines + project.lines:,} lines (generated, seed {args.seed}; "
                    f"{args.apps} cross-file packages of 6 files in apps/)",
                    f"times: from sending the notification to the first non-empty publish for "
                    f"the file, and to the last one before {args.settle:g} s without another",
                ]
            ),
            flush=True,
        )
        load_before = cli_bench.load_average()
        results = Results()
        for serial in range(args.runs):
            try:
                one_server(project, argv_server, env, args, results, serial)
            except (OSError, RuntimeError) as error:
                print(f"error: run {serial + 1}: {error}", file=sys.stderr)
                return 1
        print()
        print("\n".join(result_table(results, *server_debounce(env, project.root))))
        print(f"note: load average before {load_before}, after {cli_bench.load_average()}")
    finally:
        if args.workdir is None:
            corpora.remove_tree(workdir)
    print(f"\n(total {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
