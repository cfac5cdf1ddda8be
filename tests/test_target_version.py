"""``target-version`` as ruff reads it, and TRV005 (``version-syntax``): syntax newer than
the target, reported as ruff's version-related syntax errors are (ruff 0.17.6's messages
and places), never instead of the file's other findings."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from lint_rules.analysis.syntax import pep701_syntax
from lint_rules.catalog import DEFAULT_ENABLED, frameworks_enabled
from lint_rules.config import (
    DEFAULT_TARGET_VERSION,
    TARGET_VERSIONS,
    ConfigError,
    Settings,
    SettingsResolver,
    load_settings,
    parse_config_override,
    requires_python_target,
)
from lint_rules.engine import check_source
from lint_rules.model import Diagnostic
from lint_rules.rules import UNSUPPRESSIBLE, VersionSyntax, get_rule

Invoke = Callable[..., Result]

ROOT = Path(__file__).resolve().parent.parent
ADDED = "(syntax was added in Python {})"

MCP_HEADER = 'from fastmcp import FastMCP\n\nmcp = FastMCP("orders")\n'


def trv005(source: str, target: str | None, path: str = "server.py") -> list[Diagnostic]:
    settings = Settings(target_version=target).with_overrides(extend_select=["TRV005"])
    return [d for d in check_source(source, path, settings) if d.code == "TRV005"]


def spans(found: list[Diagnostic]) -> list[tuple[int, int, int, int, str]]:
    return [
        (d.location.row, d.location.column, d.end_location.row, d.end_location.column, d.message)
        for d in found
    ]


def message(what: str, target: str, added: str) -> str:
    return f"{what} on Python {target} {ADDED.format(added)}"


# -- the configuration key -------------------------------------------------------------


def test_ruffs_values_and_default() -> None:
    assert TARGET_VERSIONS[0] == "py37" and TARGET_VERSIONS[-1] == "py315"
    assert {"py39", "py310", "py311", "py312", "py313", "py314"} <= set(TARGET_VERSIONS)
    assert DEFAULT_TARGET_VERSION == "py311"  # `ruff config target-version`, ruff 0.17.6
    assert Settings().target_version is None
    assert Settings().python_version == (3, 11)
    assert Settings(target_version="py39").python_version == (3, 9)
    assert Settings(target_version="py315").python_version == (3, 15)


def test_key_in_toolret_toml(tmp_path: Path) -> None:
    config = tmp_path / "toolret.toml"
    config.write_text('target-version = "py312"\n')
    assert load_settings(config).target_version == "py312"


def test_key_in_pyproject(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.toolret]\ntarget-version = "py39"\n')
    settings = load_settings(config)
    assert settings.target_version == "py39" and settings.python_version == (3, 9)


def test_unknown_value_is_an_error_at_its_place(tmp_path: Path) -> None:
    config = tmp_path / "toolret.toml"
    config.write_text('extend-select = ["TRV005"]\ntarget-version = "3.11"\n')
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    text = str(raised.value)
    assert "toolret.toml:2:18: unknown target version `3.11` (did you mean `py311`?)" in text
    assert "expected one of `py37`, `py38`" in text and "`py315`" in text
    assert '2 | target-version = "3.11"\n  |                  ^^^^^^' in text


def test_unknown_value_in_pyproject(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[project]\nname = "x"\n\n[tool.toolret]\ntarget-version = "py36"\n')
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    assert "pyproject.toml:5:18: unknown target version `py36`;" in raised.value.summary


def test_wrong_type_is_an_error(tmp_path: Path) -> None:
    config = tmp_path / "toolret.toml"
    config.write_text("target-version = 311\n")
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    assert "toolret.toml:1:18: expected a string, got an integer" in raised.value.summary


def test_not_a_lint_key(tmp_path: Path) -> None:
    config = tmp_path / "toolret.toml"
    config.write_text('[lint]\ntarget-version = "py311"\n')
    with pytest.raises(ConfigError) as raised:
        load_settings(config)
    assert "`target-version` cannot be set in `[lint]`; set it at the top level" in str(
        raised.value
    )


def test_config_override() -> None:
    assert parse_config_override("target-version = 'py38'") == {"target_version": "py38"}
    with pytest.raises(ConfigError, match="unknown target version `py2`"):
        parse_config_override("target-version = 'py2'")


def test_changes_the_fingerprint() -> None:
    """Cached results are keyed by the settings: another target, another key."""
    assert Settings(target_version="py39").fingerprint() != Settings().fingerprint()


# -- requires-python ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("specifier", "expected"),
    [
        (">=3.10", "py310"),
        ("~=3.11", "py311"),
        (">=3.9,<4", "py39"),
        (">= 3.13", "py313"),
        (">3.10", "py310"),
        ("==3.12.*", "py312"),
        ("==3.12", "py312"),
        (">=3.10.4", "py310"),
        ("~=3.11.2", "py311"),
        (">=3.8, !=3.9.*", "py38"),
        (">=3.9,>=3.12", "py312"),
        (">=3.13.0rc1", "py313"),
        # As ruff 0.17.6 (`ruff check --show-settings`): no lower bound, or one outside
        # ruff's versions, infers nothing.
        ("<3.12", None),
        ("!=3.9", None),
        (">=3.6", None),
        (">=3", None),
        (">=2.7,!=3.0.*", None),
        (">=3.16", None),
        # Not a specifier: ignored, silently.
        ("abc", None),
        ("", None),
        (">=3.10 and more", None),
        (3.10, None),
        (None, None),
    ],
)
def test_requires_python_lower_bound(specifier: object, expected: str | None) -> None:
    assert requires_python_target(specifier) == expected


def test_requires_python_is_the_fallback(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text(
        '[project]\nname = "x"\nrequires-python = ">=3.10"\n\n[tool.toolret]\nignore = []\n'
    )
    assert load_settings(config).target_version == "py310"


def test_target_version_wins_over_requires_python(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text(
        '[project]\nrequires-python = ">=3.10"\n\n[tool.toolret]\ntarget-version = "py313"\n'
    )
    assert load_settings(config).target_version == "py313"


def test_unreadable_requires_python_is_ignored(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[project]\nrequires-python = "three"\n\n[tool.toolret]\nignore = []\n')
    settings = load_settings(config)
    assert settings.target_version is None and settings.python_version == (3, 11)
    config.write_text("[project]\nrequires-python = 310\n\n[tool.toolret]\nignore = []\n")
    assert load_settings(config).target_version is None


def test_requires_python_of_toolret_toml_dir_is_not_read(tmp_path: Path) -> None:
    """Only the pyproject.toml that holds the settings gives its requires-python."""
    (tmp_path / "pyproject.toml").write_text('[project]\nrequires-python = ">=3.13"\n')
    config = tmp_path / "toolret.toml"
    config.write_text("ignore = []\n")
    assert load_settings(config).target_version is None


@pytest.mark.parametrize(
    ("pyproject", "expected"),
    [
        # a pyproject.toml without [tool.toolret] is no config file, but its
        # requires-python still sets the target (ruff's fallback: ruff 0.17 shows
        # `linter.unresolved_target_version = 3.12` for it)
        ('[project]\nname = "x"\nrequires-python = ">=3.12"\n\n[tool.pyright]\n', "py312"),
        ('[project]\nname = "x"\n', None),
        ("not toml [", None),
        # Poetry's python constraint, where requires-python is absent (ruff reads only
        # requires-python; toolret reads both so as not to report a project's own syntax)
        ('[tool.poetry.dependencies]\npython = "^3.13.0"\n', "py313"),
        ('[tool.poetry.dependencies]\npython = "~3.11"\n', "py311"),
        ('[tool.poetry.dependencies]\npython = ">=3.10,<4.0"\n', "py310"),
        ('[tool.poetry.dependencies]\npython = "^3.12 || ^3.10"\n', "py310"),
        ('[tool.poetry.dependencies]\npython = "3.12.*"\n', "py312"),
        ('[tool.poetry.dependencies]\npython = "*"\n', None),
        # requires-python wins
        (
            '[project]\nrequires-python = ">=3.9"\n[tool.poetry.dependencies]\npython = "^3.13"\n',
            "py39",
        ),
    ],
)
def test_requires_python_of_a_pyproject_without_a_table_is_the_fallback(
    tmp_path: Path, pyproject: str, expected: str | None
) -> None:
    (tmp_path / "pyproject.toml").write_text(pyproject)
    (tmp_path / "pkg").mkdir()
    assert SettingsResolver()(tmp_path / "pkg" / "m.py").target_version == expected
    # a config file, even without target-version, governs: nothing is read around it
    (tmp_path / "pkg" / "toolret.toml").write_text("ignore = []\n")
    assert SettingsResolver()(tmp_path / "pkg" / "m.py").target_version is None


# -- the command line --------------------------------------------------------------------


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\nrequires-python = ">=3.9"\n\n'
        '[tool.toolret]\nextend-select = ["TRV005"]\n'
    )
    (tmp_path / "server.py").write_text(
        MCP_HEADER
        + "\n\n@mcp.tool\ndef status(order: dict[str, str]) -> str:\n"
        + "    match order:\n        case _:\n            pass\n"
        + '    return f"{order["status"]}"\n'
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_requires_python_drives_trv005_on_the_command_line(
    project: Path, toolret_cli: Invoke
) -> None:
    result = toolret_cli("check", "--no-cache", "--output-format", "concise", "server.py")
    assert result.exit_code == 1
    assert (
        "server.py:8:5: TRV005 Cannot use `match` statement on Python 3.9 "
        "(syntax was added in Python 3.10)" in result.stdout
    )
    assert "server.py:11:21: TRV005 Cannot reuse outer quote character" in result.stdout


def test_flag_overrides_the_configuration(project: Path, toolret_cli: Invoke) -> None:
    newer = toolret_cli(
        "check", "--no-cache", "--output-format", "concise", "--target-version", "py310", "."
    )
    assert "match" not in newer.stdout
    assert (
        "server.py:11:21: TRV005 Cannot reuse outer quote character in f-strings on Python "
        "3.10 (syntax was added in Python 3.12)" in newer.stdout
    )
    newest = toolret_cli("check", "--no-cache", "--target-version", "py312", ".")
    assert newest.exit_code == 0, newest.stdout
    config = toolret_cli(
        "check", "--no-cache", "--config", "target-version = 'py312'", "--output-format", "json"
    )
    assert config.exit_code == 0 and config.stdout.strip() == "[]"


def test_fix_takes_the_flag_too(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("fix", "--no-cache", "--target-version", "py312", "--diff", ".")
    assert result.exit_code == 0, result.stdout + result.stderr


def test_flag_with_an_unknown_value(project: Path, toolret_cli: Invoke) -> None:
    result = toolret_cli("check", "--target-version", "py2", ".")
    assert result.exit_code == 2
    assert (
        "toolret: error: invalid value 'py2' for '--target-version <TARGET_VERSION>': "
        "unknown target version `py2`" in result.stderr
    )


def test_flag_in_help_and_show_settings(project: Path, toolret_cli: Invoke) -> None:
    assert "--target-version <TARGET_VERSION>" in toolret_cli("check", "--help").stdout
    shown = toolret_cli("check", "--show-settings", "--target-version", "py313", "server.py")
    assert 'linter.target_version = "py313"' in shown.stdout
    inferred = toolret_cli("check", "--show-settings", "server.py")
    assert 'linter.target_version = "py39"' in inferred.stdout


# -- TRV005: off by default ----------------------------------------------------------------


NEWER = MCP_HEADER + "type Rows = list[str]\n"


def test_registered_as_an_engine_code_that_is_off_by_default() -> None:
    assert DEFAULT_ENABLED["TRV005"] is False
    assert get_rule("TRV005") is VersionSyntax and get_rule("version-syntax") is VersionSyntax
    assert VersionSyntax.framework == "engine" and not VersionSyntax.default_enabled()
    assert "TRV005" not in Settings().enabled_codes(DEFAULT_ENABLED)
    assert "TRV005" not in UNSUPPRESSIBLE


def test_not_reported_by_default() -> None:
    found = check_source(NEWER, "server.py", Settings(target_version="py37"))
    assert [d.code for d in found] == []


def test_reported_with_extend_select_and_select() -> None:
    for settings in (
        Settings(target_version="py311").with_overrides(extend_select=["TRV005"]),
        Settings(target_version="py311").with_overrides(select=["TRV005"]),
        Settings(target_version="py311").with_overrides(select=["ALL"]),
    ):
        found = check_source(NEWER, "server.py", settings)
        assert [(d.code, d.location.row, d.location.column) for d in found] == [("TRV005", 4, 1)]


def test_select_alone_reads_every_signalled_file() -> None:
    """`--select TRV005` enables no framework rule: every framework is still read for its
    signal (the runner's prefilter too), and no framework rule runs."""
    assert frameworks_enabled(frozenset({"TRV005"})) == frameworks_enabled(
        frozenset(DEFAULT_ENABLED)
    )
    assert frameworks_enabled(frozenset({"TRV101"})) == ("polyai",)


def test_file_without_a_framework_is_not_reported() -> None:
    assert trv005("type Rows = list[str]\n", "py37", path="plain.py") == []


# -- TRV005: what and where ---------------------------------------------------------------


def test_pep701_fstrings_at_ruffs_places() -> None:
    source = MCP_HEADER + (
        'a = f"{row["name"]}"\n'  # 4
        "b = f\"{'\\n'.join(rows)}\"\n"  # 5
        'c = f"{row[\n'  # 6
        "    0  # first\n"  # 7
        ']}"\n'  # 8
        'd = f"{\n'  # 9
        'x}"\n'  # 10
        'e = f"""{row["name"]}"""\n'  # 11: fine before 3.12
        'g = f"{f"{x}"}"\n'  # 12
    )
    found = spans(trv005(source, "py311"))
    quote = message("Cannot reuse outer quote character in f-strings", "3.11", "3.12")
    backslash = message("Cannot use an escape sequence (backslash) in f-strings", "3.11", "3.12")
    comment = message("Cannot use comments in f-strings", "3.11", "3.12")
    line_break = message(
        "Cannot use line breaks in non-triple-quoted f-string replacement fields", "3.11", "3.12"
    )
    assert found == [
        (4, 12, 4, 13, quote),
        (5, 9, 5, 10, backslash),
        (7, 8, 7, 15, comment),
        (9, 7, 9, 8, line_break),
        (12, 9, 12, 10, quote),
    ]


def test_type_parameters_aliases_and_defaults() -> None:
    source = MCP_HEADER + (
        "type Rows = list[str]\n"  # 4
        "def first[T](items: list[T]) -> T:\n"  # 5
        "    return items[0]\n"
        "class Box[T = str]:\n"  # 7
        "    pass\n"
    )
    alias = message("Cannot use `type` alias statement", "3.11", "3.12")
    params = message("Cannot use type parameter lists", "3.11", "3.12")
    default = message("Cannot set default type for a type parameter", "3.11", "3.13")
    assert spans(trv005(source, "py311")) == [
        (4, 1, 4, 5, alias),
        (5, 10, 5, 13, params),
        (7, 10, 7, 19, params),
        (7, 13, 7, 18, default),
    ]
    assert spans(trv005(source, "py312")) == [
        (7, 13, 7, 18, message("Cannot set default type for a type parameter", "3.12", "3.13"))
    ]
    assert trv005(source, "py313") == []


def test_except_star_match_and_parenthesized_with() -> None:
    source = MCP_HEADER + (
        "def handle(x):\n"  # 4
        "    try:\n"
        "        pass\n"
        "    except* ValueError:\n"  # 7
        "        pass\n"
        "    match x:\n"  # 9
        "        case 1:\n"
        "            pass\n"
        '    with (open("a") as a, open("b") as b):\n'  # 12
        "        pass\n"
        '    with (open("a")):\n'  # 14: a parenthesized expression in every version
        "        pass\n"
        '    with (open("a"), open("b")) as both:\n'  # 16: a tuple, with a target
        "        pass\n"
    )
    assert spans(trv005(source, "py38")) == [
        (7, 11, 7, 12, message("Cannot use `except*`", "3.8", "3.11")),
        (9, 5, 9, 10, message("Cannot use `match` statement", "3.8", "3.10")),
        (12, 10, 12, 11, message("Cannot use parentheses within a `with` statement", "3.8", "3.9")),
    ]
    assert [d.location.row for d in trv005(source, "py39")] == [7, 9]
    assert [d.location.row for d in trv005(source, "py310")] == [7]
    assert trv005(source, "py311") == []


def test_nothing_when_the_target_is_new_enough() -> None:
    source = MCP_HEADER + (ROOT / "examples/newer_syntax/support/tools.py").read_text()
    assert len(trv005(source, "py311")) == 5
    assert trv005(source, "py312") == []
    assert trv005(source, "py315") == []


def test_python_314_syntax_where_libcst_reads_it() -> None:
    source = MCP_HEADER + "try:\n    pass\nexcept ValueError, TypeError:\n    pass\n"
    try:
        found = trv005(source, "py313")
    except Exception:  # pragma: no cover - an older LibCST: TRV001, nothing to test
        pytest.skip("this LibCST does not read PEP 758")
    parenthesize = "Multiple exception types must be parenthesized"
    assert spans(found) == [(6, 8, 6, 29, message(parenthesize, "3.13", "3.14"))]
    assert trv005(source, "py314") == []


def test_detection_does_not_depend_on_the_running_python() -> None:
    """The scanner reads the text: the same answer under 3.11 as under 3.13."""
    assert pep701_syntax('x = f"{a["b"]}"\n') == [(9, 10, "quote")]
    assert pep701_syntax("x = f'{a[\"b\"]}'\n") == []  # another quote: fine in 3.6
    assert pep701_syntax('x = f"{{a["b"]}}"\n') == []  # escaped braces: no field
    assert pep701_syntax('x = f"{a:\\n}"\n') == []  # a format spec's backslash
    assert pep701_syntax('x = t"{a["b"]}"\n') == []  # a t-string's own version
    assert pep701_syntax('x = "unterminated\n') == []  # unreadable: nothing certain


# -- TRV005 beside the other findings --------------------------------------------------------


def test_newer_syntax_never_hides_a_finding() -> None:
    source = 'def count(conv):\n    label = f"{conv.state["n"]}"\n    return 3\n'
    settings = Settings(target_version="py311").with_overrides(extend_select=["TRV005"])
    found = check_source(source, "functions/count.py", settings)
    assert [(d.code, d.location.row, d.location.column) for d in found] == [
        ("TRV005", 2, 27),
        ("TRV101", 3, 12),
    ]
    assert all(d.code != "TRV001" for d in found)
    # Without TRV005 the finding is the same: the syntax is never a parse failure.
    plain = check_source(source, "functions/count.py", Settings(target_version="py311"))
    assert [(d.code, d.location.row) for d in plain] == [("TRV101", 3)]


def test_noqa_and_per_file_ignores(tmp_path: Path) -> None:
    source = NEWER.replace("list[str]\n", "list[str]  # noqa: TRV005\n")
    assert trv005(source, "py311") == []
    assert trv005(NEWER.replace("list[str]\n", "list[str]  # noqa\n"), "py311") == []
    settings = Settings(target_version="py311", root=tmp_path).with_overrides(
        extend_select=["TRV005"], per_file_ignores={"gen/*.py": ["TRV005"]}
    )
    assert check_source(NEWER, str(tmp_path / "gen/server.py"), settings) == []
    assert [d.code for d in check_source(NEWER, str(tmp_path / "server.py"), settings)] == [
        "TRV005"
    ]


def test_examples_keep_their_findings(
    tmp_path: Path, toolret_cli: Invoke, monkeypatch: pytest.MonkeyPatch
) -> None:
    """examples/newer_syntax at py311: TRV005 where 3.12 syntax is, and every `# expect:`
    finding the example documents, at the same places as without TRV005."""
    shutil.copytree(ROOT / "examples/newer_syntax", tmp_path / "newer_syntax")
    monkeypatch.chdir(tmp_path)
    args = ("check", "--isolated", "--no-cache", "--output-format", "concise", "newer_syntax")
    plain = toolret_cli(*args).stdout.splitlines()
    with_versions = toolret_cli(*args, "--extend-select", "TRV005", "--target-version", "py311")
    lines = with_versions.stdout.splitlines()
    others = [line for line in lines if " TRV005 " not in line and line.startswith("newer")]
    assert others == [line for line in plain if line.startswith("newer")]
    assert any("TRV409" in line for line in others) and any("TRV602" in line for line in others)
    assert "newer_syntax/support/tools.py:5:1: TRV005 Cannot use `type` alias statement" in (
        with_versions.stdout
    )
    assert "newer_syntax/weather_loop.py:21:22: TRV005 Cannot reuse outer quote" in (
        with_versions.stdout
    )


def test_settings_replace_keeps_the_target() -> None:
    settings = dataclasses.replace(Settings(target_version="py39"), ignore=("TRV1",))
    assert settings.with_overrides(select=["TRV005"]).python_version == (3, 9)
    assert Settings(target_version="py39").with_overrides(
        target_version="py312"
    ).python_version == (
        3,
        12,
    )


def test_noqa_of_a_multi_line_fstring_goes_after_it() -> None:
    """A comment inside a triple-quoted f-string's field: its directive is where the
    string ends, as for every finding inside a multi-line string (the directive
    cannot be written inside the string)."""
    source = MCP_HEADER + 'x = f"""{\n    a  # first\n}"""\n'
    (found,) = trv005(source, "py311")
    assert (found.location.row, found.location.column) == (5, 8)
    assert found.noqa_line == 6
    assert trv005(source.replace('}"""\n', '}"""  # noqa: TRV005\n'), "py311") == []


def test_a_noqa_inside_an_fstring_field_is_not_a_directive() -> None:
    """3.12+ tokenizes a field's comment as a COMMENT; 3.11 sees one string. Both read
    it as part of the string, so every interpreter reports the same (byte-identical
    JSON across interpreters)."""
    source = MCP_HEADER + 'x = f"""{\n    a  # noqa: TRV005\n}"""\n'
    (found,) = trv005(source, "py311")
    assert found.noqa_line == 6


def test_flake8_plugin_reads_the_target_and_ignores_trv005_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lint_rules import flake8_plugin

    assert "TRV005" in flake8_plugin._OFF_BY_DEFAULT  # flake8's default-ignore list
    (tmp_path / "toolret.toml").write_text('target-version = "py39"\n')
    source = MCP_HEADER + "match x:\n    case 1:\n        pass\n"
    (tmp_path / "server.py").write_text(source)
    monkeypatch.setattr(flake8_plugin.ToolretChecker, "_project", None)
    monkeypatch.setattr(flake8_plugin.ToolretChecker, "_resolver", None)
    checker = flake8_plugin.ToolretChecker(
        None, source.splitlines(keepends=True), str(tmp_path / "server.py")
    )
    assert [(row, column, text) for row, column, text, _ in checker.run()] == [
        (
            4,
            0,
            "TRV005 Cannot use `match` statement on Python 3.9 (syntax was added in Python 3.10)",
        )
    ]
