"""ruff's ``check`` flags that users copy into toolret commands: same names, same meaning,
ruff's help wording (ruff 0.17, ``ruff check --help``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

Invoke = Callable[..., Result]

INT_TOOL = "def count_bookings(conv):\n    return len(conv.state.bookings)\n"
SILENCED_TOOL = "def count_rooms(conv):\n    return len(conv.rooms)  # noqa: TRV101\n"
TRV101_MESSAGE = "PolyAI function `count_bookings` returns `int`"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    functions = tmp_path / "functions"
    functions.mkdir()
    (functions / "count_bookings.py").write_text(INT_TOOL)
    (functions / "count_rooms.py").write_text(SILENCED_TOOL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


RUFF_HELP = {
    "-q, --quiet": "Print diagnostics, but nothing else.",
    "-s, --silent": 'Disable all logging (but still exit with status code "1" upon detecting '
    "diagnostics).",
    "-e, --exit-zero": 'Exit with status code "0", even upon detecting lint violations.',
    "-n, --no-cache": "Disable cache reads",
    "--show-fixes / --no-show-fixes": "Show an enumeration of all fixed lint violations. Use "
    "`--no-show-fixes` to disable.",
    "--fix-only / --no-fix-only": "Apply fixes to resolve lint violations, but don't report on, "
    "or exit non-zero for, leftover violations. Implies `--fix`. Use `--no-fix-only` to disable "
    "or `--unsafe-fixes` to include unsafe fixes.",
    "--ignore-noqa": "Ignore any `# noqa` comments.",
    "--isolated": "Ignore all configuration files.",
    "--add-noqa": "Enable automatic additions of `noqa` directives to failing lines. Optionally "
    "provide a reason to append after the codes",
}


def _help_entries(text: str) -> dict[str, str]:
    """``toolret check --help``'s options: names → help, wrapped lines joined."""
    entries: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        match = re.match(r"^  (-\S.*?)(?:  +(\S.*))?$", line)
        if match:
            current = re.sub(r" [A-Z_]+$| PATH$| TEXT$", "", match.group(1).strip())
            entries[current] = match.group(2) or ""
        elif current is not None and line.startswith("    ") and line.strip():
            entries[current] = (entries[current] + " " + line.strip()).strip()
        else:
            current = None
    return entries


@pytest.mark.parametrize("command", ["check", "fix"])
def test_help_uses_ruffs_wording(toolret_cli: Invoke, command: str) -> None:
    entries = _help_entries(toolret_cli(command, "--help").stdout)
    for names, wording in RUFF_HELP.items():
        if command == "fix" and names.startswith(("--fix-only", "--add-noqa")):
            assert names not in entries  # check-only, as `toolret fix` is `check --fix`
            continue
        assert wording in entries[names], (names, entries.get(names))


def test_quiet_prints_diagnostics_only(project: Path, toolret_cli: Invoke) -> None:
    args = ("check", "-n", "--output-format", "concise", "--ignore", "TRV003", "missing.py", ".")
    loud = toolret_cli(*args)
    assert "Found 1 error." in loud.stdout
    assert loud.stderr.startswith("warning: Failed to check ")
    for flag in ("-q", "--quiet"):
        quiet = toolret_cli(*args, flag)
        assert quiet.exit_code == 1
        assert quiet.stdout.splitlines() == [
            f"functions/count_bookings.py:2:12: TRV101 [*] {TRV101_MESSAGE}; "
            "Agent Studio accepts only a `str` or a `dict`"
        ]
        assert quiet.stderr == ""
    clean = toolret_cli("check", "-n", "-q", "functions/count_rooms.py")
    assert (clean.exit_code, clean.stdout) == (0, "")  # no "All checks passed!"


def test_silent_prints_nothing_and_keeps_the_exit_code(project: Path, toolret_cli: Invoke) -> None:
    for flag in ("-s", "--silent"):
        result = toolret_cli("check", "-n", "--ignore", "TRV003", "missing.py", ".", flag)
        assert (result.exit_code, result.stdout, result.stderr) == (1, "", "")
    report = project / "report.txt"
    result = toolret_cli("check", "-n", "-s", "-o", str(report))
    assert result.exit_code == 1
    assert report.read_text() == ""  # ruff too writes an empty file
    statistics = toolret_cli("check", "-n", "-s", "--statistics")
    assert statistics.stdout.startswith("1\tTRV101")  # ruff prints the table even so
    assert "Found" not in statistics.stdout
    fixed = toolret_cli("check", "-n", "-s", "--fix")
    assert (fixed.exit_code, fixed.stdout, fixed.stderr) == (0, "", "")
    assert "str(len(" in (project / "functions" / "count_bookings.py").read_text()


def test_e_and_n_are_short_for_exit_zero_and_no_cache(project: Path, toolret_cli: Invoke) -> None:
    assert toolret_cli("check", "-e", "-n").exit_code == 0
    assert toolret_cli("check", "-n").exit_code == 1
    assert not (project / ".toolret_cache").exists()
    assert toolret_cli("check").exit_code == 1
    assert (project / ".toolret_cache").exists()


