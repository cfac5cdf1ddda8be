"""Config errors name the file, line and column and show the source line with a caret,
in plain words (ruff's layout); ``[tool.toolret.lint]`` is accepted as in ruff."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from lint_rules.config import ConfigError, load_settings
from lint_rules.toml_positions import TomlPositions
from tests.conftest import Invoke


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def failure(toolret_cli: Invoke) -> str:
    result = toolret_cli("check", "--no-cache", ".")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    return str(result.stderr)


# -- the layout of a message ---------------------------------------------------


def test_a_string_where_a_list_belongs(project: Path, toolret_cli: Invoke) -> None:
    write(project / "toolret.toml", '# rules\n\nselect = "TRV1"\n')
    assert failure(toolret_cli) == (
        "toolret: invalid configuration in toolret.toml\n"
        "toolret.toml:3:10: expected an array of rule selectors, got a string\n"
        "  |\n"
        '3 | select = "TRV1"\n'
        "  |          ^^^^^^\n"
    )


def test_pyproject_table(project: Path, toolret_cli: Invoke) -> None:
    write(
        project / "pyproject.toml",
        """\
        [project]
        name = "x"

        [tool.toolret]
        respect-gitignore = "no"
        """,
    )
    assert failure(toolret_cli) == (
        "toolret: invalid configuration in pyproject.toml\n"
        "pyproject.toml:5:21: expected `true` or `false`, got a string\n"
        "  |\n"
        '5 | respect-gitignore = "no"\n'
        "  |                     ^^^^\n"
    )


def test_every_error_is_shown_in_file_order(project: Path, toolret_cli: Invoke) -> None:
    write(
        project / "toolret.toml",
        """\
        force-exclude = 1
        exclude = ["ok", "gen/[abc"]
        [openai-chat]
        extra-clients = "groq"
        """,
    )
    lines = failure(toolret_cli).splitlines()
    assert [line for line in lines if line.startswith("toolret.toml:")] == [
        "toolret.toml:1:17: expected `true` or `false`, got an integer",
        "toolret.toml:2:18: unclosed character class in 'gen/[abc'",
        "toolret.toml:4:17: expected an array of names, got a string",
    ]


def test_an_unknown_key_points_at_the_key(project: Path, toolret_cli: Invoke) -> None:
    write(project / "pyproject.toml", '[tool.toolret]\n  selct = ["TRV1"]\n')
    assert failure(toolret_cli) == (
        "toolret: invalid configuration in pyproject.toml\n"
        "pyproject.toml:2:3: unknown key `tool.toolret.selct` (did you mean `select`?)\n"
        "  |\n"
        '2 |   selct = ["TRV1"]\n'
        "  |   ^\n"
    )


def test_a_value_where_a_table_belongs(project: Path, toolret_cli: Invoke) -> None:
    write(project / "pyproject.toml", '[tool.toolret]\npolyai = "yes"\n')
    assert failure(toolret_cli).splitlines()[1] == (
        "pyproject.toml:2:10: expected a table, got a string"
    )


def test_toml_syntax_error_has_a_caret(project: Path, toolret_cli: Invoke) -> None:
    write(project / "toolret.toml", 'select = ["TRV1" "TRV2"]\n')
    assert failure(toolret_cli) == (
        "toolret: invalid configuration in toolret.toml\n"
        "toolret.toml:1:18: TOML parse error: Unclosed array\n"
        "  |\n"
        '1 | select = ["TRV1" "TRV2"]\n'
        "  |                  ^\n"
    )


def test_a_config_outside_the_working_directory_is_shown_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "work").mkdir()
    config = write(tmp_path / "conf" / "toolret.toml", "select = 1\n")
    monkeypatch.chdir(tmp_path / "work")
    result = toolret_cli("check", "--no-cache", "--config", str(config), ".")
    assert result.exit_code == 2
    assert f"{config}:1:10: expected an array of rule selectors, got an integer" in result.stderr


# -- finding the position ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "position", "marked"),
    [
        # a dotted key at the top of pyproject
        ('tool.toolret.ignore = ["TRV101", 3]\n', "1:34", "3"),
        # a dotted key inside the table
        ('[tool.toolret]\npolyai.extra-return-keys = [""]\n', "2:29", '""'),
        # an inline table
        ('[tool]\ntoolret = { select = ["TRV1", 7] }\n', "2:31", "7"),
        # a framework sub-table
        ('[tool.toolret.openai-chat]\nextra-clients = ["groq", ""]\n', "2:26", '""'),
        # an array over several lines, with comments
        (
            '[tool.toolret]\nignore = [\n  "TRV101",  # fine\n  # next\n  "TRV999",\n]\n',
            "5:3",
            '"TRV999"',
        ),
        # a per-file-ignores key that is not a glob: the key is marked
        ('[tool.toolret.per-file-ignores]\n"[a" = ["TRV1"]\n', "2:1", '"'),
        # quoted table names and keys, literal strings
        ("[tool.'toolret'.\"per-file-ignores\"]\n'x.py' = ['TRV1', 'TRV95']\n", "2:19", "'TRV95'"),
        # a later table after others
        ('[tool.ruff]\nselect = ["E"]\n[tool.toolret]\nselect = ["E"]\n', "4:11", '"E"'),
        # the lint table
        ('[tool.toolret.lint]\nselect = "TRV1"\n', "2:10", '"TRV1"'),
        ('[tool.toolret]\nlint.ignore = ["TRV999"]\n', "2:16", '"TRV999"'),
        ('[tool.toolret.lint.polyai]\nextra-return-keys = "x"\n', "2:21", '"x"'),
        # a unicode escape in a key, and a multi-line string before the error
        (
            '[tool.toolret]\n"\\u0073elect" = 1\n',
            "2:17",
            "1",
        ),
    ],
)
def test_positions(tmp_path: Path, text: str, position: str, marked: str) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert caught.value.summary.startswith(f"{path}:{position}: ")
    source_line, caret_line = str(caught.value).splitlines()[3:5]
    column = int(position.split(":")[1])
    caret = caret_line.split("| ", 1)[1]
    assert caret.index("^") == column - 1
    source = source_line.split("| ", 1)[1]
    assert source[column - 1 : column - 1 + len(marked)] == marked


def test_without_a_position_the_file_and_key_are_still_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(TomlPositions, "find", lambda *args, **kwargs: None)
    path = write(tmp_path / "toolret.toml", 'select = "TRV1"\n')
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert str(caught.value) == (
        f"toolret: invalid configuration in {path}\n"
        f"{path}: `select`: expected an array of rule selectors, got a string"
    )


def test_scanner_records_every_value() -> None:
    text = textwrap.dedent(
        """\
        a = \"\"\"one
        two \\\""" \"\"\"
        b = 'x'  # comment
        [t]
        c = {d = [1, [2, 3]], e = "f"}
        """
    )
    positions = TomlPositions(text)
    assert positions.line_column(positions.spans[("b",)].value) == (3, 5)
    assert positions.line_column(positions.spans[("t", "c", "d", 1, 0)].value) == (5, 15)
    assert positions.line_column(positions.spans[("t", "c", "e")].value) == (5, 27)


