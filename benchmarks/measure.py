"""Time one command as a whole process tree: wall time, user+sys CPU, peak RSS.

``os.wait4`` returns the child's resource usage including every descendant it
waited for (worker pools, ``multiprocessing``), and on Linux ``ru_maxrss`` of
that usage is the largest single process of the tree, not a sum.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Sample:
    wall: float
    """Seconds from spawn to exit."""
    cpu: float | None
    """User + system seconds of the whole process tree (None where unavailable)."""
    peak_rss_mb: float | None
    """Largest resident set of a single process of the tree, in MiB."""
    returncode: int
    stdout: str
    stderr: str


@dataclass
class Series:
    samples: list[Sample] = field(default_factory=list)

    @property
    def walls(self) -> list[float]:
        return [s.wall for s in self.samples]

    @property
    def median(self) -> float:
        return statistics.median(self.walls)

    @property
    def low(self) -> float:
        return min(self.walls)

    @property
    def high(self) -> float:
        return max(self.walls)

    @property
    def cpu(self) -> float | None:
        values = [s.cpu for s in self.samples if s.cpu is not None]
        return statistics.median(values) if values else None

    @property
    def peak_rss_mb(self) -> float | None:
        values = [s.peak_rss_mb for s in self.samples if s.peak_rss_mb is not None]
        return max(values) if values else None


def _maxrss_mb(maxrss: int) -> float:
    # Linux and the BSDs report KiB, macOS bytes.
    return maxrss / (1024 * 1024) if sys.platform == "darwin" else maxrss / 1024


def run(argv: Sequence[str], cwd: Path, env: Mapping[str, str] | None = None) -> Sample:
    """Run ``argv`` once in ``cwd``; its output goes to temporary files, not a pipe."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            list(argv), cwd=cwd, env=dict(env) if env is not None else None, stdout=out, stderr=err
        )
        cpu: float | None = None
        peak: float | None = None
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - start
            proc.returncode = os.waitstatus_to_exitcode(status)
            cpu = usage.ru_utime + usage.ru_stime
            peak = _maxrss_mb(usage.ru_maxrss)
        else:  # pragma: no cover - Windows: wall time only
            proc.wait()
            wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return Sample(
            wall=wall,
            cpu=cpu,
            peak_rss_mb=peak,
            returncode=proc.returncode,
            stdout=out.read().decode("utf-8", "replace"),
            stderr=err.read().decode("utf-8", "replace"),
        )
