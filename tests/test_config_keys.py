"""ruff's top-level keys toolret reads too (``extend``, ``required-version``,
``output-format``, ``fix``, ``unsafe-fixes``, ``show-fixes``, ``cache-dir``, ``include``,
``extend-include``), through the CLI, and the JSON schema kept in the repository."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from lint_rules import __version__, config, schema
from tests.conftest import Invoke

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

INT_TOOL = "def count_bookings(conv):\n    return len(conv.state.bookings)\n"
FIXED = "def count_bookings(conv):\n    return str(len(conv.state.bookings))\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "count_bookings.py").write_text(INT_TOOL)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TOOLRET_OUTPUT_FORMAT", raising=False)
    monkeypatch.delenv("TOOLRET_CACHE_DIR", raising=False)
    return tmp_path


def reported(output: str) -> list[str]:
    """``path:code`` of each concise line."""
    return [
        f"{line.split(':')[0]}:{line.split(': ')[1].split()[0]}"
        for line in output.splitlines()
        if ": TRV" in line
    ]


# -- extend ----------------------------------------------------------------------


def test_extend_merges_the_base_under_the_file(project: Path, toolret_cli: Invoke) -> None:
    """A package config extends the repository's: the base's excludes (relative to the
    base's directory) and selection apply, the package's keys come after them."""
    pkg = project / "pkg"
    for folder in ("functions", "generated/functions", "legacy/functions"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "count_bookings.py").write_text(INT_TOOL)
    (project / "base.toml").write_text(
        'extend-exclude = ["generated", "pkg/legacy"]\n[lint]\nignore = ["TRV101"]\n'
    )
    (pkg / "pyproject.toml").write_text('[tool.toolret]\nextend = "../base.toml"\n')
    base_only = toolret_cli("check", "--output-format", "concise", "pkg")
    assert (base_only.exit_code, base_only.stdout) == (0, "All checks passed!\n")
    # The package's own selection is a later layer: it turns TRV101 back on; the
    # base's excludes still hold (`generated` anywhere, `pkg/legacy` from the base).
    (pkg / "pyproject.toml").write_text(
        '[tool.toolret]\nextend = "../base.toml"\n[tool.toolret.lint]\nextend-select = ["TRV101"]\n'
    )
    result = toolret_cli("check", "--output-format", "concise", "pkg")
    assert result.exit_code == 1
    assert reported(result.stdout) == [f"{Path('pkg/functions/count_bookings.py')}:TRV101"]
    # A key the file sets replaces the base's: `exclude` given, the base's
    # `extend-exclude` still adds (ruff chains the extend- lists).
    (pkg / "pyproject.toml").write_text(
        '[tool.toolret]\nextend = "../base.toml"\nextend-exclude = ["functions"]\n'
        'select = ["TRV1"]\n'
    )
    result = toolret_cli("check", "--output-format", "concise", "pkg")
    assert (result.exit_code, result.stdout) == (0, "All checks passed!\n")


def test_extend_chains_and_a_cycle_is_an_error_with_its_position(
    project: Path, toolret_cli: Invoke
) -> None:
    (project / "a.toml").write_text('ignore = ["TRV102"]\nextend = "b.toml"\n')
    (project / "b.toml").write_text('extend = "c.toml"\n')
    (project / "c.toml").write_text('ignore = ["TRV101"]\n')
    result = toolret_cli("check", "--config", "a.toml", ".")
    assert (result.exit_code, result.stdout) == (0, "All checks passed!\n")
    (project / "c.toml").write_text('# loops back\nextend = "a.toml"\n')
    result = toolret_cli("check", "--config", "a.toml", ".")
    assert result.exit_code == 2
    assert (
        "c.toml:2:10: circular configuration: `a.toml` extends `b.toml` extends `c.toml` "
        "extends `a.toml`"
    ) in result.stderr
    assert '2 | extend = "a.toml"\n  |          ^^^^^^^^' in result.stderr


def test_extend_of_a_missing_file(project: Path, toolret_cli: Invoke) -> None:
    (project / "toolret.toml").write_text('extend = "nope/base.toml"\n')
    result = toolret_cli("check", ".")
    assert result.exit_code == 2
    assert "toolret.toml:1:10: cannot extend `nope/base.toml`: no such file" in result.stderr


def test_extend_is_a_top_level_key(project: Path, toolret_cli: Invoke) -> None:
    (project / "toolret.toml").write_text('[lint]\nextend = "base.toml"\n')
    result = toolret_cli("check", ".")
    assert result.exit_code == 2
    assert "toolret.toml:2:1: `extend` cannot be set in `[lint]`" in result.stderr


# -- required-version -------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "shown"), [('"0.0.1"', "==0.0.1"), ('">=99"', ">=99"), ('"<0.1"', "<0.1")]
)
def test_required_version_mismatch_is_exit_2_naming_both(
    project: Path, toolret_cli: Invoke, written: str, shown: str
) -> None:
    (project / "toolret.toml").write_text(f"required-version = {written}\n")
    result = toolret_cli("check", ".")
    assert result.exit_code == 2
    assert (
        f"toolret.toml:1:20: Required version `{shown}` does not match the running version "
        f"`{__version__}`"
    ) in result.stderr


@pytest.mark.parametrize("written", [__version__, f">={__version__}", "~=0.1", "==0.*", ">0,<1"])
def test_required_version_that_matches(project: Path, toolret_cli: Invoke, written: str) -> None:
    (project / "toolret.toml").write_text(f'required-version = "{written}"\n')
    assert toolret_cli("check", ".").exit_code == 1  # ran: the finding is reported


def test_required_version_that_is_not_a_specifier(project: Path, toolret_cli: Invoke) -> None:
    (project / "toolret.toml").write_text('required-version = "banana"\n')
    result = toolret_cli("check", ".")
    assert result.exit_code == 2
    assert "toolret.toml:1:20: Failed to parse version" in result.stderr


# -- the run-wide keys -------------------------------------------------------------


def test_output_format_key_and_the_flag_wins(project: Path, toolret_cli: Invoke) -> None:
    (project / "toolret.toml").write_text('output-format = "concise"\n')
    concise = toolret_cli("check", ".")
    assert concise.exit_code == 1
    assert concise.stdout.startswith(f"{Path('functions/count_bookings.py')}:2:12: TRV101")
    as_json = toolret_cli("check", "--output-format", "json", ".")
    assert json.loads(as_json.stdout)[0]["code"] == "TRV101"
    (project / "toolret.toml").write_text('output-format = "jsn"\n')
    bad = toolret_cli("check", ".")
    assert bad.exit_code == 2
    assert "toolret.toml:1:17: unknown output format `jsn` (did you mean `json`?)" in bad.stderr


def test_fix_key_and_no_fix(project: Path, toolret_cli: Invoke) -> None:
    target = project / "functions" / "count_bookings.py"
    (project / "toolret.toml").write_text("fix = true\n")
    assert toolret_cli("check", "--no-fix", ".").exit_code == 1
    assert target.read_text() == INT_TOOL
    result = toolret_cli("check", ".")
    assert result.exit_code == 0, result.output
    assert target.read_text() == FIXED


def test_settings_keys_show_in_show_settings(project: Path, toolret_cli: Invoke) -> None:
    (project / "sub").mkdir()
    (project / "sub" / "toolret.toml").write_text(
        'unsafe-fixes = true\nshow-fixes = true\ncache-dir = "../cache-here"\n'
        'output-format = "github"\nfix = true\n'
    )
    result = toolret_cli("check", "--config", "sub/toolret.toml", "--show-settings", ".")
    assert result.exit_code == 0, result.output
    for line in (
        "fix = true",
        "unsafe_fixes = true",
        "show_fixes = true",
        "output_format = github",
        f"cache_dir = {json.dumps(str(project / 'cache-here'))}",
    ):
        assert line in result.stdout.splitlines()
    flags = toolret_cli(
        "check", "--config", "sub/toolret.toml", "--show-settings", "--no-unsafe-fixes",
        "--no-show-fixes", "--no-fix", "--cache-dir", "elsewhere", ".",
    )  # fmt: skip
    for line in ("fix = false", "unsafe_fixes = false", "show_fixes = false"):
        assert line in flags.stdout.splitlines()
    assert f"cache_dir = {json.dumps(str(project / 'elsewhere'))}" in flags.stdout


def test_show_fixes_key(project: Path, toolret_cli: Invoke) -> None:
    (project / "toolret.toml").write_text("show-fixes = true\n")
    result = toolret_cli("check", "--fix", ".")
    assert result.exit_code == 0
    assert "Fixed 1 error:" in result.stdout and "TRV101" in result.stdout


def test_cache_dir_key_is_relative_to_the_config_file(
    project: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / "toolret.toml").write_text('cache-dir = "build/cache"\n')
    monkeypatch.chdir(project / "functions")  # a subdirectory: the root's file governs
    (project / "functions" / "toolret.toml").write_text('extend = "../toolret.toml"\n')
    assert toolret_cli("check", ".").exit_code == 1
    assert (project / "build" / "cache").is_dir()
    assert not (project / "functions" / ".toolret_cache").exists()


# -- include / extend-include -------------------------------------------------------


def test_include_and_extend_include(project: Path, toolret_cli: Invoke) -> None:
    (project / "functions" / "helper.pyw").write_text("x = 1\n")
    (project / "notes.txt").write_text("x = 1\n")
    py = str(project / "functions" / "count_bookings.py")
    pyw = str(project / "functions" / "helper.pyw")

    def walked() -> list[str]:
        result = toolret_cli("check", "--show-files", ".")
        assert result.exit_code == 0, result.output
        return result.stdout.splitlines()

    assert walked() == [py]
    (project / "toolret.toml").write_text('include = ["*.pyw"]\n')
    assert walked() == [pyw]
    assert toolret_cli("check", ".").exit_code == 0  # the .py file is not checked
    (project / "toolret.toml").write_text('extend-include = ["functions/*.pyw"]\n')
    assert walked() == [py, pyw]
    # A path named on the command line is checked whatever `include` says, as in ruff.
    (project / "toolret.toml").write_text('include = ["*.pyw"]\n')
    named = toolret_cli("check", "--output-format", "concise", "functions/count_bookings.py")
    assert reported(named.stdout) == [f"{Path('functions/count_bookings.py')}:TRV101"]
    (project / "toolret.toml").write_text('include = [""]\n')
    bad = toolret_cli("check", ".")
    assert bad.exit_code == 2 and "toolret.toml:1:12: empty glob pattern" in bad.stderr


def test_the_new_keys_are_top_level_only_and_typed(project: Path, toolret_cli: Invoke) -> None:
    (project / "toolret.toml").write_text('fix = "yes"\n')
    result = toolret_cli("check", ".")
    assert result.exit_code == 2
    assert "toolret.toml:1:7: expected `true` or `false`, got a string" in result.stderr
    (project / "toolret.toml").write_text("[lint]\ninclude = []\n")
    assert "`include` cannot be set in `[lint]`" in toolret_cli("check", ".").stderr


# -- the JSON schema -----------------------------------------------------------------


def test_the_schema_in_the_repository_is_current() -> None:
    """``python -m lint_rules.schema`` regenerates ``toolret.schema.json``."""
    assert schema.SCHEMA_FILE.read_text(encoding="utf-8") == schema.render(), (
        "toolret.schema.json is out of date: run `python -m lint_rules.schema`"
    )
    assert schema.main(["--check"]) == 0


def test_the_schema_knows_every_key_and_checks_a_config() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    document = json.loads(schema.SCHEMA_FILE.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(document)
    keys = set(config._allowed_keys(config.Settings)) | {"lint"}
    assert set(document["properties"]) == keys
    validator = jsonschema.Draft202012Validator(document)
    good = tomllib.loads(
        'extend = "../base.toml"\nrequired-version = ">=0.1"\noutput-format = "concise"\n'
        'fix = true\ninclude = ["*.py"]\n[lint]\nselect = ["TRV1"]\n'
        '[lint.polyai]\nextra-return-keys = ["k"]\n'
    )
    assert list(validator.iter_errors(good)) == []
    for bad in ('selct = ["TRV1"]', 'fix = "yes"', 'output-format = "jsn"', "[lint]\nfix = true"):
        assert list(validator.iter_errors(tomllib.loads(bad))), bad
