"""Fuzz campaign (issue 19): generated tool programs and mutants of examples/.

Usage: python benchmarks/campaign.py [--programs N] [--mutants N] [--notebooks N] [--seed N]
                                     [--jobs N] [--timeout S] [--out DIR] [--per-class K]

Three halves, each case run in a worker process under a per-case timeout:

- programs: hypothesmith-generated Python wrapped into a tool function of one of
  the families (one preamble each: PolyAI, browser-use, Agents SDK, Chat Completions,
  Anthropic, MCP, LangChain, Pydantic AI; the any-framework rules read them all —
  the preambles and value strategy of tests/test_fuzz.py);
- mutants: byte- and line-level mutants of the .py files under examples/
  (delete/duplicate/swap lines, flip/insert/delete bytes, a backslash-only line,
  CR or CRLF line endings, deep nesting), checked through ``check_bytes``;
- notebooks: each example file made a notebook (cells cut at top-level statements)
  with one to three of :data:`NOTEBOOK_MUTATIONS` (NaN outputs, non-object cells,
  magics, split and merged cells, other kernels, JSON layouts, BOM, truncation…),
  checked and fixed as ``toolret fix`` does (``test_fuzz.notebook_problems``: also
  a notebook the writer refused, or JSON changed outside the code cells' sources).

Per case the properties of tests/test_fuzz.py (``case_problems``): the check
never raises or reports TRV002, positions are inside the file, every fix applies,
the fixed text compiles and fixing it again changes nothing; and
(``screen_problems``) every rule but TRV005 reports the same with the screen on as
with it off. A check that takes
more than --timeout seconds (or a fix more than five times that) is a hang: the
worker is killed and replaced. Prints counts per class and writes up to
--per-class reduced reproducers per class (one per distinct signature first) to
--out. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import random
import re
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))

from run import snapshot_toolret  # noqa: E402 (benchmarks/ is the script's directory)

WHERE: set[str] = set()
"""Where the workers imported ``lint_rules`` from."""

CLASSES = (
    "crash",
    "TRV002",
    "hang",
    "position",
    "fix-crash",
    "fix-rejected",
    "fix-not-converged",
    "fix-unparsable",
    "fix-not-idempotent",
    "fix-hang",
    "fix-unwritable",
    "fix-outside-cells",
    "screen",
    "worker-died",
)


@dataclass(frozen=True)
class Case:
    data: bytes
    path: str
    as_text: bool
    """Programs are checked as text (``check_source``), mutants as bytes (``check_bytes``)."""
    origin: str


@dataclass
class Outcome:
    problems: list[tuple[str, str]] = field(default_factory=list)
    check_seconds: float | None = None


# ------------------------------------------------------------------ worker processes


def _worker_main(conn: Connection) -> None:
    warnings.simplefilter("ignore")
    import test_fuzz

    import lint_rules

    conn.send(("ready", lint_rules.__file__))
    while True:
        try:
            data, path, as_text = conn.recv()
        except EOFError:
            return
        text: str | bytes = data
        if as_text:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                conn.send(("done", [("not-text", "")]))
                continue
        problems = test_fuzz.case_problems(
            text, path, on_checked=lambda seconds: conn.send(("checked", seconds))
        )
        problems += test_fuzz.screen_problems(text, path)
        conn.send(("done", [(p.kind, p.detail) for p in problems]))


class Worker:
    """One checking process; killed and replaced when a case runs over its time."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.process: Any = None
        self.conn: Connection | None = None

    def _start(self) -> Connection:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(child,), daemon=True)
        self.process.start()
        child.close()
        _, where = parent.recv()  # "ready": imports are not timed
        WHERE.add(where)
        self.conn = parent
        return parent

    def _kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join()
        self.process = self.conn = None

    def run(self, case: Case) -> Outcome:
        conn = self.conn or self._start()
        outcome = Outcome()
        conn.send((case.data, case.path, case.as_text))
        deadline = self.timeout
        try:
            while True:
                if not conn.poll(deadline):
                    kind = "hang" if outcome.check_seconds is None else "fix-hang"
                    outcome.problems.append((kind, f"over {deadline:g} s"))
                    self._kill()
                    return outcome
                message, value = conn.recv()
                if message == "checked":
                    outcome.check_seconds = value
                    if value > self.timeout:  # finished, but over the limit
                        outcome.problems.append(("hang", f"check took {value:.1f} s"))
                    deadline = max(5 * self.timeout, 5 * value)
                else:
                    outcome.problems.extend(value)
                    return outcome
        except (EOFError, OSError) as error:
            outcome.problems.append(("worker-died", type(error).__name__))
            self._kill()
            return outcome

    def close(self) -> None:
        self._kill()