def test_show_fixes_enumerates_what_was_fixed(project: Path, toolret_cli: Invoke) -> None:
    other = project / "functions" / "count_guests.py"
    other.write_text(INT_TOOL.replace("count_bookings", "count_guests"))
    result = toolret_cli("check", "-n", "--fix", "--show-fixes", "--output-format", "concise")
    assert result.exit_code == 0
    assert result.stdout == (
        "\n"
        "Fixed 2 errors:\n"
        "- functions/count_bookings.py:\n"
        "    1 \u00d7 TRV101 (polyai-invalid-return-type)\n"
        "- functions/count_guests.py:\n"
        "    1 \u00d7 TRV101 (polyai-invalid-return-type)\n"
        "\n"
        "Found 2 errors (2 fixed, 0 remaining).\n"
    )


def test_show_fixes_not_in_json_nor_with_no_show_fixes(project: Path, toolret_cli: Invoke) -> None:
    source = (project / "functions" / "count_bookings.py").read_text()
    for args in (("--output-format", "json"), ("--no-show-fixes",)):
        (project / "functions" / "count_bookings.py").write_text(source)
        result = toolret_cli("check", "-n", "--fix", "--show-fixes", *args)
        assert "Fixed 1 error:" not in result.stdout


def test_show_fixes_conflicts_with_diff(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("check", "-n", "--diff", "--show-fixes")
    assert result.exit_code == 2
    assert "the argument '--show-fixes' cannot be used with '--diff'" in result.stderr


def test_fix_only_reports_only_what_it_fixed(project: Path, toolret_cli: Invoke) -> None:
    left = project / "functions" / "hang_up.py"
    left.write_text('def hang_up(conv):\n    return {"hangup": True}\n')  # TRV103: no fix
    result = toolret_cli("check", "-n", "--fix-only")
    assert (result.exit_code, result.stdout) == (0, "Fixed 1 error.\n")  # TRV103 left: still 0
    assert "str(len(" in (project / "functions" / "count_bookings.py").read_text()
    again = toolret_cli("check", "-n", "--fix-only", "--show-fixes")
    assert (again.exit_code, again.stdout) == (0, "")
    assert toolret_cli("check", "-n").exit_code == 1  # the leftover is still there


def test_fix_only_with_show_fixes_and_exit_non_zero_on_fix(
    project: Path, toolret_cli: Invoke
) -> None:
    result = toolret_cli("check", "-n", "--fix-only", "--show-fixes", "--exit-non-zero-on-fix")
    assert result.exit_code == 1
    assert result.stdout == (
        "\nFixed 1 error:\n- functions/count_bookings.py:\n"
        "    1 \u00d7 TRV101 (polyai-invalid-return-type)\n\nFixed 1 error.\n"
    )


def test_fix_only_json_prints_nothing(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("check", "-n", "--fix-only", "--output-format", "json")
    assert (result.exit_code, result.stdout) == (0, "")
    assert "str(len(" in (project / "functions" / "count_bookings.py").read_text()


def test_ignore_noqa(project: Path, toolret_cli: Invoke) -> None:
    guests = "# toolret: noqa\n" + INT_TOOL.replace("count_bookings", "count_guests")
    (project / "functions" / "count_guests.py").write_text(guests)
    assert toolret_cli("check", "-n", "--output-format", "concise").stdout.count("TRV101") == 1
    # Results with the comments applied are cached; --ignore-noqa must not reuse them.
    assert toolret_cli("check").exit_code == 1
    ignored = toolret_cli("check", "--ignore-noqa", "--output-format", "concise")
    assert ignored.exit_code == 1
    assert ignored.stdout.count("TRV101") == 3
    assert toolret_cli("check", "--output-format", "concise").stdout.count("TRV101") == 1


def test_isolated_ignores_configuration(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_text('[tool.toolret]\nignore = ["TRV101"]\n')
    assert toolret_cli("check", "-n").exit_code == 0
    assert toolret_cli("check", "-n", "--isolated").exit_code == 1
    # Command-line selection still applies.
    assert toolret_cli("check", "-n", "--isolated", "--ignore", "TRV101").exit_code == 0
    conflict = toolret_cli("check", "-n", "--isolated", "--config", "pyproject.toml")
    assert conflict.exit_code == 2
    assert "cannot be used with `--isolated`" in conflict.stderr


def test_fix_command_takes_the_shared_flags(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("fix", "-n", "-q", "--show-fixes", "--output-format", "concise")
    assert result.exit_code == 0
    assert result.stdout == (
        "\nFixed 1 error:\n- functions/count_bookings.py:\n"
        "    1 \u00d7 TRV101 (polyai-invalid-return-type)\n\n"
    )  # -q: no summary, the enumeration stays (as ruff)
