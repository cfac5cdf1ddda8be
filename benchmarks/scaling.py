"""Does the time to check one file grow linearly with what is in it? (issue 28, item 5)

One file with N tool functions, each with a finding, is checked at N and at 10 N;
a notebook with N cells, one tool in each, likewise. Linear growth is a ratio of
about 10 between the two sizes (less where fixed start-up costs weigh); the
issue's bound is under 10 at 1,000 → 10,000 tools. Three columns, each the
median of ``--runs`` fresh processes: ``engine`` (``check_bytes`` alone, timed
inside the process), ``check`` (``toolret check`` as a user runs it) and
``--diff`` (the fix computed, not written). ``--toolret DIR`` times the
``lint_rules/`` in DIR (a ``git archive`` of another commit) instead of this
checkout's, for before/after::

    python benchmarks/scaling.py               # N = 1000 and 10000, 3 runs
    python benchmarks/scaling.py --small 200 --runs 1
    python benchmarks/scaling.py --toolret /tmp/base   # lint_rules/ of another commit

A benchmark, not a test: nothing in ``tests/`` reads it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def browser_use(n: int) -> str:
    head = "from browser_use import Tools\n\ntools = Tools()\n"
    action = (
        '\n\n@tools.action("Count rows {i}")\n'
        "async def count_rows_{i}(browser_session):\n"
        "    rows = await browser_session.get_rows({i})\n"
        "    return len(rows)\n"
    )
    return head + "".join(action.format(i=i) for i in range(n))


def mcp(n: int) -> str:
    head = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('shop')\n"
    tool = "\n\n@mcp.tool\ndef lookup_{i}(sku: str) -> str:\n    return {{'sku': sku, 'n': {i}}}\n"
    return head + "".join(tool.format(i=i) for i in range(n))


def polyai_branches(n: int) -> str:
    """One PolyAI function with N returns (each an int: TRV101 with a fix)."""
    body = "".join(f"    if conv.state.n == {i}:\n        return {i}\n" for i in range(n))
    return f"def count_bookings(conv):\n{body}    return 'none'\n"


def notebook(n: int) -> str:
    setup = "from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP('shop')"
    tool = "@mcp.tool\ndef lookup_{i}(sku: str) -> str:\n    return {{'sku': sku, 'n': {i}}}"
    cells = [setup, *(tool.format(i=i) for i in range(n))]
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "metadata": {}, "outputs": [], "source": source}
                for source in cells
            ],
            "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


FILES: dict[str, tuple[str, Callable[[int], str]]] = {
    "browser-use actions": ("actions.py", browser_use),
    "MCP tools": ("server.py", mcp),
    "PolyAI returns in one function": ("functions/count_bookings.py", polyai_branches),
    "notebook cells, one MCP tool each": ("tools.ipynb", notebook),
}

_ENGINE = """\
import sys, time
from lint_rules.engine import check_bytes
data = open(sys.argv[1], "rb").read()
start = time.perf_counter()
found = check_bytes(data, sys.argv[2])
print(time.perf_counter() - start, len(found))
"""


def _environment(toolret: Path) -> dict[str, str]:
    paths = [str(toolret), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def _time(runs: int, work: Callable[[], float]) -> float:
    return statistics.median(work() for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--small", type=int, default=1000, help="N (the large size is 10 N)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--toolret", type=Path, default=ROOT, help="the directory holding lint_rules/ to time"
    )
    options = parser.parse_args()
    env = _environment(options.toolret.resolve())
    print(f"toolret from {options.toolret.resolve()}")
    print(
        f"{'what':36} {'N':>6} {'findings':>8} {'engine s':>9} {'ratio':>6}"
        f" {'check s':>8} {'ratio':>6} {'--diff s':>9} {'ratio':>6}"
    )
    with tempfile.TemporaryDirectory() as temporary:
        where = Path(temporary)
        for title, (path, make) in FILES.items():
            before: tuple[float, float, float] | None = None
            for n in (options.small, options.small * 10):
                target = where / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(make(n), encoding="utf-8")
                findings = 0

                def engine(target: Path = target, path: str = path) -> float:
                    nonlocal findings
                    done = subprocess.run(
                        [sys.executable, "-c", _ENGINE, str(target), path],
                        env=env,
                        capture_output=True,
                        check=True,
                        text=True,
                    )
                    elapsed, count = done.stdout.split()
                    findings = int(count)
                    return float(elapsed)

                def cli(*extra: str, path: str = path) -> float:
                    args = ["check", "--no-cache", "--isolated", "--exit-zero", "-q", *extra, path]
                    start = time.perf_counter()
                    done = subprocess.run(
                        [sys.executable, "-m", "lint_rules", *args],
                        cwd=where,
                        env=env,
                        capture_output=True,
                    )
                    if done.returncode not in (0, 1):
                        raise SystemExit(f"toolret failed: {done.stderr.decode()[-2000:]}")
                    return time.perf_counter() - start

                times = (
                    _time(options.runs, engine),
                    _time(options.runs, cli),
                    _time(options.runs, lambda: cli("--diff")),
                )
                cells = [f"{title:36} {n:6} {findings:8}"]
                for index, (seconds, width) in enumerate(zip(times, (9, 8, 9), strict=True)):
                    ratio = "" if before is None else f"{seconds / before[index]:6.2f}"
                    cells.append(f"{seconds:{width}.3f} {ratio:>6}")
                print(" ".join(cells), flush=True)
                before = times
                target.unlink()


if __name__ == "__main__":
    main()
