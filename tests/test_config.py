"""Settings: config files, validation messages, ruff's rule-selection semantics."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lint_rules.catalog import CODE_PREFIXES
from lint_rules.config import (
    DEFAULT_EXCLUDE,
    ConfigError,
    PolyAISettings,
    Settings,
    SettingsResolver,
    find_config_file,
    load_settings,
)

PREFIXES = ", ".join(f"`{p}`" for p in CODE_PREFIXES)
"""The registered prefixes, as the selector error lists them."""

# A stand-in registry: every code and whether it is on by default (info rules are off).
RULES = {
    "TRV001": True,
    "TRV002": True,
    "TRV101": True,
    "TRV102": True,
    "TRV105": True,
    "TRV107": False,
    "TRV108": True,
    "TRV201": True,
    "TRV208": False,
    "TRV301": True,
    "TRV307": False,
    "TRV308": False,
    "TRV401": True,
}
DEFAULT_ON = {code for code, on in RULES.items() if on}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


# -- reading files -----------------------------------------------------------


def test_defaults() -> None:
    settings = Settings()
    assert settings.select is None
    assert settings.extend_select == ()
    assert settings.ignore == ()
    assert settings.per_file_ignores == {}
    assert settings.exclude == DEFAULT_EXCLUDE
    assert settings.respect_gitignore is True
    assert settings.force_exclude is False
    assert settings.polyai == PolyAISettings(extra_return_keys=())
    assert settings.openai_chat.extra_clients == ()
    assert settings.root is None
    assert ".toolret_cache" in DEFAULT_EXCLUDE and "site-packages" in DEFAULT_EXCLUDE


def test_load_pyproject(tmp_path: Path) -> None:
    path = write(
        tmp_path / "pyproject.toml",
        """\
        [project]
        name = "agent"

        [tool.toolret]
        select = ["TRV1", "TRV201"]
        extend-select = ["TRV308"]
        ignore = ["TRV102"]
        extend-exclude = ["generated"]
        respect-gitignore = false
        force-exclude = true

        [tool.toolret.per-file-ignores]
        "tests/*" = ["TRV1"]

        [tool.toolret.polyai]
        extra-return-keys = ["metadata"]

        [tool.toolret.browser-use]
        extra-action-result-fields = ["attachments"]

        [tool.toolret.openai-agents]
        extra-agent-arguments = ["hooks_v2"]

        [tool.toolret.openai-chat]
        extra-clients = ["groq", "litellm"]
        """,
    )
    settings = load_settings(path)
    assert settings.select == ("TRV1", "TRV201")
    assert settings.extend_select == ("TRV308",)
    assert settings.ignore == ("TRV102",)
    assert settings.extend_exclude == ("generated",)
    assert settings.exclude == DEFAULT_EXCLUDE
    assert settings.respect_gitignore is False
    assert settings.force_exclude is True
    assert settings.per_file_ignores == {"tests/*": ("TRV1",)}
    assert settings.polyai.extra_return_keys == ("metadata",)
    assert settings.browser_use.extra_action_result_fields == ("attachments",)
    assert settings.openai_agents.extra_agent_arguments == ("hooks_v2",)
    assert settings.openai_chat.extra_clients == ("groq", "litellm")
    assert settings.root == tmp_path


@pytest.mark.parametrize("name", ["toolret.toml", ".toolret.toml"])
def test_load_toolret_toml(tmp_path: Path, name: str) -> None:
    path = write(
        tmp_path / name,
        """\
        ignore = ["TRV105"]
        [polyai]
        extra-return-keys = ["x"]
        """,
    )
    settings = load_settings(path)
    assert settings.ignore == ("TRV105",)
    assert settings.polyai.extra_return_keys == ("x",)
    assert settings.root == tmp_path


def test_pyproject_without_table_loads_defaults(tmp_path: Path) -> None:
    path = write(tmp_path / "pyproject.toml", "[tool.ruff]\nline-length = 100\n")
    assert load_settings(path) == Settings(root=tmp_path)


def test_python_names_work_in_code_only() -> None:
    assert Settings.from_mapping({"extend_select": ["TRV1"]}).extend_select == ("TRV1",)


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        (
            '[tool.toolret]\nselct = ["TRV1"]\n',
            "2:1: unknown key `tool.toolret.selct` (did you mean `select`?)",
        ),
        (
            '[tool.toolret]\nextend_select = ["TRV1"]\n',
            "2:1: unknown key `tool.toolret.extend_select` (did you mean `extend-select`?)",
        ),
        (
            "[tool.toolret.polyia]\n",
            "1:1: unknown key `tool.toolret.polyia` (did you mean `polyai`?)",
        ),
        (
            '[tool.toolret.polyai]\nextra-return-key = ["x"]\n',
            "2:1: unknown key `tool.toolret.polyai.extra-return-key` "
            "(did you mean `extra-return-keys`?)",
        ),
        ("[tool.toolret]\nline-length = 100\n", "2:1: unknown key `tool.toolret.line-length`"),
        ('[tool.toolret]\nroot = "/"\n', "2:1: unknown key `tool.toolret.root`"),
        (
            '[tool.toolret]\nselect = ["TRV1", "E501"]\n',
            "2:19: Unknown rule selector: `E501` (expected `ALL` or "
            f"a code prefix ({PREFIXES}) followed by "
            "up to three digits, e.g. `TRV1`, `TRV101`)",
        ),
        (
            '[tool.toolret]\nignore = ["TRV1001"]\n',
            "2:11: Unknown rule selector: `TRV1001` (expected `ALL` or "
            f"a code prefix ({PREFIXES}) followed by "
            "up to three digits, e.g. `TRV1`, `TRV101`)",
        ),
        (
            '[tool.toolret.per-file-ignores]\n"tests/*" = ["trv101"]\n',
            "2:14: Unknown rule selector: `trv101` (did you mean `TRV101`?)",
        ),
        (
            '[tool.toolret]\nrespect-gitignore = "no"\n',
            "2:21: expected `true` or `false`, got a string",
        ),
        (
            '[tool.toolret]\nselect = "TRV1"\n',
            "2:10: expected an array of rule selectors, got a string",
        ),
        (
            '[tool.toolret]\nextend-exclude = ["gen/[abc"]\n',
            "2:19: unclosed character class in 'gen/[abc'",
        ),
        ("[tool.toolret]\npolyai = 1\n", "2:10: expected a table, got an integer"),
    ],
)
def test_invalid_pyproject(tmp_path: Path, text: str, detail: str) -> None:
    path = write(tmp_path / "pyproject.toml", text)
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert caught.value.summary == f"{path}:{detail}"
    assert str(caught.value).startswith(f"toolret: invalid configuration in {path}\n{path}:")


def test_toml_syntax_error(tmp_path: Path) -> None:
    path = write(tmp_path / "pyproject.toml", "[tool.toolret\n")
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert str(caught.value) == (
        f"toolret: invalid configuration in {path}\n"
        f"{path}:1:14: TOML parse error: Expected ']' at the end of a table declaration\n"
        "  |\n"
        "1 | [tool.toolret\n"
        "  |              ^"
    )


def test_invalid_toolret_toml_names_top_level_key(tmp_path: Path) -> None:
    path = write(tmp_path / "toolret.toml", 'ignor = ["TRV101"]\n')
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert str(caught.value) == (
        f"toolret: invalid configuration in {path}\n"
        f"{path}:1:1: unknown key `ignor` (did you mean `ignore`?)\n"
        "  |\n"
        '1 | ignor = ["TRV101"]\n'
        "  | ^"
    )


def test_several_bad_values_are_reported_together(tmp_path: Path) -> None:
    path = write(tmp_path / "toolret.toml", 'select = ["X"]\nforce-exclude = 1\n')
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert caught.value.summary == (
        f"{path}:1:11: Unknown rule selector: `X` (expected `ALL` or "
        f"a code prefix ({PREFIXES}) followed by "
        "up to three digits, e.g. `TRV1`, `TRV101`); "
        f"{path}:2:17: expected `true` or `false`, got an integer"
    )


# -- finding files -----------------------------------------------------------


def test_closest_config_wins(tmp_path: Path) -> None:
    outer = write(tmp_path / "pyproject.toml", '[tool.toolret]\nignore = ["TRV101"]\n')
    inner = write(tmp_path / "services" / "voice" / "toolret.toml", 'ignore = ["TRV102"]\n')
    source = write(tmp_path / "services" / "voice" / "functions" / "hangup.py", "")
    write(tmp_path / "services" / "other" / "tool.py", "")
    assert find_config_file(source) == inner
    assert find_config_file(tmp_path / "services" / "voice") == inner
    assert find_config_file(tmp_path / "services" / "other" / "tool.py") == outer
    assert find_config_file(tmp_path) == outer


def test_pyproject_without_table_is_not_a_config_file(tmp_path: Path) -> None:
    outer = write(tmp_path / "toolret.toml", "")
    write(tmp_path / "pkg" / "pyproject.toml", '[project]\nname = "pkg"\n# toolret is great\n')
    write(tmp_path / "pkg2" / "pyproject.toml", '[project]\nname = "pkg2"\n')
    assert find_config_file(tmp_path / "pkg" / "a.py") == outer
    assert find_config_file(tmp_path / "pkg2" / "a.py") == outer


def test_table_only_for_a_framework_makes_a_config_file(tmp_path: Path) -> None:
    path = write(tmp_path / "pyproject.toml", '[tool.toolret.polyai]\nextra-return-keys = ["a"]\n')
    assert find_config_file(tmp_path / "a.py") == path


def test_precedence_within_one_directory(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.toolret]\n")
    assert find_config_file(tmp_path) == tmp_path / "pyproject.toml"
    write(tmp_path / "toolret.toml", "")
    assert find_config_file(tmp_path) == tmp_path / "toolret.toml"
    write(tmp_path / ".toolret.toml", "")
    assert find_config_file(tmp_path) == tmp_path / ".toolret.toml"


def test_broken_pyproject_met_while_searching_is_an_error(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.toolret\n")
    with pytest.raises(ConfigError, match="TOML parse error"):
        find_config_file(tmp_path / "a.py")


def test_resolver_uses_the_closest_file_and_caches(tmp_path: Path) -> None:
    write(tmp_path / "toolret.toml", 'ignore = ["TRV101"]\n')
    write(tmp_path / "sub" / "toolret.toml", 'ignore = ["TRV102"]\n')
    resolver = SettingsResolver()
    top = resolver(tmp_path / "a.py")
    sub = resolver(tmp_path / "sub" / "deeper" / "b.py")
    assert top.ignore == ("TRV101",)
    assert sub.ignore == ("TRV102",)
    assert sub.root == tmp_path / "sub"
    assert resolver(tmp_path / "c.py") is top
    assert resolver.config_file_for(tmp_path / "sub" / "b.py") == tmp_path / "sub" / "toolret.toml"


def test_resolver_with_explicit_config_and_overrides(tmp_path: Path) -> None:
    config = write(tmp_path / "ci.toml", 'ignore = ["TRV101"]\n')
    write(tmp_path / "sub" / "toolret.toml", 'ignore = ["TRV102"]\n')
    resolver = SettingsResolver(
        config_file=config, overrides=lambda s: s.with_overrides(extend_select=["TRV107"])
    )
    settings = resolver(tmp_path / "sub" / "a.py")
    assert settings.ignore == ("TRV101",)
    assert settings.enabled_codes(RULES) == (DEFAULT_ON - {"TRV101"}) | {"TRV107"}


def test_resolver_without_any_config_gives_defaults(tmp_path: Path) -> None:
    resolver = SettingsResolver(overrides=lambda s: s.with_overrides(force_exclude=True))
    settings = resolver(tmp_path / "a.py")
    if settings.root is None:  # no config above the temporary directory
        assert settings == Settings(force_exclude=True)


# -- rule selection ----------------------------------------------------------


def enabled(**kwargs: object) -> set[str]:
    return set(Settings.from_mapping(kwargs).enabled_codes(RULES))


def test_default_selection_is_default_on_rules() -> None:
    assert enabled() == DEFAULT_ON
    assert {"TRV001", "TRV002"} <= enabled()
    assert "TRV107" not in enabled()


def test_select_prefix_enables_default_off_rules() -> None:
    assert enabled(select=["TRV1"]) == {"TRV101", "TRV102", "TRV105", "TRV107", "TRV108"}
    assert enabled(select=["TRV107"]) == {"TRV107"}
    assert enabled(select=["ALL"]) == set(RULES)
    assert enabled(select=["TRV"]) == set(RULES)
    assert enabled(select=[]) == set()


def test_extend_select_adds_to_defaults() -> None:
    assert enabled(extend_select=["TRV3"]) == DEFAULT_ON | {"TRV307", "TRV308"}
    assert enabled(select=["TRV2"], extend_select=["TRV401"]) == {"TRV201", "TRV208", "TRV401"}


def test_ignore_removes() -> None:
    assert enabled(ignore=["TRV1"]) == DEFAULT_ON - {"TRV101", "TRV102", "TRV105", "TRV108"}
    assert enabled(ignore=["ALL"]) == set()
    assert enabled(ignore=["TRV001"]) == DEFAULT_ON - {"TRV001"}


def test_more_specific_selector_wins() -> None:
    assert enabled(select=["TRV101"], ignore=["TRV1"]) == {"TRV101"}
    assert enabled(select=["TRV1"], ignore=["TRV101"]) == {"TRV102", "TRV105", "TRV107", "TRV108"}
    assert enabled(select=["ALL"], ignore=["TRV1"], extend_select=["TRV107"]) == (
        set(RULES) - {"TRV101", "TRV102", "TRV105", "TRV108"}
    )
    assert enabled(ignore=["TRV10"], extend_select=["TRV108"]) == DEFAULT_ON - {
        "TRV101",
        "TRV102",
        "TRV105",
    }


def test_ignore_wins_at_equal_specificity() -> None:
    assert enabled(select=["TRV1"], ignore=["TRV1"]) == set()
    assert enabled(extend_select=["TRV107"], ignore=["TRV107"]) == DEFAULT_ON


def test_cli_select_replaces_config_selection_including_ignore() -> None:
    config = Settings(select=("TRV1", "TRV2"), ignore=("TRV101",))
    assert config.with_overrides(select=["TRV1"]).enabled_codes(RULES) == {
        "TRV101",
        "TRV102",
        "TRV105",
        "TRV107",
        "TRV108",
    }


def test_cli_extend_select_and_ignore_add_to_config() -> None:
    config = Settings(select=("TRV1",), ignore=("TRV101",))
    assert config.with_overrides(extend_select=["TRV101", "TRV201"]).enabled_codes(RULES) == {
        "TRV101",
        "TRV102",
        "TRV105",
        "TRV107",
        "TRV108",
        "TRV201",
    }
    assert config.with_overrides(ignore=["TRV105"]).enabled_codes(RULES) == {
        "TRV102",
        "TRV107",
        "TRV108",
    }
    # Flags of one invocation form one layer: specificity decides between them.
    assert config.with_overrides(select=["TRV101"], ignore=["TRV1"]).enabled_codes(RULES) == {
        "TRV101"
    }


def test_empty_select_with_ignore_carries_ignores_over() -> None:
    config = Settings(select=(), ignore=("TRV101",))
    assert config.with_overrides(extend_select=["TRV1"]).enabled_codes(RULES) == {
        "TRV102",
        "TRV105",
        "TRV107",
        "TRV108",
    }


def test_overrides_of_file_selection() -> None:
    config = Settings(extend_exclude=("a",), per_file_ignores={"x.py": ("TRV1",)})
    changed = config.with_overrides(
        exclude=["only"],
        extend_exclude=["b"],
        extend_per_file_ignores={"y.py": ["TRV2"]},
        respect_gitignore=False,
        force_exclude=True,
    )
    assert changed.exclude == ("only",)
    assert changed.extend_exclude == ("a", "b")
    assert changed.per_file_ignores == {"x.py": ("TRV1",)}
    assert changed.extend_per_file_ignores == {"y.py": ("TRV2",)}
    assert (changed.respect_gitignore, changed.force_exclude) == (False, True)
    assert config.with_overrides(per_file_ignores={}).per_file_ignores == {}
    assert config.with_overrides() == config


def test_invalid_override_names_the_flag() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings().with_overrides(select=["TRV1"], ignore=["F401"])
    assert str(caught.value) == (
        "toolret: error: invalid value 'F401' for '--ignore <RULE_CODE>': "
        "Unknown rule selector: `F401` (expected `ALL` or "
        f"a code prefix ({PREFIXES}) followed by up to three digits, "
        "e.g. `TRV1`, `TRV101`)"
    )


def test_selectors_that_select_nothing_are_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings().with_overrides(ignore=["TRV999"], extend_select=["TRV110"])
    assert caught.value.summary == (
        "invalid value 'TRV110' for '--extend-select <RULE_CODE>': "
        "Unknown rule selector: `TRV110` (did you mean `TRV101`?); "
        "invalid value 'TRV999' for '--ignore <RULE_CODE>': Unknown rule selector: `TRV999`"
    )


def test_unknown_selectors() -> None:
    settings = Settings(select=("TRV1", "TRV9"), per_file_ignores={"a.py": ("TRV55",)})
    assert settings.unknown_selectors(RULES) == ("TRV55", "TRV9")


# -- per-file-ignores and excludes -------------------------------------------


def test_per_file_ignores(tmp_path: Path) -> None:
    settings = Settings(
        root=tmp_path,
        per_file_ignores={
            "tests/*": ("TRV1",),
            "__init__.py": ("TRV201",),
            "src/**/legacy_*.py": ("TRV301",),
            "!src/agents/*": ("TRV401",),
        },
        extend_per_file_ignores={"tests/*": ("TRV001",)},
    )
    assert settings.ignored_for_file(tmp_path / "tests" / "deep" / "test_a.py") == {
        "TRV1",
        "TRV001",
        "TRV401",
    }
    assert settings.ignored_for_file(tmp_path / "src" / "pkg" / "__init__.py") == {
        "TRV201",
        "TRV401",
    }
    assert settings.ignored_for_file(tmp_path / "src" / "legacy_tools.py") == {"TRV301", "TRV401"}
    assert settings.ignored_for_file(tmp_path / "src" / "agents" / "bot.py") == set()
    assert settings.enabled_codes_for(tmp_path / "tests" / "test_a.py", RULES) == (
        DEFAULT_ON - {"TRV001", "TRV101", "TRV102", "TRV105", "TRV108", "TRV401"}
    )
    assert settings.enabled_codes_for(tmp_path / "src" / "agents" / "bot.py", RULES) == DEFAULT_ON


def test_per_file_ignores_relative_to_root_and_to_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(root=tmp_path / "proj", per_file_ignores={"gen/*.py": ("TRV1",)})
    assert settings.ignored_for_file(tmp_path / "proj" / "gen" / "a.py") == {"TRV1"}
    assert settings.ignored_for_file(tmp_path / "gen" / "a.py") == set()
    monkeypatch.chdir(tmp_path)
    defaults = Settings(per_file_ignores={"gen/*.py": ("TRV1",)})
    assert defaults.ignored_for_file(Path("gen/a.py")) == {"TRV1"}


def test_is_excluded(tmp_path: Path) -> None:
    settings = Settings(root=tmp_path, extend_exclude=("src/generated", "*_pb2.py", "{a,b}.py"))
    assert settings.is_excluded(tmp_path / ".venv")
    assert settings.is_excluded(tmp_path / "deep" / "node_modules")
    assert settings.is_excluded(tmp_path / ".toolret_cache")
    assert settings.is_excluded(tmp_path / "src" / "generated")
    assert not settings.is_excluded(tmp_path / "other" / "src" / "generated")
    assert settings.is_excluded(tmp_path / "x" / "api_pb2.py")
    assert settings.is_excluded(tmp_path / "b.py")
    assert not settings.is_excluded(tmp_path / "c.py")
    assert not settings.is_excluded(tmp_path / "src" / "tools.py")
    replaced = Settings(root=tmp_path, exclude=("vendor",))
    assert not replaced.is_excluded(tmp_path / ".venv")
    assert replaced.is_excluded(tmp_path / "vendor")


# -- identity ----------------------------------------------------------------


def test_fingerprint_and_hash() -> None:
    a = Settings(select=("TRV1",), per_file_ignores={"a.py": ("TRV101",), "b.py": ("TRV102",)})
    b = Settings(select=("TRV1",), per_file_ignores={"b.py": ("TRV102",), "a.py": ("TRV101",)})
    assert a.fingerprint() == b.fingerprint()
    assert len(a.fingerprint()) == 64
    assert a == b and hash(a) == hash(b)
    assert a.fingerprint() != Settings(select=("TRV1",)).fingerprint()
    assert Settings().fingerprint() != Settings().with_overrides(ignore=["TRV101"]).fingerprint()
    assert Settings().fingerprint() != Settings(root=Path("/x")).fingerprint()
    assert {a: 1}[b] == 1


def test_settings_are_immutable() -> None:
    settings = Settings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.select = ("TRV1",)  # type: ignore[misc]


def test_a_copy_does_not_keep_stale_derived_values(tmp_path: Path) -> None:
    settings = Settings(ignore=("TRV101",), root=tmp_path)
    assert "TRV101" not in settings.enabled_codes(RULES)
    assert not settings.is_excluded(tmp_path / "gen")
    fingerprint = settings.fingerprint()
    copied = dataclasses.replace(settings, ignore=(), extend_exclude=("gen",))
    assert "TRV101" in copied.enabled_codes(RULES)
    assert copied.is_excluded(tmp_path / "gen")
    assert copied.fingerprint() != fingerprint
    assert copied != settings
    assert dataclasses.replace(copied, ignore=("TRV101",), extend_exclude=()) == settings


def test_exclude_bang_is_literal(tmp_path: Path) -> None:
    settings = Settings(root=tmp_path, exclude=("!keep",))
    assert settings.is_excluded(tmp_path / "!keep")
    assert not settings.is_excluded(tmp_path / "other")


# -- start-up ----------------------------------------------------------------
# Importing pydantic costs more than checking a small tree, so only reading a
# config file with a toolret table does; each check runs in a fresh interpreter.


def _python(code: str, cwd: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


def test_importing_the_cli_does_not_import_pydantic(tmp_path: Path) -> None:
    assert _python("import lint_rules.cli, sys; print('pydantic' in sys.modules)", tmp_path) == [
        "False"
    ]


def _check_imports(cwd: Path, module: str) -> str:
    """``toolret check --no-cache .`` in a fresh interpreter: its exit code, and whether
    ``module`` was imported by the end."""
    code = f"""\
        import sys
        from lint_rules.cli import main
        sys.argv = ["toolret", "check", "--no-cache", "."]
        try:
            main()
        except SystemExit as exit:
            print(exit.code, {module!r} in sys.modules)
        """
    return _python(code, cwd)[-1]


def test_checking_a_tree_without_config_or_tool_files_does_not_import_pydantic(
    tmp_path: Path,
) -> None:
    write(tmp_path / "pkg" / "a.py", "x = 1\n")
    assert _check_imports(tmp_path, "pydantic") == "0 False"


def test_checking_a_tree_without_tool_files_does_not_import_libcst(tmp_path: Path) -> None:
    # LibCST (and the rules) cost a quarter of a second to import: a tree whose files no
    # family signals is checked without it, in one process or in a pool.
    for n in range(60):
        write(tmp_path / "pkg" / f"m{n}.py", "import os\n\n\ndef f():\n    return os.sep\n" * 200)
    assert _check_imports(tmp_path, "libcst") == "0 False"


def test_a_config_file_is_still_validated_with_pydantic(tmp_path: Path) -> None:
    write(tmp_path / "plain" / "a.py", "")
    write(tmp_path / "project" / "pyproject.toml", '[tool.toolret]\nignore = ["TRV101"]\n')
    write(tmp_path / "bad" / "toolret.toml", 'respect-gitignore = "yes"\n')
    code = """\
        import sys
        from pathlib import Path
        from lint_rules.config import ConfigError, SettingsResolver, load_settings
        settings = SettingsResolver()(Path("plain/a.py"))
        print(settings.root is None, "pydantic" in sys.modules)
        print(load_settings(Path("project/pyproject.toml")).ignore, "pydantic" in sys.modules)
        try:
            load_settings(Path("bad/toolret.toml"))
        except ConfigError as error:
            print(error.summary)
        """
    no_config, *rest = _python(code, tmp_path)
    if no_config.startswith("True"):  # no config file above the temporary directory
        assert no_config == "True False"
    assert rest == [
        "('TRV101',) True",
        "bad/toolret.toml:1:21: expected `true` or `false`, got a string",
    ]
