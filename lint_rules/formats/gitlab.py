"""ruff's ``gitlab`` format: a GitLab Code Quality (Code Climate) report.

::

    [
      {
        "check_name": "TRV301",
        "description": "TRV301: `f` returns a `dict`, but its annotation says `str`",
        "severity": "major",
        "fingerprint": "4803f2a33ba1ea51",
        "location": {
          "path": "tools/weather.py",
          "positions": {
            "begin": {
              "line": 17,
              "column": 12
            },
            "end": {
              "line": 17,
              "column": 20
            }
          }
        }
      }
    ]

As in ruff 0.17: keys in this (unsorted) order, two-space indent, no trailing newline,
``[]`` when clean; the description repeats the code (GitLab does not show
``check_name``); columns are code points (1-based, end exclusive); ``path`` is relative to
``$CI_PROJECT_DIR`` when that is set (possibly with ``..``), else to the working
directory. ruff always says ``"major"``; toolret maps its severities error / warning /
info to ``major`` / ``minor`` / ``info``.

The fingerprint is ruff's: SipHash-1-3 with zero keys (Rust's ``DefaultHasher``) over a
salt (``u64``, little-endian), the rule name and the path (each as Rust hashes a
``str``: its UTF-8 bytes and ``0xff``), printed as lowercase hex without zero padding.
The first salt is 0; when a fingerprint is already taken in the report (the same rule
twice in a file), it is hashed again with the taken value as the salt. So a finding's
fingerprint does not change when lines move, and each finding's is unique.

A notebook diagnostic gets ruff 0.17's fallback positions, line 1 column 1 for ``begin``
and ``end`` (a cell's rows are not rows of the ``.ipynb`` file); unlike ruff, the
description then gives the real place: ``"TRV301: cell 3:4:12: message"``.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Sequence
from typing import Any

from lint_rules.formats._base import NOTEBOOK_FALLBACK, RenderOptions, cell_prefix, relative_path
from lint_rules.model import Diagnostic, Severity

NAME = "gitlab"

SEVERITY = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}

_MASK = (1 << 64) - 1


def _rotl(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (64 - bits))) & _MASK


def siphash13(data: bytes, k0: int = 0, k1: int = 0) -> int:
    """SipHash-1-3 (one compression round, three finalisation rounds), as Rust's std."""
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573

    def sip_round() -> None:
        nonlocal v0, v1, v2, v3
        v0 = (v0 + v1) & _MASK
        v1 = _rotl(v1, 13) ^ v0
        v0 = _rotl(v0, 32)
        v2 = (v2 + v3) & _MASK
        v3 = _rotl(v3, 16) ^ v2
        v0 = (v0 + v3) & _MASK
        v3 = _rotl(v3, 21) ^ v0
        v2 = (v2 + v1) & _MASK
        v1 = _rotl(v1, 17) ^ v2
        v2 = _rotl(v2, 32)

    whole = len(data) - len(data) % 8
    for (word,) in struct.iter_unpack("<Q", data[:whole]):
        v3 ^= word
        sip_round()
        v0 ^= word
    last = (len(data) & 0xFF) << 56
    for shift, byte in enumerate(data[whole:]):
        last |= byte << (8 * shift)
    v3 ^= last
    sip_round()
    v0 ^= last
    v2 ^= 0xFF
    for _ in range(3):
        sip_round()
    return (v0 ^ v1 ^ v2 ^ v3) & _MASK


def fingerprint(rule_name: str, path: str, salt: int = 0) -> int:
    """ruff's ``fingerprint(message, project_path, salt)``."""
    data = struct.pack("<Q", salt) + rule_name.encode() + b"\xff" + path.encode() + b"\xff"
    return siphash13(data)


def report_path(filename: str, options: RenderOptions) -> str:
    """Relative to ``$CI_PROJECT_DIR`` when set (like ruff's ``pathdiff``), else to the cwd."""
    project_dir = os.environ.get("CI_PROJECT_DIR")
    if project_dir is None:
        return relative_path(filename, options.cwd)
    if not os.path.isabs(filename):
        return filename
    try:
        return os.path.relpath(filename, project_dir)
    except ValueError:  # another drive on Windows
        return filename


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    taken: set[int] = set()
    report: list[dict[str, Any]] = []
    for diagnostic in diagnostics:
        path = report_path(diagnostic.filename, options)
        value = fingerprint(diagnostic.name, path)
        while value in taken:
            value = fingerprint(diagnostic.name, path, value)
        taken.add(value)
        start, end = diagnostic.location, diagnostic.end_location
        if diagnostic.cell is not None:
            start = end = NOTEBOOK_FALLBACK
        report.append(
            {
                "check_name": diagnostic.code,
                "description": f"{diagnostic.code}: {cell_prefix(diagnostic)}{diagnostic.message}",
                "severity": SEVERITY[diagnostic.severity],
                "fingerprint": f"{value:x}",
                "location": {
                    "path": path,
                    "positions": {
                        "begin": {"line": start.row, "column": start.column},
                        "end": {"line": end.row, "column": end.column},
                    },
                },
            }
        )
    return json.dumps(report, indent=2, ensure_ascii=False)
