"""Benchmark toolret against ruff, flake8 + bugbear, Fixit and a bare LibCST parse loop.

Usage: python benchmarks/run.py [--runs N] [--corpus stdlib|tools|agents|both|all]
       [--mirrors DIR] [--skip-fixit] [--quick]

Builds its corpora in a scratch directory (a copy of the running Python's
standard library without site-packages, a generated tool-heavy tree, and with
``agents`` the real agent code of ``agent_corpus.py``'s pinned repositories, from
``--mirrors`` or GitHub), runs
every tool on each as a whole process (round-robin, N times; Fixit once),
and prints per corpus: median wall time, min–max, user+sys CPU and the peak
RSS of the largest single process, then the ratios the performance issue
targets with ✓/✗. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import importlib.util
import io
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import corpora
import measure

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
INSTALL_HINT = "not installed (pip install -e '.[bench]')"
DIAGNOSTIC_LINE = re.compile(r"^\S.*?(?::\d+:\d+:|@\d+:\d+ )", re.MULTILINE)
FIXIT_CONFIG = """\
# Written by benchmarks/run.py: run only the benchmark's equivalent rule.
[tool.fixit]
root = true
disable = ["fixit.rules"]
enable = ["fixit_rules.return_int:ReturnIntLiteral"]
"""

RUFF_ARGS = ("--select", "B", "--no-cache", "--exit-zero")
FLAKE8_ARGS = ("--isolated", "--select", "B", "--exit-zero", ".")
TIMES = "\N{MULTIPLICATION SIGN}"

COLD, WARM, PRIMING, RUFF, FLAKE8, FIXIT, PARSE, ONE_FILE = (
    "toolret-cold",
    "toolret-warm",
    "toolret-priming",
    "ruff",
    "flake8",
    "fixit",
    "parse",
    "toolret-one-file",
)
EDIT_MARK = "\n# edited by benchmarks/run.py\n"
"""What the one-changed-file measure appends to (and then removes from) its file."""


@dataclass
class Tool:
    key: str
    label: str
    argv: list[str] | None
    """None when the tool is not available (``missing`` says why)."""
    runs: int
    ok_codes: frozenset[int] = frozenset({0})
    env: dict[str, str] | None = None
    missing: str = ""
    series: measure.Series = field(default_factory=measure.Series)
    failure: str = ""
    before: Callable[[], None] | None = None
    """Run before each sample, untimed (the one-changed-file measure edits its file);
    a tool with one runs after every other tool's rounds."""

    @property
    def usable(self) -> bool:
        return self.argv is not None and not self.failure

    @property
    def measured(self) -> bool:
        return bool(self.series.samples) and not self.failure


# ---------------------------------------------------------------------------
# Finding the tools
# ---------------------------------------------------------------------------


def executable(name: str) -> str | None:
    """``name`` next to the running interpreter (its venv), else on PATH."""
    for folder in (Path(sys.executable).parent, Path(sys.executable).resolve().parent):
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which(name)


def has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def child_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for every timed process.

    ``PYTHONDONTWRITEBYTECODE`` is dropped so that each Python tool, like an
    installed one, imports from cached bytecode after its first run instead
    of recompiling its modules on every start.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra or {})
    return env


