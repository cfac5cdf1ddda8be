"""ruff's settings flags of ``check``: ``--config 'KEY = VALUE'`` (ruff 0.17's meaning and
wording), through the real CLI."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

Invoke = Callable[..., Result]

INT_TOOL = "def count_bookings(conv):\n    return len(conv.state.bookings)\n"
RUFF_TIP = (
    "  tip: A `--config` flag must either be a path to a `.toml` configuration file\n"
    "       or a TOML `<KEY> = <VALUE>` pair overriding a specific configuration\n"
    "       option"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    functions = tmp_path / "functions"
    functions.mkdir()
    (functions / "count_bookings.py").write_text(INT_TOOL)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _help(toolret_cli: Invoke) -> str:
    return " ".join(toolret_cli("check", "--help").stdout.split())


# -- --config 'KEY = VALUE' ----------------------------------------------------------


def test_config_help_has_ruffs_wording(toolret_cli: Invoke) -> None:
    text = _help(toolret_cli)
    assert "--config <CONFIG_OPTION>" in text
    assert (
        "Either a path to a TOML configuration file (`pyproject.toml` or `toolret.toml`), or a "
        "TOML `<KEY> = <VALUE>` pair (such as you might find in a `toolret.toml` configuration "
        "file) overriding a specific configuration option" in text
    )
    assert (
        "Overrides of individual settings using this option always take precedence over all "
        "configuration files, including configuration files that were also specified using "
        "`--config`." in text
    )


def test_inline_override_beats_the_config_file(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_text('[tool.toolret]\nignore = ["TRV101"]\n')
    assert toolret_cli("check", "-n").exit_code == 0
    assert toolret_cli("check", "-n", "--config", "ignore = []").exit_code == 1
    assert toolret_cli("check", "-n", "--config", "lint.ignore = []").exit_code == 1
    # A later override of the same key wins; other keys add up.
    both = toolret_cli(
        "check", "-n", "--config", "ignore = []", "--config", "lint.ignore = ['TRV1']"
    )
    assert both.exit_code == 0
    excluded = toolret_cli(
        "check", "-n", "--config", "ignore = []", "--config", "exclude = ['*.py']"
    )
    assert excluded.exit_code == 0


def test_inline_override_with_a_config_file_and_isolated(
    project: Path, toolret_cli: Invoke
) -> None:
    (project / "other.toml").write_text('ignore = ["TRV101"]\n')
    assert toolret_cli("check", "-n", "--config", "other.toml").exit_code == 0
    result = toolret_cli("check", "-n", "--config", "other.toml", "--config", "ignore = []")
    assert result.exit_code == 1
    # The order of the two does not matter: the override always wins.
    result = toolret_cli("check", "-n", "--config", "ignore = []", "--config", "other.toml")
    assert result.exit_code == 1
    # ruff allows overrides with --isolated (only a config file conflicts with it).
    isolated = toolret_cli("check", "-n", "--isolated", "--config", "lint.ignore = ['TRV101']")
    assert isolated.exit_code == 0
    # Command-line selection flags still apply after the override.
    selected = toolret_cli(
        "check", "-n", "--config", "lint.select = ['TRV2']", "--extend-select", "TRV101"
    )
    assert selected.exit_code == 1


def test_two_config_files_are_an_error(project: Path, toolret_cli: Invoke) -> None:
    (project / "a.toml").write_text("")
    (project / "b.toml").write_text("")
    result = toolret_cli("check", "-n", "--config", "a.toml", "--config", "b.toml")
    assert result.exit_code == 2
    assert "You cannot specify more than one configuration file on the command line." in (
        result.stderr
    )
    assert "remove either `--config=a.toml` or `--config=b.toml`" in result.stderr


def test_neither_file_nor_toml_is_ruffs_error(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("check", "-n", "--config", "bogus")
    assert result.exit_code == 2
    assert result.stderr == (
        "toolret: error: invalid value 'bogus' for '--config <CONFIG_OPTION>'\n\n"
        f"{RUFF_TIP}\n\nFor more information, try '--help'.\n"
    )
    missing = toolret_cli("check", "-n", "--config", "missing.toml")
    assert missing.exit_code == 2
    assert (
        "It looks like you were trying to pass a path to a configuration file.\n"
        "The path `missing.toml` does not point to a configuration file" in missing.stderr
    )


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (
            "lint.selct = ['TRV1']",
            "--config:1:1: unknown key `lint.selct` (did you mean `select`?)",
        ),
        ("select = 'TRV1'", "--config:1:10: expected an array of rule selectors, got a string"),
        ("select = ['TRV199']", "--config:1:11: Unknown rule selector: `TRV199`"),
        ("respect-gitignore = 'yes'", "expected `true` or `false`, got a string"),
        ("lint.exclude = ['x']", "`exclude` cannot be set in `[lint]`"),
        ("nonsense = 1", "unknown key `nonsense`"),
    ],
)
def test_invalid_override_is_a_config_error(
    project: Path, toolret_cli: Invoke, value: str, message: str
) -> None:
    result = toolret_cli("check", "-n", "--config", value)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"invalid value {value!r} for '--config <CONFIG_OPTION>'" in result.stderr
    assert RUFF_TIP in result.stderr
    assert "Could not parse the supplied argument as a `[tool.toolret]` configuration option:" in (
        result.stderr
    )
    assert message in result.stderr


# -- --per-file-ignores / --extend-per-file-ignores ------------------------------------


def test_per_file_ignores_help_has_ruffs_wording(toolret_cli: Invoke) -> None:
    text = _help(toolret_cli)
    assert (
        "--per-file-ignores <PER_FILE_IGNORES> List of mappings from file pattern to code to "
        "exclude." in text
    )
    assert (
        "--extend-per-file-ignores <EXTEND_PER_FILE_IGNORES> Like `--per-file-ignores`, but "
        "adds additional ignores on top of those already specified." in text
    )


@pytest.mark.parametrize(
    "value",
    [
        "functions/*.py:TRV101",
        "count_bookings.py:TRV1",
        " functions/** : TRV101 ",
        "other.py:TRV2,functions/**:TRV101",
    ],
)
def test_per_file_ignores_flag_ignores(project: Path, toolret_cli: Invoke, value: str) -> None:
    assert toolret_cli("check", "-n").exit_code == 1
    assert toolret_cli("check", "-n", "--per-file-ignores", value).exit_code == 0
    assert toolret_cli("check", "-n", "--extend-per-file-ignores", value).exit_code == 0


def test_per_file_ignores_flag_replaces_the_configs(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.toolret]\n[tool.toolret.per-file-ignores]\n"functions/**" = ["TRV101"]\n'
    )
    assert toolret_cli("check", "-n").exit_code == 0
    # As in ruff, --per-file-ignores replaces the config's table ...
    assert toolret_cli("check", "-n", "--per-file-ignores", "other.py:TRV101").exit_code == 1
    # ... --extend-per-file-ignores adds to it.
    extended = toolret_cli("check", "-n", "--extend-per-file-ignores", "other.py:TRV102")
    assert extended.exit_code == 0
    # Several flags and several pairs add up.
    both = toolret_cli(
        "check",
        "-n",
        "--per-file-ignores",
        "other.py:TRV101",
        "--per-file-ignores",
        "functions/**:TRV101",
    )
    assert both.exit_code == 0


@pytest.mark.parametrize("flag", ["--per-file-ignores", "--extend-per-file-ignores"])
@pytest.mark.parametrize("value", ["functions/**", "a:b:TRV101", "x.py:TRV101,TRV102"])
def test_per_file_ignores_flag_syntax_error(
    project: Path, toolret_cli: Invoke, flag: str, value: str
) -> None:
    result = toolret_cli("check", "-n", flag, value)
    assert result.exit_code == 2
    metavar = flag[2:].upper().replace("-", "_")
    bad = value.split(",")[-1] if value.count(":") == 1 else value
    assert result.stderr == (
        f"toolret: error: invalid value {bad!r} for '{flag} <{metavar}>': "
        "Expected <FilePattern>:<RuleCode> pattern\n\nFor more information, try '--help'.\n"
    )


def test_per_file_ignores_flag_unknown_selector(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("check", "-n", "--per-file-ignores", "x.py:TRV199")
    assert result.exit_code == 2
    assert (
        "invalid value 'TRV199' for '--per-file-ignores <PER_FILE_IGNORES>': "
        "Unknown rule selector: `TRV199`" in result.stderr
    )


# -- --fixable / --unfixable / --extend-fixable and the config keys ---------------------


def test_fixable_help_has_ruffs_wording(toolret_cli: Invoke) -> None:
    text = _help(toolret_cli)
    assert (
        "--fixable <RULE_CODE> List of rule codes to treat as eligible for fix. Only applicable "
        "when fix itself is enabled (e.g., via `--fix`)." in text
    )
    assert (
        "--unfixable <RULE_CODE> List of rule codes to treat as ineligible for fix. Only "
        "applicable when fix itself is enabled (e.g., via `--fix`)." in text
    )
    assert (
        "--extend-fixable <RULE_CODE> Like --fixable, but adds additional rule codes on top of "
        "those already specified." in text
    )


def _fixable(toolret_cli: Invoke, *args: str) -> bool:
    """Whether TRV101 in count_bookings.py is reported as fixable (``[*]``)."""
    result = toolret_cli("check", "-n", "--output-format", "concise", *args)
    assert result.exit_code == 1, result.stderr
    assert "TRV101" in result.stdout
    return "TRV101 [*]" in result.stdout


@pytest.mark.parametrize(
    ("args", "fixable"),
    [
        ((), True),
        (("--unfixable", "TRV101"), False),
        (("--unfixable", "TRV1,TRV2"), False),
        (("--fixable", "TRV2"), False),
        (("--fixable", "TRV2", "--extend-fixable", "TRV101"), True),
        # Within one layer the more specific selector wins, as ruff's select/ignore.
        (("--unfixable", "TRV1", "--fixable", "TRV101"), True),
        (("--fixable", "TRV1", "--unfixable", "TRV101"), False),
        (("--unfixable", "TRV1", "--extend-fixable", "TRV101"), True),
        (("--config", "lint.unfixable = ['TRV101']"), False),
    ],
)
def test_fixable_flags(
    project: Path, toolret_cli: Invoke, args: tuple[str, ...], fixable: bool
) -> None:
    assert _fixable(toolret_cli, *args) is fixable


@pytest.mark.parametrize("table", ["[tool.toolret]", "[tool.toolret.lint]"])
def test_fixable_config_keys(project: Path, toolret_cli: Invoke, table: str) -> None:
    pyproject = project / "pyproject.toml"
    pyproject.write_text(f'{table}\nunfixable = ["TRV101"]\n')
    assert not _fixable(toolret_cli)
    # The command line is a later layer: --fixable starts afresh, --extend-fixable adds,
    # --unfixable of another rule keeps the file's.
    assert _fixable(toolret_cli, "--fixable", "TRV101")
    assert _fixable(toolret_cli, "--extend-fixable", "TRV101")
    assert not _fixable(toolret_cli, "--unfixable", "TRV102")
    pyproject.write_text(f'{table}\nfixable = ["TRV2"]\nextend-fixable = ["TRV10"]\n')
    assert _fixable(toolret_cli)
    pyproject.write_text(f'{table}\nfixable = ["TRV2"]\n')
    assert not _fixable(toolret_cli)


def test_unfixable_rule_is_reported_not_fixed(project: Path, toolret_cli: Invoke) -> None:
    tool = project / "functions" / "count_bookings.py"
    result = toolret_cli("check", "-n", "--fix", "--unfixable", "TRV101")
    assert result.exit_code == 1
    assert tool.read_text() == INT_TOOL
    assert "TRV101" in result.stdout
    assert "fixable" not in result.stdout
    json_result = toolret_cli("check", "-n", "--output-format", "json", "--unfixable", "TRV101")
    assert '"fix": null' in json_result.stdout
    diff = toolret_cli("check", "-n", "--diff", "--unfixable", "TRV101")
    assert diff.exit_code == 0
    assert diff.stdout == ""
    fixed = toolret_cli("check", "-n", "--fix")
    assert fixed.exit_code == 0
    assert tool.read_text() != INT_TOOL


def test_fixable_selectors_are_validated(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("check", "-n", "--unfixable", "TRV199")
    assert result.exit_code == 2
    assert "invalid value 'TRV199' for '--unfixable <RULE_CODE>': Unknown rule selector" in (
        result.stderr
    )
    (project / "pyproject.toml").write_text('[tool.toolret.lint]\nextend-fixable = "TRV101"\n')
    bad = toolret_cli("check", "-n")
    assert bad.exit_code == 2
    assert "pyproject.toml:2:18: expected an array of rule selectors, got a string" in bad.stderr


# -- --show-settings --------------------------------------------------------------------


def test_show_settings_help_has_ruffs_wording(toolret_cli: Invoke) -> None:
    assert (
        "--show-settings See the settings toolret will use to lint a given Python file."
        in _help(toolret_cli)
    )


def test_show_settings_lists_the_first_files_settings(project: Path, toolret_cli: Invoke) -> None:
    (project / "functions" / "a_first.py").write_text("x = 1\n")
    (project / "pyproject.toml").write_text(
        '[tool.toolret]\nextend-exclude = ["gen"]\n[tool.toolret.lint]\nunfixable = ["TRV1"]\n'
    )
    result = toolret_cli("check", "--show-settings", "--extend-select", "TRV107", "functions")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    first = project / "functions" / "a_first.py"
    assert lines[0] == f'Resolved settings for: "{first}"'
    assert lines[1] == f'Settings path: "{project / "pyproject.toml"}"'
    assert "# General Settings" in lines
    assert 'file_resolver.extend_exclude = [\n\t"gen",\n]' in result.stdout
    assert 'linter.unfixable = [\n\t"TRV1",\n]' in result.stdout
    assert f'file_resolver.project_root = "{project}"' in result.stdout
    enabled = result.stdout.split("linter.rules.enabled = [\n")[1].split("]")[0]
    assert "\tpolyai-invalid-return-type (TRV101),\n" in enabled
    assert "(TRV107)" in enabled  # the command line's selection is applied
    should_fix = result.stdout.split("linter.rules.should_fix = [\n")[1].split("]")[0]
    assert "(TRV101)" not in should_fix
    assert "(TRV201)" in should_fix
    assert "linter.polyai.extra_return_keys = []" in lines
    # Nothing is checked: no diagnostics, exit 0 although TRV101 would be reported.
    assert "count_bookings" not in result.stdout


def test_show_settings_isolated_and_config_override(project: Path, toolret_cli: Invoke) -> None:
    (project / "pyproject.toml").write_text('[tool.toolret]\nignore = ["TRV101"]\n')
    isolated = toolret_cli("check", "--show-settings", "--isolated")
    assert isolated.exit_code == 0
    assert "Settings path" not in isolated.stdout
    assert "linter.ignore = []" in isolated.stdout
    override = toolret_cli("check", "--show-settings", "--config", "ignore = ['TRV2']")
    assert override.exit_code == 0
    assert 'linter.ignore = [\n\t"TRV2",\n]' in override.stdout
