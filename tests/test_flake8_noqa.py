"""Under flake8, ``# noqa`` is flake8's (issue 34): the plugin yields every finding and
flake8 filters them with its own rules (``flake8.defaults.NOQA_INLINE_REGEXP``: exactly
``# noqa``, case-insensitive; ``NOQA_FILE``: ``# flake8: noqa``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TOOL = "def count_bookings(conv):\n    return len(conv.state.bookings){comment}\n"


def _flake8(root: Path, *args: str) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "flake8",
        "--isolated",
        "--select",
        "TRV",
        *args,
        "functions/count_bookings.py",
    ]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stderr, done.stderr
    return [line.split(" ", 2)[1] for line in done.stdout.splitlines()]


def _write(root: Path, text: str) -> None:
    (root / "functions").mkdir(exist_ok=True)
    (root / "functions" / "count_bookings.py").write_text(text, encoding="utf-8")


def test_disable_noqa_shows_what_a_noqa_hides(tmp_path: Path) -> None:
    _write(tmp_path, TOOL.format(comment="  # noqa: TRV101"))
    assert _flake8(tmp_path) == []
    assert _flake8(tmp_path, "--disable-noqa") == ["TRV101"]


@pytest.mark.parametrize(
    "comment",
    [
        "  #noqa",  # flake8 wants one space after the hash
        "  #noqa: TRV101",
        "  #  noqa: TRV101",
    ],
)
def test_forms_flake8_does_not_honour_do_not_suppress(tmp_path: Path, comment: str) -> None:
    _write(tmp_path, TOOL.format(comment=comment))
    assert _flake8(tmp_path) == ["TRV101"]


@pytest.mark.parametrize(
    "directive", ["# ruff: noqa", "# toolret: noqa", "# toolret: noqa: TRV101"]
)
def test_toolret_only_file_directives_do_not_suppress(tmp_path: Path, directive: str) -> None:
    _write(tmp_path, directive + "\n" + TOOL.format(comment=""))
    assert _flake8(tmp_path) == ["TRV101"]


@pytest.mark.parametrize(
    "text",
    [
        "# flake8: noqa\n" + TOOL.format(comment=""),
        TOOL.format(comment="  # NOQA"),
        TOOL.format(comment="  # noqa:TRV1"),
    ],
)
def test_what_flake8_honours_still_suppresses(tmp_path: Path, text: str) -> None:
    _write(tmp_path, text)
    assert _flake8(tmp_path) == []
    assert _flake8(tmp_path, "--disable-noqa") == ["TRV101"]


def test_no_unused_noqa_under_flake8(tmp_path: Path) -> None:
    # TRV004 needs to know what toolret's directives suppressed; under flake8 they are flake8's.
    _write(tmp_path, "def count_bookings(conv):\n    return 'none'  # noqa: TRV101\n")
    assert _flake8(tmp_path, "--select", "TRV") == []
    assert _flake8(tmp_path, "--extend-select", "TRV004") == []