def toolret_supports_no_cache(toolret: str, env: dict[str, str]) -> bool:
    try:
        help_text = subprocess.run(
            [toolret, "check", "--help"], capture_output=True, text=True, timeout=60, env=env
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "--no-cache" in help_text


def snapshot_toolret(ref: str, dest: Path) -> tuple[str, dict[str, str]]:
    """Extract ``lint_rules/`` as committed at ``ref`` into ``dest``.

    Returns the commit and the environment that makes the installed ``toolret``
    import the snapshot (``PYTHONPATH`` comes before an editable install), so
    that edits to the working tree during a long run do not change what is
    measured half-way.
    """
    commit = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--verify", f"{ref}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit, "lint_rules"],
        capture_output=True,
        check=True,
    ).stdout
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):  # Python 3.10.12+, 3.11.4+
            tar.extractall(dest, filter="data")
        else:  # pragma: no cover - our own repository's archive
            tar.extractall(dest)
    pythonpath = os.pathsep.join(p for p in (str(dest), os.environ.get("PYTHONPATH")) if p)
    env = child_env({"PYTHONPATH": pythonpath})
    where = subprocess.run(
        [sys.executable, "-c", "import lint_rules; print(lint_rules.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=dest.parent,
        check=True,
    ).stdout.strip()
    if not Path(where).resolve().is_relative_to(dest.resolve()):
        raise RuntimeError(f"the snapshot is not imported first (lint_rules from {where})")
    return commit, env


def make_tools(runs: int, skip_fixit: bool, toolret_env: dict[str, str] | None) -> list[Tool]:
    concise = ["--output-format", "concise"]
    tools: list[Tool] = []
    env = child_env()

    toolret = executable("toolret")
    if toolret is None:
        for key, label in ((COLD, "toolret cold"), (WARM, "toolret warm"), (PRIMING, "")):
            if label:
                tools.append(Tool(key, label, None, runs, missing=INSTALL_HINT))
    else:
        tenv = toolret_env or env
        no_cache = ["--no-cache"] if toolret_supports_no_cache(toolret, tenv) else []
        base = [toolret, "check", ".", "--exit-zero", *concise]
        tools += [
            Tool(COLD, "toolret cold (--no-cache)", [*base, *no_cache], runs, env=tenv),
            Tool(PRIMING, "toolret priming run (writes cache)", base, 1, env=tenv),
            Tool(WARM, "toolret warm (cache)", base, runs, env=tenv),
        ]

    ruff = executable("ruff")
    tools.append(
        Tool(
            RUFF,
            "ruff --select B",
            None if ruff is None else [ruff, "check", ".", "--isolated", *RUFF_ARGS, *concise],
            runs,
            env=env,
            missing=INSTALL_HINT,
        )
    )

    flake8_ok = has_module("flake8") and has_module("bugbear")
    tools.append(
        Tool(
            FLAKE8,
            "flake8 + bugbear (--select B)",
            [sys.executable, str(HERE / "flake8_bugbear.py"), *FLAKE8_ARGS] if flake8_ok else None,
            runs,
            env=env,
            missing=INSTALL_HINT,
        )
    )

    if skip_fixit:
        tools.append(Tool(FIXIT, "Fixit (1 rule)", None, 1, missing="skipped (--skip-fixit)"))
    else:
        fixit = executable("fixit")
        pythonpath = os.pathsep.join(p for p in (str(HERE), os.environ.get("PYTHONPATH")) if p)
        tools.append(
            Tool(
                FIXIT,
                "Fixit (1 rule, 1 run)",
                None if fixit is None else [fixit, "lint", "."],
                1,
                # Fixit's exit code flags violations (1) and files it could not parse (2).
                ok_codes=frozenset({0, 1, 2, 3}),
                env=child_env({"PYTHONPATH": pythonpath}),
                missing=INSTALL_HINT,
            )
        )

    tools.append(
        Tool(
            PARSE,
            "bare LibCST parse (1 process)",
            [sys.executable, str(HERE / "parse_loop.py"), "."] if has_module("libcst") else None,
            runs,
            env=env,
            missing="not installed (pip install libcst)",
        )
    )
    return tools


def versions() -> list[str]:
    found = []
    for dist in ("toolret", "libcst", "ruff", "flake8", "flake8-bugbear", "fixit"):
        try:
            found.append(f"{dist} {importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(f"{dist} -")
    return found


def repo_state() -> str:
    try:
        result = subprocess.run(
            ["git", "-C", str(REPO), "describe", "--always", "--dirty", "--abbrev=10"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return result.stdout.strip() or "unknown"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------


def output_summary(tool: Tool) -> str:
    if not tool.series.samples:
        return ""
    sample = tool.series.samples[-1]
    if tool.key == PARSE:
        return sample.stdout.strip().splitlines()[-1] if sample.stdout.strip() else ""
    return f"{len(DIAGNOSTIC_LINE.findall(sample.stdout))} diagnostics"


def run_tool_once(tool: Tool, root: Path, log: Callable[[str], None]) -> None:
    assert tool.argv is not None
    try:
        sample = measure.run(tool.argv, root, tool.env)
    except OSError as error:
        tool.failure = f"could not start: {error}"
        log(f"warning: {tool.label}: {tool.failure}")
        return
    if sample.returncode not in tool.ok_codes or "Traceback (most recent call last)" in (
        sample.stderr
    ):
        tail = "\n".join(sample.stderr.strip().splitlines()[-8:])
        tool.failure = f"failed (exit {sample.returncode})"
        log(f"warning: {tool.label}: {tool.failure}\n{tail}")
        return
    tool.series.samples.append(sample)
    log(f"  {tool.label}: {sample.wall:.2f} s")


def bench_corpus(
    info: corpora.CorpusInfo,
    args: argparse.Namespace,
    toolret_env: dict[str, str] | None,
    log: Callable[[str], None],
) -> tuple[list[Tool], str]:
    root = info.root
    (root / "fixit.toml").write_text(FIXIT_CONFIG, encoding="utf-8")
    tools = make_tools(args.runs, args.skip_fixit, toolret_env)
    by_key = {t.key: t for t in tools}
    load_before = load_average()

    notes: list[str] = []
    priming = by_key.get(PRIMING)
    if priming is not None and priming.usable:
        log(f"[{info.name}] priming toolret's cache")
        run_tool_once(priming, root, log)
        cache = root / ".toolret_cache"
        if not cache.exists():
            notes.append(
                "no .toolret_cache/ was written: the cache is not implemented yet, "
                "so 'warm' is another cold run"
            )

    if info.name == "tools" and priming is not None and priming.usable:
        tools.append(one_file_tool(root, priming, args.runs))
    rounds = max(t.runs for t in tools)
    for index in range(rounds):
        log(f"[{info.name}] round {index + 1}/{rounds}")
        for tool in tools:
            if tool.key == PRIMING or not tool.usable or len(tool.series.samples) >= tool.runs:
                continue
            if tool.before is None:
                run_tool_once(tool, root, log)
    for tool in tools:  # after the others: its edits would make a warm run check a file
        if tool.before is not None and tool.usable:
            log(f"[{info.name}] {tool.label}")
            try:
                for _ in range(tool.runs):
                    tool.before()
                    run_tool_once(tool, root, log)
            finally:
                _restore(root)
    notes.append(f"load average before {load_before}, after {load_average()}")
    return tools, "; ".join(notes)


def changed_file(root: Path) -> Path:
    """The file the one-changed-file measure edits: of the tool files (their text says
    ``tool``), the one of median size, by path (the same file for the same corpus)."""
    candidates = sorted(
        (p for p in root.rglob("*.py") if b"tool" in p.read_bytes()), key=lambda p: str(p)
    )
    if not candidates:
        raise RuntimeError(f"no tool file under {root}")
    by_size = sorted(candidates, key=lambda p: (p.stat().st_size, str(p)))
    return by_size[len(by_size) // 2]


_EDITED: dict[Path, str] = {}


def one_file_tool(root: Path, priming: Tool, runs: int) -> Tool:
    """``toolret check <one file>`` with the cache primed and that file changed before each
    run (a comment appended, then removed): what a pre-commit hook runs per commit."""
    assert priming.argv is not None
    target = changed_file(root)
    original = target.read_text(encoding="utf-8")
    _EDITED[target] = original
    state = {"edited": False}

    def edit() -> None:
        state["edited"] = not state["edited"]
        target.write_text(original + EDIT_MARK if state["edited"] else original, encoding="utf-8")

    argv = [a for a in priming.argv if a != "."]
    argv.insert(2, str(target.relative_to(root)))
    lines = original.count("\n")
    label = f"toolret one changed file ({lines} lines, cache warm)"
    return Tool(ONE_FILE, label, argv, runs, env=priming.env, before=edit)


def _restore(root: Path) -> None:
    for path, text in list(_EDITED.items()):
        if path.is_relative_to(root):
            path.write_text(text, encoding="utf-8")
            del _EDITED[path]


# ---------------------------------------------------------------------------
# Reporting
# ---------------------------------------------------------------------------


def fmt_s(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.3f} s" if seconds < 1 else f"{seconds:.2f} s"


def fmt_mb(mb: float | None) -> str:
    return "-" if mb is None else f"{mb:.0f}"


def table(rows: Sequence[Sequence[str]], align: str) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        cells = [
            cell.ljust(w) if a == "l" else cell.rjust(w)
            for cell, w, a in zip(row, widths, align, strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def tool_table(tools: Sequence[Tool]) -> list[str]:
    rows = [["tool", "runs", "median", "min–max", "CPU u+s", "peak MB", "output"]]
    for tool in tools:
        if tool.argv is None:
            rows.append([tool.label, "", "", "", "", "", tool.missing])
            continue
        if tool.failure and not tool.series.samples:
            rows.append([tool.label, "", "", "", "", "", tool.failure])
            continue
        s = tool.series
        rows.append(
            [
                tool.label,
                str(len(s.samples)),
                fmt_s(s.median),
                f"{fmt_s(s.low)[:-2]}–{fmt_s(s.high)}" if len(s.samples) > 1 else "",
                fmt_s(s.cpu),
                fmt_mb(s.peak_rss_mb),
                output_summary(tool) + (f" [{tool.failure}]" if tool.failure else ""),
            ]
        )
    return table(rows, "lrrrrrl")


@dataclass(frozen=True)
class Target:
    name: str
    value: float | None
    unit: str
    """``x`` for a ratio, ``s`` or ``MB`` for absolute values."""
    goal: str
    passed: bool | None


def ratio(tools: dict[str, Tool], top: str, bottom: str) -> float | None:
    a, b = tools.get(top), tools.get(bottom)
    if a is None or b is None or not a.measured or not b.measured:
        return None
    return a.series.median / b.series.median


def targets(corpus: str, tools: dict[str, Tool]) -> list[Target]:
    def check(value: float | None, ok: Callable[[float], bool]) -> bool | None:
        return None if value is None else ok(value)

    cold_ruff = ratio(tools, COLD, RUFF)
    fixit_cold = ratio(tools, FIXIT, COLD)
    cold_parse = ratio(tools, COLD, PARSE)
    warm = tools.get(WARM)
    warm_s = warm.series.median if warm is not None and warm.measured else None
    one = tools.get(ONE_FILE)
    one_s = one.series.median if one is not None and one.measured else None
    peaks = [
        t.series.peak_rss_mb
        for key in (COLD, WARM, PRIMING)
        if (t := tools.get(key)) is not None and t.measured and t.series.peak_rss_mb is not None
    ]
    peak = max(peaks) if peaks else None
    flake8_cold = ratio(tools, FLAKE8, COLD)

    def at_most(limit: float) -> Callable[[float], bool]:
        return lambda v: v <= limit

    def at_least(limit: float) -> Callable[[float], bool]:
        return lambda v: v >= limit

    peak_target = Target("toolret peak memory", peak, "MB", "≤ 200 MB", check(peak, at_most(200)))
    if corpus == "agents":
        cold, parse = tools.get(COLD), tools.get(PARSE)
        cold_cpu = cold.series.cpu if cold is not None and cold.measured else None
        parse_cpu = parse.series.cpu if parse is not None and parse.measured else None
        cpu_parse = cold_cpu / parse_cpu if cold_cpu is not None and parse_cpu else None
        return [
            Target(
                "toolret cold / bare LibCST parse",
                cold_parse,
                "x",
                f"≤ 0.4{TIMES}",
                check(cold_parse, at_most(0.4)),
            ),
            Target(
                "  CPU (user+sys)", cpu_parse, "x", f"≤ 0.6{TIMES}", check(cpu_parse, at_most(0.6))
            ),
            Target("toolret cold / ruff", cold_ruff, "x", "-", None),
            Target("toolret warm", warm_s, "s", "-", None),
            peak_target,
        ]
    if corpus == "stdlib":
        return [
            Target(
                "toolret cold / ruff",
                cold_ruff,
                "x",
                f"≤ 1.0{TIMES}",
                check(cold_ruff, at_most(1.0)),
            ),
            Target(
                "Fixit / toolret cold",
                fixit_cold,
                "x",
                f"≥ 50{TIMES}",
                check(fixit_cold, at_least(50)),
            ),
            Target("toolret cold / bare LibCST parse", cold_parse, "x", "-", None),
            Target("flake8 + bugbear / toolret cold", flake8_cold, "x", "-", None),
            Target(
                "toolret warm, unchanged tree",
                warm_s,
                "s",
                "≤ 0.25 s",
                check(warm_s, at_most(0.25)),
            ),
            peak_target,
        ]
    return [
        Target(
            "toolret cold / bare LibCST parse",
            cold_parse,
            "x",
            f"≤ 0.7{TIMES}",
            check(cold_parse, at_most(0.7)),
        ),
        Target(
            "Fixit / toolret cold", fixit_cold, "x", f"≥ 5{TIMES}", check(fixit_cold, at_least(5))
        ),
        Target("toolret cold / ruff", cold_ruff, "x", "-", None),
        Target("flake8 + bugbear / toolret cold", flake8_cold, "x", "-", None),
        Target("toolret warm", warm_s, "s", "-", None),
        Target(
            "toolret one changed file",
            one_s,
            "s",
            "≤ 0.25 s",
            check(one_s, at_most(0.25)),
        ),
        peak_target,
    ]


def target_table(items: Sequence[Target]) -> list[str]:
    rows = [["measure", "measured", "target", ""]]
    for t in items:
        if t.value is None:
            value = "n/a"
        elif t.unit == "x":
            value = f"{t.value:.3f}{TIMES}" if t.value < 10 else f"{t.value:.1f}{TIMES}"
        elif t.unit == "s":
            value = fmt_s(t.value)
        else:
            value = f"{t.value:.0f} MB"
        mark = {True: "✓", False: "✗", None: ""}[t.passed]
        if t.passed is None and t.goal != "-":
            mark = "?"
        rows.append([t.name, value, t.goal, mark])
    return table(rows, "lrll")


def report(info: corpora.CorpusInfo, tools: list[Tool], notes: str) -> list[str]:
    by_key = {t.key: t for t in tools}
    lines = [
        f"== {info.name} corpus: {info.files} files, {info.lines:,} lines",
        f"   {info.description}",
        *tool_table(tools),
        "",
        *target_table(targets(info.name, by_key)),
    ]
    if notes:
        lines.append(f"note: {notes}")
    return lines


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time toolret against ruff, flake8 + bugbear, Fixit and a bare "
        "LibCST parse loop on the stdlib and a generated tool-heavy corpus."
    )
    parser.add_argument("--runs", type=int, default=None, help="runs per tool (default 5; Fixit 1)")
    parser.add_argument(
        "--corpus",
        choices=("stdlib", "tools", "agents", "both", "all"),
        default="both",
        help="both: stdlib and tools; all: the three",
    )
    parser.add_argument(
        "--mirrors",
        type=Path,
        default=None,
        help="local bare mirrors of the agent corpus's repositories (else fetched from GitHub)",
    )
    parser.add_argument("--skip-fixit", action="store_true", help="do not run Fixit (slow)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="smoke test: 1 run each, ~20k-line corpora (a stdlib subset, a small generated tree)",
    )
    parser.add_argument(
        "--lines",
        type=int,
        default=None,
        help="lines of the generated corpus (default 160000; --quick: 20000)",
    )
    parser.add_argument("--seed", type=int, default=20240, help="seed of the generated corpus")
    parser.add_argument(
        "--workdir", type=Path, default=None, help="build the corpora here and keep them"
    )
    parser.add_argument(
        "--toolret-ref",
        metavar="REF",
        default=None,
        help="time toolret as committed at this git ref (a snapshot of lint_rules/ first on "
        "PYTHONPATH) instead of the working tree, which may change during a long run",
    )
    parser.add_argument(
        "--skip-lsp",
        action="store_true",
        help="do not run the language-server benchmark (lsp_latency.py) after the corpora",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="log every run")
    args = parser.parse_args(argv)
    if args.runs is None:
        args.runs = 1 if args.quick else 5
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.lines is None:
        args.lines = 20_000 if args.quick else 160_000
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()

    def log(message: str) -> None:
        if args.verbose or not message.startswith("  "):
            print(message, file=sys.stderr, flush=True)

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="toolret-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    toolret_env: dict[str, str] | None = None
    source = f"the working tree of {REPO} ({repo_state()})"
    if args.toolret_ref is not None:
        try:
            commit, toolret_env = snapshot_toolret(args.toolret_ref, workdir / "toolret-src")
        except (OSError, subprocess.CalledProcessError, RuntimeError, tarfile.TarError) as error:
            print(f"error: cannot snapshot toolret at {args.toolret_ref}: {error}", file=sys.stderr)
            if args.workdir is None:
                corpora.remove_tree(workdir)
            return 2
        source = f"a snapshot of {args.toolret_ref} = {commit[:10]}"
        args.toolret_ref = commit  # the language-server table times the same commit

    header = [
        f"toolret benchmark, {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}",
        f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}",
        f"versions: {', '.join(versions())}",
        f"toolret code: {source}",
        f"runs: {args.runs} per tool (Fixit 1), round-robin; wall = spawn to exit; "
        "CPU = user+sys of the process tree; peak = largest single process",
    ]
    print("\n".join(header), flush=True)

    wanted = {"both": ("stdlib", "tools"), "all": ("stdlib", "tools", "agents")}.get(
        args.corpus, (args.corpus,)
    )
    try:
        for name in wanted:
            dest = workdir / name
            corpora.remove_tree(dest)
            dest.mkdir(parents=True)
            log(f"[{name}] building corpus in {dest}")
            if name == "stdlib":
                info = corpora.copy_stdlib(dest, max_lines=20_000 if args.quick else None)
            elif name == "agents":
                import agent_corpus

                info = agent_corpus.materialise(dest, args.mirrors)
            else:
                info = corpora.generate_tool_corpus(dest, args.lines, args.seed)
            tools, notes = bench_corpus(info, args, toolret_env, log)
            print()
            print("\n".join(report(info, tools, notes)), flush=True)
        if not args.skip_lsp:
            print()
            language_server(args, workdir)
    finally:
        if args.workdir is None:
            corpora.remove_tree(workdir)
    print(f"\n(total {time.perf_counter() - started:.0f} s)")
    return 0


def language_server(args: argparse.Namespace, workdir: Path) -> None:
    """The language server's table beside the CLI's: ``lsp_latency.py`` with this run's
    runs and ref (``--quick``: a 300-line file in a small workspace)."""
    if not has_module("pygls"):
        print("language server: not run, pygls is not installed (pip install -e '.[lsp]')")
        return
    import lsp_latency

    argv = ["--runs", str(args.runs), "--workdir", str(workdir / "lsp")]
    if args.quick:
        argv += ["--lines", "300", "--apps", "3", "--settle", "0.5"]
    if args.toolret_ref is not None:
        argv += ["--toolret-ref", args.toolret_ref]
    sys.stdout.flush()
    if lsp_latency.main(argv) != 0:
        print("language server: the benchmark failed (its error is above)")


if __name__ == "__main__":
    sys.exit(main())
