"""The floor for any LibCST linter: read and ``libcst.parse_module`` every file, one process.

Usage: python benchmarks/parse_loop.py ROOT

Walks ROOT for ``*.py`` files (sorted, skipping the same default-excluded
directories as the corpora), parses each one from its bytes (LibCST detects
the encoding) and prints how many parsed and how many failed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import libcst


def python_files(root: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__")
        for filename in sorted(filenames):
            if filename.endswith(".py"):
                yield Path(dirpath, filename)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    parsed = failed = 0
    for path in python_files(Path(argv[0])):
        try:
            libcst.parse_module(path.read_bytes())
        except Exception:  # a file that does not parse is counted, not fatal
            failed += 1
        else:
            parsed += 1
    print(f"parsed {parsed} files, {failed} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
