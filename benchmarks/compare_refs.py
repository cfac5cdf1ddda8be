"""Compare toolret's diagnostics (and optionally its speed) at two git refs on your own trees.

Usage: python benchmarks/compare_refs.py --base REF [--new REF|worktree] [--select CODES]
       [--max-list N] [--out DIR] [--time N] DIR [DIR ...]

A rule change should only add true findings and remove false ones, at a known
cost. This script shows both: for each DIR it runs ``lint_rules/`` as committed
at ``--base`` (extracted with ``git archive`` into a temporary directory and put
first on ``PYTHONPATH``, as ``run.py --toolret-ref`` does) and the new side
(another ref the same way, or by default the working tree of this repository),
each as ``python -m lint_rules check . --no-cache --output-format json
--exit-zero --select ALL`` from inside DIR, so DIR is the project root and its
configuration applies. It prints per DIR the count of each code before and after
and every diagnostic that is gone or new (``file:line:col code message``); read
the new ones to judge whether they are true. ``--time N`` adds N interleaved
timed runs a side (after the diagnostic run, which warms the bytecode) and
prints median wall and user+sys CPU time of the process tree, with new/base.

The trees are yours (checkouts of real projects, generated corpora); nothing is
downloaded. ``--out`` keeps each side's JSON and stderr and the diff. The exit
code is 0 whatever the diff (it is a report) and 2 when a run fails or a ref
cannot be extracted; the failing run's stderr is printed.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import measure
from run import REPO, child_env, snapshot_toolret

WORKTREE = "worktree"
CHECK_ARGS = ("check", ".", "--no-cache", "--output-format", "json", "--exit-zero")
Row = tuple[str, int, int, str, str]


class RunFailed(Exception):
    pass


@dataclass
class Side:
    name: str
    """``base`` or ``new``."""
    label: str
    """What the side runs, for the header."""
    env: dict[str, str]
    root: Path
    """The directory ``lint_rules`` must be imported from."""
    walls: dict[Path, list[float]] = field(default_factory=dict)
    cpus: dict[Path, list[float]] = field(default_factory=dict)


def prepare(name: str, ref: str, workdir: Path) -> Side:
    env_base = {"PYTHONSAFEPATH": "1"}  # DIR (the cwd) never shadows the snapshot on 3.11+
    if ref == WORKTREE:
        state = subprocess.run(
            [
                "git",
                "-C",
                str(REPO),
                "status",
                "--porcelain",
                "--untracked-files=no",
                "--",
                "lint_rules",
            ],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        pythonpath = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
        env = child_env({**env_base, "PYTHONPATH": pythonpath})
        changed = len(state.splitlines())
        label = f"the working tree of {REPO} (HEAD {head}, {changed} modified files in lint_rules/)"
        return Side(name, label, env, REPO)
    dest = workdir / name
    commit, env = snapshot_toolret(ref, dest)
    env.update(env_base)
    return Side(name, f"{ref} = {commit[:10]}", env, dest)


def check_import(side: Side, cwd: Path) -> None:
    """Fail unless ``lint_rules`` is imported from the side's tree when run from ``cwd``."""
    where = subprocess.run(
        [sys.executable, "-c", "import lint_rules; print(lint_rules.__file__)"],
        capture_output=True,
        text=True,
        env=side.env,
        cwd=cwd,
        check=False,
    )
    path = Path(where.stdout.strip() or ".").resolve()
    if where.returncode != 0 or not path.is_relative_to(side.root.resolve()):
        raise RunFailed(
            f"{side.name}: lint_rules is imported from {where.stdout.strip() or '?'} in {cwd}, "
            f"not from {side.root}\n{where.stderr}"
        )


def lint(side: Side, target: Path, select: str) -> measure.Sample:
    argv = [sys.executable, "-m", "lint_rules", *CHECK_ARGS, "--select", select]
    sample = measure.run(argv, cwd=target, env=side.env)
    if sample.returncode != 0:
        raise RunFailed(
            f"{side.name} on {target}: exit code {sample.returncode}\n{sample.stderr.rstrip()}"
        )
    return sample


def rows(sample: measure.Sample, target: Path, side: str) -> list[Row]:
    try:
        data = json.loads(sample.stdout or "[]")
    except json.JSONDecodeError as error:
        raise RunFailed(
            f"{side} on {target}: output is not JSON ({error})\n{sample.stderr.rstrip()}"
        ) from error
    result: list[Row] = []
    root = target.resolve()
    for item in data:
        filename = str(item.get("filename") or "?")
        with contextlib.suppress(ValueError):  # outside DIR: keep it as reported
            filename = str(Path(filename).resolve().relative_to(root))
        location = item.get("location") or {}
        result.append(
            (
                filename,
                int(location.get("row") or 0),
                int(location.get("column") or 0),
                str(item.get("code") or "?"),
                str(item.get("message") or ""),
            )
        )
    return result


def fmt(row: Row) -> str:
    return f"{row[0]}:{row[1]}:{row[2]} {row[3]} {row[4]}"