# -- [tool.toolret.lint] --------------------------------------------------------


def test_lint_table_is_accepted(tmp_path: Path) -> None:
    path = write(
        tmp_path / "pyproject.toml",
        """\
        [tool.toolret]
        extend-exclude = ["gen"]

        [tool.toolret.lint]
        select = ["TRV1"]
        ignore = ["TRV105"]

        [tool.toolret.lint.per-file-ignores]
        "tests/*" = ["TRV101"]

        [tool.toolret.lint.polyai]
        extra-return-keys = ["x"]
        """,
    )
    settings = load_settings(path)
    assert settings.select == ("TRV1",)
    assert settings.ignore == ("TRV105",)
    assert settings.per_file_ignores == {"tests/*": ("TRV101",)}
    assert settings.polyai.extra_return_keys == ("x",)
    assert settings.extend_exclude == ("gen",)


def test_lint_and_top_level_keys_combine(tmp_path: Path) -> None:
    path = write(tmp_path / "toolret.toml", 'select = ["TRV1"]\n[lint]\nignore = ["TRV105"]\n')
    settings = load_settings(path)
    assert (settings.select, settings.ignore) == (("TRV1",), ("TRV105",))


def test_lint_table_decides_what_runs(project: Path, toolret_cli: Invoke) -> None:
    shutil.copytree(Path(__file__).parents[1] / "examples" / "openai_agents", project / "ex")
    before = toolret_cli("check", "--no-cache", "--output-format", "concise", ".")
    assert before.exit_code == 1
    codes = {line.split()[1] for line in before.stdout.splitlines() if ".py:" in line}
    write(project / "pyproject.toml", f"[tool.toolret.lint]\nignore = {sorted(codes)!r}\n")
    after = toolret_cli("check", "--no-cache", ".")
    assert after.exit_code == 0, after.output
    write(project / "pyproject.toml", '[tool.toolret.lint]\nselect = ["TRV1"]\n')
    assert toolret_cli("check", "--no-cache", ".").exit_code == 0


def test_a_key_in_both_places_is_an_error(project: Path, toolret_cli: Invoke) -> None:
    write(
        project / "pyproject.toml",
        '[tool.toolret]\nignore = ["TRV101"]\n\n[tool.toolret.lint]\nignore = ["TRV102"]\n',
    )
    assert failure(toolret_cli) == (
        "toolret: invalid configuration in pyproject.toml\n"
        "pyproject.toml:5:1: `ignore` is set both in `[tool.toolret.lint]` and at "
        "`[tool.toolret]`; keep one (the `lint` table is ruff's current layout)\n"
        "  |\n"
        '5 | ignore = ["TRV102"]\n'
        "  | ^\n"
    )


def test_a_key_in_both_places_in_toolret_toml(project: Path, toolret_cli: Invoke) -> None:
    write(project / "toolret.toml", 'select = ["TRV1"]\nlint.select = ["TRV2"]\n')
    assert failure(toolret_cli).splitlines()[1] == (
        "toolret.toml:2:1: `select` is set both in `[lint]` and at the top level; "
        "keep one (the `lint` table is ruff's current layout)"
    )


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        (
            '[tool.toolret.lint]\nexclude = ["gen"]\n',
            "2:1: `exclude` cannot be set in `[tool.toolret.lint]`; set it at `[tool.toolret]`",
        ),
        (
            "[tool.toolret.lint]\nselct = []\n",
            "2:1: unknown key `tool.toolret.lint.selct` (did you mean `select`?)",
        ),
        ("[tool.toolret]\nlint = []\n", "2:8: expected a table, got an array"),
        (
            '[tool.toolret.lint]\nignore = ["TRV110"]\n',
            "2:11: Unknown rule selector: `TRV110` (did you mean `TRV101`?)",
        ),
    ],
)
def test_lint_table_errors(tmp_path: Path, text: str, detail: str) -> None:
    path = write(tmp_path / "pyproject.toml", text)
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert caught.value.summary == f"{path}:{detail}"