class Pool:
    """``jobs`` workers, each driven by one thread of the calling process."""

    def __init__(self, jobs: int, timeout: float) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self.local = threading.local()
        self.workers: list[Worker] = []
        self.lock = threading.Lock()
        self.executor = ThreadPoolExecutor(jobs)

    def _worker(self) -> Worker:
        worker = getattr(self.local, "worker", None)
        if worker is None:
            worker = self.local.worker = Worker(self.timeout)
            with self.lock:
                self.workers.append(worker)
        return worker

    def run(self, case: Case) -> Outcome:
        return self._worker().run(case)

    def map(self, cases: Sequence[Case]) -> Iterator[Outcome]:
        return self.executor.map(self.run, cases)

    def close(self) -> None:
        self.executor.shutdown()
        for worker in self.workers:
            worker.close()


# ------------------------------------------------------------------ programs


def _generate_batch(args: tuple[int, int]) -> list[tuple[str, str]]:
    """``count`` programs from hypothesis seed ``seed`` (run in a pool process)."""
    warnings.simplefilter("ignore")
    import test_fuzz
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as with_seed

    seed, count = args
    found: list[tuple[str, str]] = []

    @with_seed(seed)
    @settings(
        max_examples=count,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(test_fuzz.programs())
    def collect(case: tuple[str, str]) -> None:
        found.append(case)

    collect()
    return found


def generate_programs(count: int, seed: int, jobs: int, log: Callable[[str], None]) -> list[Case]:
    cases: dict[str, Case] = {}
    batch = 100
    next_seed = seed * 1_000_000
    context = multiprocessing.get_context("spawn")
    started = time.monotonic()
    with context.Pool(jobs) as pool:
        while len(cases) < count:
            missing = count - len(cases)
            seeds = [(next_seed + i, batch) for i in range(max(jobs, -(-missing // batch)))]
            next_seed += len(seeds)
            for found in pool.imap_unordered(_generate_batch, seeds):
                for source, path in found:
                    key = hashlib.sha1(f"{path}\0{source}".encode()).hexdigest()
                    cases.setdefault(key, Case(source.encode(), path, True, "program"))
                log(
                    f"generated {len(cases)} distinct programs ({time.monotonic() - started:.0f} s)"
                )
    return list(cases.values())[:count]


# ------------------------------------------------------------------ mutants

NESTING_DEPTHS = (20, 100, 300, 600, 1000)


def _deep(depth: int, indent: bytes, nl: bytes, rng: random.Random) -> bytes:
    """One statement (or block) nested ``depth`` deep, at ``indent``."""
    shapes: list[Callable[[int], str]] = [
        lambda d: "x = " + "(" * d + "1" + ")" * d,
        lambda d: "x = " + "[" * d + "]" * d,
        lambda d: "return " + " + ".join(["1"] * d),
        lambda d: "x = " + " if A else ".join(["1"] * d),
        lambda d: "x = " + "-" * d + "1",
        lambda d: "x = a" + ".b" * d,
        lambda d: "x = f" + "()" * d,
        lambda d: "x = not " * min(d, 200) + "A",
        lambda d: "x = (\n" + "".join(f'    "line {i}"\n' for i in range(d)) + ")",
        lambda d: "if A:\n    pass\n" + "elif A:\n    pass\n" * d,
        lambda d: (
            "".join(" " * i + "if A:\n" for i in range(min(d, 90))) + " " * min(d, 90) + "pass"
        ),
    ]
    text = rng.choice(shapes)(depth)
    rows = text.split("\n")
    return b"".join(indent + row.encode() + nl for row in rows)


def _newline(data: bytes) -> bytes:
    match = re.search(rb"\r\n|\r|\n", data)
    return match.group() if match else b"\n"


def mutate(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    """``data`` with one to three random mutations, and their names."""
    names = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        lines = data.splitlines(keepends=True) or [b""]
        nl = _newline(data)
        at = rng.randrange(len(lines))
        indent = re.match(rb"[ \t]*", lines[at]).group()  # type: ignore[union-attr]
        kind = rng.choice(
            (
                "delete-line",
                "duplicate-line",
                "swap-lines",
                "flip-byte",
                "insert-byte",
                "delete-byte",
                "backslash-line",
                "cr",
                "crlf",
                "deep-nesting",
            )
        )
        names.append(kind)
        pos = rng.randrange(len(data) + 1)
        if kind == "delete-line":
            del lines[at]
        elif kind == "duplicate-line":
            lines.insert(at, lines[at])
        elif kind == "swap-lines":
            other = rng.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "backslash-line":
            lines.insert(at, rng.choice((b"", indent)) + b"\\" + nl)
        elif kind == "deep-nesting":
            depth = rng.choice(NESTING_DEPTHS)
            names[-1] = f"deep-nesting-{depth}"
            lines.insert(at, _deep(depth, indent, nl, rng))
        if kind in ("delete-line", "duplicate-line", "swap-lines", "backslash-line") or (
            kind == "deep-nesting"
        ):
            data = b"".join(lines)
        elif kind == "flip-byte" and data:
            pos = min(pos, len(data) - 1)
            data = data[:pos] + bytes([data[pos] ^ (1 << rng.randrange(8))]) + data[pos + 1 :]
        elif kind == "insert-byte":
            byte = rng.choice((bytes([rng.randrange(256)]), *map(bytes.fromhex, INTERESTING)))
            data = data[:pos] + byte + data[pos:]
        elif kind == "delete-byte" and data:
            pos = min(pos, len(data) - 1)
            data = data[:pos] + data[pos + 1 :]
        elif kind in ("cr", "crlf"):
            data = re.sub(rb"\r\n|\r|\n", b"\r" if kind == "cr" else b"\r\n", data)
    return data, names


# \ ( ) : " ' # tab form-feed CR LF NUL 0xff, and a UTF-8 é
INTERESTING = ("5c", "28", "29", "3a", "22", "27", "23", "09", "0c", "0d", "0a", "00", "ff", "c3a9")


def example_files(root: Path) -> list[tuple[bytes, str]]:
    """(bytes, path) of every .py file under ``root``; the path is relative to the example
    project it is in (``functions/end_call.py``), which decides layout recognition."""
    files = []
    for file in sorted(root.rglob("*.py")):
        relative = file.relative_to(root)
        project = relative.parts[0] if len(relative.parts) > 1 else ""
        path = relative.relative_to(project).as_posix() if project else relative.as_posix()
        files.append((file.read_bytes(), path))
    return files


def generate_mutants(count: int, seed: int, root: Path) -> list[Case]:
    files = example_files(root)
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        data, path = rng.choice(files)
        mutant, names = mutate(data, rng)
        cases.append(Case(mutant, path, False, "+".join(names)))
    return cases


# ------------------------------------------------------------------ notebook mutants

NOTEBOOK_MUTATIONS = (
    "nan-output",  # NaN / Infinity in an output, as Python's json writes them
    "widget-state",  # deep metadata (ipywidgets' state)
    "non-object-cell",  # a number, string or null in "cells"
    "string-source",  # "source" as one string, not a list of lines
    "no-source",
    "source-not-strings",  # [1, "x"]
    "line-magic",  # %timeit / !ls / ?x / automagic lines
    "cell-magic",  # %%bash, %%time as the first line
    "markdown-cell",
    "raw-cell",
    "split-cell",  # a cell cut at any line (often mid-statement)
    "merge-cells",
    "empty-cell",
    "crlf-source",
    "unicode-source",  # é, an emoji, U+2028 inside strings
    "no-final-newline",
    "other-kernel",  # language R: not Python, nothing checked
    "nbformat-3",
    "duplicate-source-key",  # "source" twice: json keeps the last
    "ascii-escapes",  # ensure_ascii: every non-ASCII character escaped
    "indent-0",
    "indent-1",
    "indent-4",
    "bom",
    "truncate",  # JSON cut short: unreadable
    "flip-byte",
    "trailing-garbage",
)


def notebook_of(data: bytes, rng: random.Random) -> list[dict[str, Any]]:
    """The cells of a notebook made of one example file, cut at blank lines before a
    top-level statement (a decorator stays with its function)."""
    text = data.decode("utf-8", "replace")
    chunks = [c for c in re.split(r"\n\s*\n(?=\S)", text) if c.strip()]
    cells: list[dict[str, Any]] = []
    for chunk in chunks:
        if rng.random() < 0.15:
            cells.append({"cell_type": "markdown", "metadata": {}, "source": ["# Notes\n"]})
        cells.append(
            {
                "cell_type": "code",
                "execution_count": rng.choice((None, len(cells) + 1)),
                "id": f"c{len(cells)}",
                "metadata": {},
                "outputs": [],
                "source": chunk.splitlines(keepends=True),
            }
        )
    return cells


def _code_cells(cells: list[Any]) -> list[dict[str, Any]]:
    return [c for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"]


def mutate_notebook(data: bytes, rng: random.Random) -> tuple[bytes, list[str]]:
    """A notebook of ``data``'s code with one to three notebook mutations, and their names."""
    import json

    cells: list[Any] = notebook_of(data, rng)
    document: dict[str, Any] = {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    names = [rng.choice(NOTEBOOK_MUTATIONS) for _ in range(rng.choice((1, 1, 2, 3)))]
    layout = {"indent": 1, "ensure_ascii": False}
    raw: list[str] = []
    for name in names:
        code = _code_cells(cells)
        cell = rng.choice(code) if code else None
        try:  # a mutation that does not fit what earlier ones left is skipped
            if name == "nan-output" and cell is not None:
                value = rng.choice((float("nan"), float("inf"), float("-inf")))
                cell["outputs"].append(
                    {"output_type": "execute_result", "data": {"text/plain": ["x"]},
                     "metadata": {"score": value}, "execution_count": 1}
                )  # fmt: skip
            elif name == "widget-state":
                state: Any = {"v": 1}
                for _ in range(rng.choice((10, 100, 400))):
                    state = {"children": [state], "value": float("nan")}
                document["metadata"]["widgets"] = state
            elif name == "non-object-cell":
                cells.insert(rng.randrange(len(cells) + 1), rng.choice((3, "cell", None, [])))
            elif name == "string-source" and cell is not None:
                if all(isinstance(line, str) for line in cell.get("source", ())):
                    cell["source"] = "".join(cell.get("source", ()))
            elif name == "no-source" and cell is not None:
                del cell["source"]
            elif name == "source-not-strings" and cell is not None:
                cell["source"] = [1, "x = 1\n"]
            elif name in ("line-magic", "cell-magic") and cell is not None:
                lines = list(cell.get("source") or [])
                if name == "line-magic":
                    magic = rng.choice(("%timeit x\n", "!ls -la\n", "?print\n", "cd /tmp\n"))
                    lines.insert(rng.randrange(len(lines) + 1), magic)
                else:
                    lines.insert(0, rng.choice(("%%bash\n", "%%time\n", "%%capture out\n")))
                cell["source"] = lines
            elif name in ("markdown-cell", "raw-cell") and cell is not None:
                cell["cell_type"] = "markdown" if name == "markdown-cell" else "raw"
                del cell["outputs"], cell["execution_count"]
            elif name == "split-cell" and cell is not None and isinstance(cell.get("source"), list):
                lines = cell["source"]
                at = rng.randrange(len(lines) + 1)
                cell["source"] = lines[:at]
                cells.insert(cells.index(cell) + 1, {**cell, "id": "split", "source": lines[at:]})
            elif name == "merge-cells" and len(code) > 1:
                first, second = code[0], code[1]
                if isinstance(first.get("source"), list) and isinstance(second.get("source"), list):
                    first["source"] = first["source"] + second["source"]
                    cells.remove(second)
            elif name == "empty-cell":
                cells.insert(
                    rng.randrange(len(cells) + 1), {**notebook_of(b"x", rng)[-1], "source": []}
                )
            elif (
                name == "crlf-source" and cell is not None and isinstance(cell.get("source"), list)
            ):
                cell["source"] = [line.replace("\n", "\r\n") for line in cell["source"]]
            elif name == "unicode-source" and cell is not None:
                note = "NOTE = 'caf\u00e9 \U0001f600 \u2028 end'\n"
                source = cell.get("source", [])
                cell["source"] = note + source if isinstance(source, str) else [note, *source]
            elif name == "no-final-newline" and cell is not None and cell.get("source"):
                if isinstance(cell["source"], list) and isinstance(cell["source"][-1], str):
                    cell["source"][-1] = cell["source"][-1].rstrip("\r\n")
            elif name == "other-kernel":
                document["metadata"]["kernelspec"]["language"] = "R"
                document["metadata"]["language_info"]["name"] = "R"
            elif name == "nbformat-3":
                document["nbformat"] = 3
            elif name == "ascii-escapes":
                layout["ensure_ascii"] = True
            elif name.startswith("indent-"):
                layout["indent"] = int(name.removeprefix("indent-"))
            else:
                raw.append(name)  # byte-level, after encoding
        except (AttributeError, KeyError, TypeError, ValueError):
            continue
    text = json.dumps(
        document, indent=layout["indent"] or None, **{"ensure_ascii": layout["ensure_ascii"]}
    )
    out = text.encode("utf-8") + b"\n"
    for name in raw:
        if name == "duplicate-source-key":
            out = out.replace(b'"source": [', b'"source": ["ignored = 1\\n"], "source": [', 1)
        elif name == "bom":
            out = b"\xef\xbb\xbf" + out
        elif name == "truncate":
            out = out[: rng.randrange(len(out))]
        elif name == "flip-byte" and out:
            at = rng.randrange(len(out))
            out = out[:at] + bytes([out[at] ^ (1 << rng.randrange(8))]) + out[at + 1 :]
        elif name == "trailing-garbage":
            out += b"}"
    return out, names


def generate_notebook_mutants(count: int, seed: int, root: Path) -> list[Case]:
    files = example_files(root)
    rng = random.Random(seed)
    cases = []
    for _ in range(count):
        data, path = rng.choice(files)
        mutant, names = mutate_notebook(data, rng)
        cases.append(Case(mutant, str(Path(path).with_suffix(".ipynb")), False, "+".join(names)))
    return cases


# ------------------------------------------------------------------ reduction


def signature(kind: str, detail: str) -> str:
    """What two failures must share to count as the same bug (for reduction and variety)."""
    if kind in ("crash", "fix-crash", "worker-died"):
        return f"{kind}:{detail.split(':', 1)[0]}"
    if kind == "TRV002":
        # "Internal error in TRV101 (...): RecursionError: ..." or "... in X recognition: ..."
        match = re.search(r": (\w+(?:Error|Exception|Exit|Interrupt))\b", detail)
        where = "recognition" if "recognition" in detail else "rule"
        return f"{kind}:{where}:{match.group(1) if match else detail[:40]}"
    if kind == "fix-rejected":
        return f"{kind}:{detail.split(':', 1)[0]}"
    return kind


def reduce(case: Case, wanted: str, pool: Pool, budget: int, seconds: float) -> tuple[Case, int]:
    """A smaller case with the same failure signature: greedy chunk deletion over lines,
    then over bytes, at most ``budget`` checks and about ``seconds`` seconds."""
    tries = 0
    stop = time.monotonic() + seconds

    def still(data: bytes) -> bool:
        nonlocal tries
        tries += 1
        if time.monotonic() > stop:
            budget_left[0] = False
            return False
        outcome = pool.run(Case(data, case.path, case.as_text, case.origin))
        return any(signature(k, d) == wanted for k, d in outcome.problems)

    budget_left = [True]
    data = case.data
    for unit in ("lines", "bytes"):
        parts = (
            data.splitlines(keepends=True)
            if unit == "lines"
            else [data[i : i + 1] for i in range(len(data))]
        )
        chunk = max(len(parts) // 2, 1)
        while chunk >= 1 and tries < budget and budget_left[0]:
            start, removed = 0, False
            while start < len(parts) and tries < budget and budget_left[0]:
                candidate = parts[:start] + parts[start + chunk :]
                if candidate and still(b"".join(candidate)):
                    parts, removed = candidate, True
                else:
                    start += chunk
            if not removed:
                chunk //= 2
        data = b"".join(parts)
    return Case(data, case.path, case.as_text, case.origin), tries


# ------------------------------------------------------------------ the run


def snapshot(ref: str, dest: Path) -> str:
    """Extract ``lint_rules/`` at git ``ref`` into ``dest`` (``run.py --toolret-ref``'s
    snapshot) and put it first on ``sys.path`` too (which spawned workers inherit; it
    comes before an editable install). Returns the commit: edits to the working tree
    during the run do not change what is fuzzed."""
    commit, _ = snapshot_toolret(ref, dest)
    sys.path.insert(0, str(dest))
    return commit


@dataclass
class Tally:
    name: str
    cases: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    """Cases with at least one problem of the class."""
    examples: dict[str, dict[str, list[Case]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(list))
    )
    """class → signature → failing cases (a few, smallest first kept)."""
    slowest: float = 0.0
    seconds: float = 0.0
    unconfirmed: int = 0
    """Cases over the timeout once that ran in time when checked again."""
    families: Counter[str] = field(default_factory=Counter)
    """Cases per family (programs: the preamble's, read off the path)."""


def run_half(name: str, cases: Sequence[Case], pool: Pool, log: Callable[[str], None]) -> Tally:
    tally = Tally(name)
    started = time.monotonic()
    outcomes = list(pool.map(cases))
    for index, (case, outcome) in enumerate(zip(cases, outcomes, strict=True), 1):
        if any(kind in ("hang", "fix-hang") for kind, _ in outcome.problems):
            # Confirm alone (the machine may have been busy): a hang must happen twice.
            again = pool.run(case)
            if not any(kind in ("hang", "fix-hang") for kind, _ in again.problems):
                outcome.problems = [p for p in outcome.problems if p[0] not in ("hang", "fix-hang")]
                tally.unconfirmed += 1
        tally.cases += 1
        tally.families[_family(case.path)] += 1
        tally.slowest = max(tally.slowest, outcome.check_seconds or 0.0)
        for kind in {k for k, _ in outcome.problems}:
            tally.counts[kind] += 1
        for kind, detail in outcome.problems:
            bucket = tally.examples[kind][signature(kind, detail)]
            if case not in bucket:
                bucket.append(case)
                bucket.sort(key=lambda c: len(c.data))
                del bucket[5:]
        if index % 500 == 0:
            log(f"{name}: {index}/{len(cases)} checked ({time.monotonic() - started:.0f} s)")
    tally.seconds = time.monotonic() - started
    return tally


def write_reproducers(
    tally: Tally,
    pool: Pool,
    out: Path,
    per_class: int,
    budget: tuple[int, float],
    log: Callable[[str], None],
) -> list[str]:
    lines = []
    for kind in CLASSES:
        signatures = tally.examples.get(kind, {})
        # One per signature first, then more of the commonest ones.
        chosen = [(sig, cases[0]) for sig, cases in signatures.items()][:per_class]
        for sig, cases in sorted(signatures.items(), key=lambda item: -len(item[1])):
            chosen += [(sig, c) for c in cases[1:]][: per_class - len(chosen)]
        for number, (sig, case) in enumerate(chosen, 1):
            small, tries = case, 0
            if budget[0] and kind not in ("hang", "fix-hang", "worker-died"):
                small, tries = reduce(case, sig, pool, *budget)
            directory = out / tally.name / kind
            directory.mkdir(parents=True, exist_ok=True)
            stem = directory / f"{number}"
            stem = stem.with_suffix(Path(small.path).suffix or ".py")
            stem.write_bytes(small.data)
            stem.with_suffix(".txt").write_text(
                f"path: {small.path}\nchecked as: {'text' if small.as_text else 'bytes'}\n"
                f"signature: {sig}\norigin: {small.origin}\n"
                f"size: {len(case.data)} -> {len(small.data)} bytes ({tries} reduction checks)\n",
                encoding="utf-8",
            )
            lines.append(f"  {kind:<19} {sig:<48} {stem} ({len(small.data)} B)")
            log(f"wrote {stem}")
    return lines


def _family(path: str) -> str:
    """The family of a generated program's path (``test_fuzz.program``); a mutant's file."""
    if path.startswith("functions/"):
        return "polyai"
    return path.removesuffix("_tools.py") if path.endswith("_tools.py") else Path(path).name


def report(tally: Tally) -> str:
    rows = [f"== {tally.name}: {tally.cases} cases in {tally.seconds:.0f} s "
            f"(slowest check {tally.slowest:.2f} s; "
            f"{tally.unconfirmed} over the timeout once but not when run again)"]  # fmt: skip
    if tally.name == "programs":
        rows.append(
            "  per family: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.families.items()))
        )
    for kind in CLASSES:
        signatures = tally.examples.get(kind, {})
        rows.append(f"  {kind:<19} {tally.counts[kind]:>6}")
        for sig, _ in sorted(signatures.items(), key=lambda item: -len(item[1])):
            if sig != kind:
                rows.append(f"      {sig}")
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=10_000, help="generated programs")
    parser.add_argument("--mutants", type=int, default=10_000, help="mutants of examples/")
    parser.add_argument(
        "--notebooks", type=int, default=1_000, help="notebook mutants of examples/"
    )
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per check")
    parser.add_argument("--examples", type=Path, default=REPO / "examples")
    parser.add_argument("--out", type=Path, default=Path("campaign-reproducers"))
    parser.add_argument("--per-class", type=int, default=3, help="reproducers per class")
    parser.add_argument("--reduce-budget", type=int, default=300, help="checks per reproducer")
    parser.add_argument(
        "--reduce-seconds", type=float, default=30.0, help="time per reproducer's reduction"
    )
    parser.add_argument(
        "--toolret-ref", metavar="REF", help="fuzz lint_rules/ as committed at this git ref"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="progress on stderr")
    args = parser.parse_args(argv)

    def log(message: str) -> None:
        if args.verbose:
            print(message, file=sys.stderr, flush=True)

    started = time.monotonic()
    scratch = tempfile.TemporaryDirectory(prefix="toolret-campaign-")
    code = "the working tree"
    if args.toolret_ref:
        code = f"{args.toolret_ref} = {snapshot(args.toolret_ref, Path(scratch.name))[:10]}"
    pool = Pool(args.jobs, args.timeout)
    tallies = []
    try:
        if args.programs:
            programs = generate_programs(args.programs, args.seed, args.jobs, log)
            log(f"generated in {time.monotonic() - started:.0f} s")
            tallies.append(run_half("programs", programs, pool, log))
        if args.mutants:
            mutants = generate_mutants(args.mutants, args.seed, args.examples)
            tallies.append(run_half("mutants", mutants, pool, log))
        if args.notebooks:
            notebooks = generate_notebook_mutants(args.notebooks, args.seed, args.examples)
            tallies.append(run_half("notebooks", notebooks, pool, log))
        written = []
        for tally in tallies:
            written += write_reproducers(
                tally,
                pool,
                args.out,
                args.per_class,
                (args.reduce_budget, args.reduce_seconds),
                log,
            )
    finally:
        pool.close()
        scratch.cleanup()
    print(f"toolret fuzz campaign: seed {args.seed}, {args.jobs} jobs, timeout {args.timeout:g} s, "
          f"{time.monotonic() - started:.0f} s in all")  # fmt: skip
    print(f"toolret code: {code} (lint_rules from {', '.join(sorted(WHERE))})")
    for tally in tallies:
        print(report(tally))
    if written:
        print(f"reproducers (reduced; each with a .txt naming its path) in {args.out}/:")
        print("\n".join(written))
    failed = sum(t.counts[k] for t in tallies for k in CLASSES if k != "fix-rejected")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