def slug(target: Path, used: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", target.resolve().name) or "root"
    name, n = base, 1
    while name in used:
        n += 1
        name = f"{base}-{n}"
    used.add(name)
    return name


def compare(
    target: Path,
    base: measure.Sample,
    new: measure.Sample,
    max_list: int | None,
    out: Path | None,
) -> list[str]:
    before, after = rows(base, target, "base"), rows(new, target, "new")
    count_b = collections.Counter(r[3] for r in before)
    count_n = collections.Counter(r[3] for r in after)
    multiset_b, multiset_n = collections.Counter(before), collections.Counter(after)
    gone = sorted((multiset_b - multiset_n).elements())
    added = sorted((multiset_n - multiset_b).elements())
    files = sum(1 for _ in target.rglob("*.py"))
    lines = [
        f"=== {target}  ({files} .py files)  before {len(before)} / after {len(after)}"
        f"  [{base.wall:.1f} s / {new.wall:.1f} s]"
    ]
    for side, sample in (("base", base), ("new", new)):
        err = sample.stderr.strip().splitlines()
        if err:
            lines.append(f"  !! {side} stderr ({len(err)} lines, last: {err[-1][:160]})")
    codes = sorted(set(count_b) | set(count_n))
    if codes:
        lines.append(f"  {'code':<8}{'before':>8}{'after':>8}{'delta':>8}")
        for code in codes:
            delta = count_n[code] - count_b[code]
            shown = f"{delta:+d}" if delta else ""
            lines.append(f"  {code:<8}{count_b[code]:>8}{count_n[code]:>8}{shown:>8}")
    diff = [f"- {fmt(r)}" for r in gone] + [f"+ {fmt(r)}" for r in added]
    if out is not None:
        (out / "diff.txt").write_text("".join(f"{line}\n" for line in diff))
    if diff:
        lines.append(f"  gone: {len(gone)}  new: {len(added)}")
        listed = diff if max_list is None else diff[:max_list]
        lines.extend(f"  {line}" for line in listed)
        if len(listed) < len(diff):
            where = f" in {out / 'diff.txt'}" if out is not None else " (see --out)"
            lines.append(f"  ... {len(diff) - len(listed)} more{where}")
    else:
        lines.append("  no change")
    return lines


def keep(out: Path | None, side: str, sample: measure.Sample) -> None:
    if out is not None:
        (out / f"{side}.json").write_text(sample.stdout)
        (out / f"{side}.err").write_text(sample.stderr)


def timing(target: Path, base: Side, new: Side, runs: int, select: str) -> list[str]:
    for _ in range(runs):
        for side in (base, new):
            sample = lint(side, target, select)
            side.walls.setdefault(target, []).append(sample.wall)
            if sample.cpu is not None:
                side.cpus.setdefault(target, []).append(sample.cpu)
    lines = [f"  timing (--no-cache, {runs} interleaved runs a side, medians):"]
    wall_b, wall_n = statistics.median(base.walls[target]), statistics.median(new.walls[target])
    lines.append(
        f"    wall  base {wall_b:.2f} s  new {wall_n:.2f} s  new/base {wall_n / wall_b:.3f}"
    )
    if base.cpus.get(target) and new.cpus.get(target):
        cpu_b, cpu_n = statistics.median(base.cpus[target]), statistics.median(new.cpus[target])
        lines.append(
            f"    CPU   base {cpu_b:.2f} s  new {cpu_n:.2f} s  new/base {cpu_n / cpu_b:.3f}"
            "  (user+sys; less sensitive to other load)"
        )
    return lines


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dirs", nargs="+", type=Path, metavar="DIR", help="trees to check")
    parser.add_argument("--base", required=True, help="git ref of the 'before' side")
    parser.add_argument(
        "--new", default=WORKTREE, help=f"git ref of the 'after' side, or {WORKTREE} (default)"
    )
    parser.add_argument("--select", default="ALL", help="codes or prefixes (default ALL)")
    parser.add_argument(
        "--max-list", type=int, default=None, metavar="N", help="list at most N gone/new per DIR"
    )
    parser.add_argument(
        "--out", type=Path, default=None, help="keep <DIR-name>/{base,new}.json, .err, diff.txt"
    )
    parser.add_argument(
        "--time", type=int, default=0, metavar="N", help="N interleaved timed runs a side"
    )
    args = parser.parse_args(argv)
    for target in args.dirs:
        if not target.is_dir():
            parser.error(f"not a directory: {target}")
    if args.time < 0 or (args.max_list is not None and args.max_list < 0):
        parser.error("--time and --max-list take a count >= 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    failed = False
    with tempfile.TemporaryDirectory(prefix="toolret-compare-") as tmp:
        try:
            base = prepare("base", args.base, Path(tmp))
            new = prepare("new", args.new, Path(tmp))
        except (OSError, subprocess.CalledProcessError, RuntimeError, tarfile.TarError) as error:
            detail = getattr(error, "stderr", None) or ""
            if isinstance(detail, bytes):
                detail = detail.decode("utf-8", "replace")
            print(f"error: cannot extract toolret: {error}\n{detail}".rstrip(), file=sys.stderr)
            return 2
        print(f"base: {base.label}")
        print(f"new:  {new.label}")
        print(
            f"runs: python -m lint_rules {' '.join(CHECK_ARGS)} --select {args.select}  (cwd DIR)"
        )
        used: set[str] = set()
        for target in args.dirs:
            out = None
            if args.out is not None:
                out = args.out / slug(target, used)
                out.mkdir(parents=True, exist_ok=True)
            print()
            try:
                for side in (base, new):
                    check_import(side, target)
                before = lint(base, target, args.select)
                keep(out, "base", before)
                after = lint(new, target, args.select)
                keep(out, "new", after)
                lines = compare(target, before, after, args.max_list, out)
                if args.time:
                    lines += timing(target, base, new, args.time, args.select)
            except RunFailed as error:
                first = str(error).splitlines()[0]
                print(f"=== {target}\n  !! run failed: {first} (stderr below)", flush=True)
                print(f"{target}: {error}", file=sys.stderr)
                failed = True
                continue
            print("\n".join(lines), flush=True)
    if args.out is not None:
        print(f"\nJSON, stderr and diffs in {args.out}")
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
