"""What each stage of ``toolret check`` leaves of a tree: files, bytes, per stage.

Usage: python benchmarks/stages.py DIR [--select CODES]

For every ``.py`` file under DIR (default settings, or ``--select``): whether the byte
prefilter passes it (a family's signal), whether the ``ast`` screen keeps it for the
check (``analysis.screen``: a family's ``needs_libcst``) and for the index facts
(``index_facts.contributes``), and so whether LibCST parses it at all — the
fractions the speed issue asks for. Counts what the stages decide, not what a run
measures: a file named by another file's facts (whole-project mode) is parsed
whatever the screen says, and this script has no project index. A benchmark aid,
not a test.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from lint_rules import engine, prefilter  # noqa: E402
from lint_rules.analysis.index import wants_facts  # noqa: E402
from lint_rules.analysis.screen import python_tree_as_written, view_of  # noqa: E402
from lint_rules.config import Settings  # noqa: E402
from lint_rules.frameworks.index_facts import contributes  # noqa: E402


class Count:
    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0

    def add(self, size: int) -> None:
        self.files += 1
        self.bytes += size

    def cell(self, whole: Count) -> str:
        return (
            f"{self.files:6} files {self.files / max(whole.files, 1):6.1%}   "
            f"{self.bytes / 1e6:7.2f} MB {self.bytes / max(whole.bytes, 1):6.1%}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--select", default=None, help="comma-separated codes (default: defaults)")
    args = parser.parse_args(argv)
    settings = Settings()
    if args.select:
        settings = settings.with_overrides(select=args.select.split(","))
    codes = engine.enabled_codes(settings, str(args.root))
    keys = engine._active(codes)
    every, signalled, checked, facts, extracted, parsed = (Count() for _ in range(6))
    for directory, _, names in os.walk(args.root):
        for name in sorted(names):
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            data = Path(path).read_bytes()
            every.add(len(data))
            signal = prefilter.signalled(tuple(keys), data, path, settings)
            wants = wants_facts(data)
            if not signal and not wants:
                continue
            try:
                source = engine.decode_source(data)
            except (SyntaxError, UnicodeDecodeError, LookupError):
                parsed.add(len(data))
                continue
            tree = python_tree_as_written(source)
            view = view_of(tree, path) if tree is not None else None
            check = False
            if signal:
                signalled.add(len(data))
                found = engine.signalled_keys(keys, source, path, None, settings)
                families = [engine.framework(k) for k in found]
                check = (
                    tree is None
                    or not engine._screened(source, codes)
                    or engine._needed(tree, source, path, settings, None, families)
                )
                if check:
                    checked.add(len(data))
            extract = False
            if wants:
                facts.add(len(data))
                extract = view is None or contributes(view, data)
                if extract:
                    extracted.add(len(data))
            if check or extract:
                parsed.add(len(data))
    print(f"{args.root}: {every.files} .py files, {every.bytes / 1e6:.2f} MB")
    for label, count in (
        ("byte prefilter: signalled", signalled),
        ("ast screen: checked", checked),
        ("index facts wanted (bytes)", facts),
        ("index facts screen: extracted", extracted),
        ("LibCST-parsed (checked or extracted)", parsed),
    ):
        print(f"  {label:38} {count.cell(every)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
