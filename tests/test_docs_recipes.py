"""The code blocks of README.md and docs/ run as pasted (issue 34).

Every fenced block that is a command or a config file is checked: each ``toolret``
line of a ``sh`` block runs (in a copy of ``examples/``) without a usage or
configuration error; each ``toml`` block that configures toolret loads; each
``yaml`` block parses, and a pre-commit config passes pre-commit's own validation
with hooks that match ``.pre-commit-hooks.yaml``. No block names a release tag or a
package index toolret is not on. (Neovim's Lua blocks: ``test_neovim.py``; the
JSON schema's: ``test_config_keys.py``.)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lint_rules.config import ConfigError, load_settings

# Whether the documentation's blocks are true does not depend on the Python running them:
# what their commands do is tests/test_cli.py's, on every interpreter.
pytestmark = pytest.mark.interpreter_neutral

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
NOT_RUN = ("toolret lsp", "toolret server")
"""Commands that serve until their client goes: started by an editor, not here."""


def _blocks(language: str) -> list[tuple[str, str]]:
    """(``page:line``, body) of every ``language`` block."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(rf"^```{language}\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{page.relative_to(REPO)}:{line}", match.group(1)))
    return found


def _commands() -> list[tuple[str, str]]:
    commands = []
    for where, body in _blocks("sh"):
        for line in body.splitlines():
            command = re.sub(r"\s+#\s.*$", "", line.strip())
            if command.startswith("toolret ") and not command.startswith(NOT_RUN):
                commands.append((where, command))
    return commands


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of examples/, with the files the commands name (``src/``, ``functions/``)."""
    root = tmp_path_factory.mktemp("recipes") / "project"
    shutil.copytree(REPO / "examples", root)
    shutil.copytree(REPO / "examples" / "polyai", root / "src")
    (root / "functions").mkdir(exist_ok=True)
    for name in ("x.py", "count.py"):
        (root / "functions" / name).write_text("def count(conv):\n    return 3\n")
    return root


@pytest.mark.parametrize(("where", "command"), _commands(), ids=lambda value: value)
def test_each_documented_command_runs(where: str, command: str, sandbox: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)
    if shutil.which("toolret", path=bin_dir) is None:
        pytest.skip("no toolret script beside this Python")
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    env.pop("NO_COLOR", None)
    done = subprocess.run(
        command, shell=True, cwd=sandbox, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode in (0, 1), (
        f"{where}: `{command}` exited {done.returncode}\n{done.stderr}"
    )
    assert "Usage:" not in done.stderr and "No such option" not in done.stderr, done.stderr


def test_no_block_names_a_tag_or_an_index_toolret_is_not_on() -> None:
    wrong = []
    for language in ("sh", "yaml", "toml"):
        for where, body in _blocks(language):
            for line in body.splitlines():
                if re.search(r"\brev:\s*v\d", line):  # toolret has no release tags yet
                    wrong.append((where, line))
                # Not on a package index yet: from a clone (-e) or a git URL only.
                if re.search(r"pip install\b.*[\s'\"]toolret\b", line) and not re.search(
                    r"(-e\s|git\+)", line
                ):
                    wrong.append((where, line))
    assert wrong == []


def test_each_toml_block_that_configures_toolret_loads(tmp_path: Path) -> None:
    loaded = 0
    for number, (where, body) in enumerate(_blocks("toml")):
        data = tomllib.loads(body)
        if "tool" in data:
            if "toolret" not in data["tool"]:
                continue  # another tool's table, shown beside toolret's
            name = "pyproject.toml"
        elif {"language-server", "language", "rule", "include", "schema"} & set(data):
            continue  # an editor's or taplo's config
        else:
            name = "toolret.toml"
        folder = tmp_path / f"block{number}"
        folder.mkdir()
        (folder / name).write_text(body, encoding="utf-8")
        try:
            load_settings(folder / name)
        except ConfigError as error:
            if "extend" in body or "required-version" in body:
                continue  # names a base file or pins a version: shown, not runnable alone
            pytest.fail(f"{where}: {error}")
        loaded += 1
    assert loaded >= 5


def test_each_yaml_block_parses_and_pre_commit_configs_validate(tmp_path: Path) -> None:
    yaml = pytest.importorskip("yaml")
    clientlib = pytest.importorskip("pre_commit.clientlib")
    manifest = {
        hook["id"]: hook for hook in clientlib.load_manifest(str(REPO / ".pre-commit-hooks.yaml"))
    }
    configs = 0
    for where, body in _blocks("yaml"):
        data = yaml.safe_load(body)
        if not isinstance(data, dict) or "repos" not in data:
            continue
        config = tmp_path / f"config{configs}.yaml"
        config.write_text(body, encoding="utf-8")
        clientlib.load_config(str(config))  # raises on an invalid config
        for repo in data["repos"]:
            for hook in repo["hooks"]:
                shipped = manifest.get(hook["id"])
                if repo["repo"] == "local" and shipped is not None:
                    assert hook["entry"] == shipped["entry"], where
                    assert hook["types_or"] == shipped["types_or"], where
        configs += 1
    assert configs >= 2


# ---------------------------------------------------------------- the integration pages

INTEGRATIONS = REPO / "docs" / "integrations"
HOOK_PAGES = [INTEGRATIONS / "pre-commit.md", REPO / "docs" / "adopting.md"]

INDEX_INSTALL = re.compile(
    r"pip install\s+(?:-{1,2}[\w-]+\s+)*['\"]?toolret(?:\[[\w,\s]*\])?(?![\[\w-])(?!\s*@)"
)
"""``pip install toolret`` or ``pip install 'toolret[lsp]'``: from a package index, which
has no toolret. ``-e path/to/toolret[lsp]`` and ``toolret @ git+URL`` are allowed."""


def _page_blocks(page: Path, language: str) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def _manifest() -> dict[str, dict[str, object]]:
    clientlib = pytest.importorskip("pre_commit.clientlib")
    hooks = clientlib.load_manifest(str(REPO / ".pre-commit-hooks.yaml"))
    return {hook["id"]: hook for hook in hooks}


def _configs_and_fragments(page: Path) -> tuple[list[list[dict]], list[dict]]:
    """The hook lists of the page's whole pre-commit configs, and every hook of its yaml
    blocks (configs and fragments such as ``- id: toolret-check`` alone)."""
    yaml = pytest.importorskip("yaml")
    configs: list[list[dict]] = []
    hooks: list[dict] = []
    for body in _page_blocks(page, "yaml"):
        data = yaml.safe_load(body)
        if isinstance(data, dict) and "repos" in data:
            listed = [hook for repo in data["repos"] for hook in repo["hooks"]]
            configs.append(listed)
            hooks.extend(listed)
        elif isinstance(data, list):
            hooks.extend(item for item in data if isinstance(item, dict) and "id" in item)
    return configs, hooks


def test_the_pre_commit_page_shows_every_shipped_hook() -> None:
    _, hooks = _configs_and_fragments(INTEGRATIONS / "pre-commit.md")
    assert set(_manifest()) <= {hook["id"] for hook in hooks}
    text = (INTEGRATIONS / "pre-commit.md").read_text(encoding="utf-8")
    assert f"ships {len(_manifest())} " in text.replace("three", "3"), "the count of hooks"


@pytest.mark.parametrize("page", HOOK_PAGES, ids=lambda page: page.name)
def test_each_pre_commit_run_names_a_hook_of_every_config_on_its_page(page: Path) -> None:
    configs, _ = _configs_and_fragments(page)
    assert configs, f"{page.name} has no pre-commit config"
    named = set(re.findall(r"pre-commit run ([a-z][\w-]*)", page.read_text(encoding="utf-8")))
    for hook_id in named:
        for listed in configs:
            assert hook_id in {hook["id"] for hook in listed}, (page.name, hook_id, listed)


@pytest.mark.parametrize("page", HOOK_PAGES, ids=lambda page: page.name)
def test_each_local_hook_runs_what_the_shipped_hook_runs(page: Path) -> None:
    manifest = _manifest()
    _, hooks = _configs_and_fragments(page)
    local = [hook for hook in hooks if "entry" in hook]
    assert local, f"{page.name} shows no repo: local hook"
    for hook in local:
        shipped = manifest[hook["id"]]
        assert hook["language"] == "system", hook  # the toolret on PATH
        for key in ("entry", "types_or", "require_serial", "stages"):
            # (pre-commit's defaults, such as ``stages: []``, count as left out)
            assert (hook.get(key) or None) == (shipped.get(key) or None), (page, hook, key)


def test_no_page_installs_toolret_from_a_package_index() -> None:
    wrong = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in INDEX_INSTALL.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            wrong.append(f"{page.relative_to(REPO)}:{line}: {match.group()}")
    assert wrong == []
    assert INDEX_INSTALL.search("pip install 'toolret[lsp]'")  # what the test refuses
    assert INDEX_INSTALL.search("pip install -U toolret")
    assert not INDEX_INSTALL.search("pip install -e 'path/to/toolret[lsp]'")
    assert not INDEX_INSTALL.search('pip install "toolret[lsp] @ git+https://x/t.git@abc"')


def test_the_lsp_install_hints_name_a_clone() -> None:
    from click.testing import CliRunner

    from lint_rules.cli import main

    help_text = CliRunner().invoke(main, ["lsp", "--help"]).output
    blocked = "import sys; sys.modules['pygls'] = None; import lint_rules.lsp"
    done = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=60
    )
    assert "ImportError" in done.stderr
    for hint in (" ".join(help_text.split()), done.stderr):
        assert "pip install -e 'path/to/toolret[lsp]'" in hint
        assert not INDEX_INSTALL.search(hint), hint


def test_the_editors_page_shows_neovim_0_11s_form_first() -> None:
    lua = _page_blocks(INTEGRATIONS / "editors.md", "lua")
    assert 'vim.lsp.config("toolret"' in lua[0] and "vim.lsp.enable" in lua[0]
    assert 'require("lspconfig")' in lua[1]


def test_no_ci_recipe_uses_a_file_url_pip_23_rejects() -> None:
    # pip 23.2: `toolret @ git+file:///path@SHA` is an invalid requirement; with a host
    # (`git+file://localhost/path@SHA`) it installs.
    for page in PAGES:
        for language in ("sh", "yaml"):
            for body in _page_blocks(page, language):
                assert "git+file:///" not in body, page


def test_the_flake8_page_shows_what_flake8_prints(tmp_path: Path) -> None:
    page = INTEGRATIONS / "flake8.md"
    for body in _page_blocks(page, "sh"):
        for line in body.splitlines():
            if re.match(r"flake8 .*\.$", line):  # a whole project: its .venv left out
                assert "--extend-exclude .venv" in line, line
    sample, config_error = _page_blocks(page, "text")[:2]

    project = tmp_path / "polyai"
    shutil.copytree(REPO / "examples" / "polyai", project)
    (project / ".venv").mkdir()  # an in-project environment flake8 must not walk
    (project / ".venv" / "bad.py").write_text("def f(:\n")
    flake8 = [sys.executable, "-m", "flake8", "--select", "TRV,TRR", "--extend-exclude", ".venv"]
    found = subprocess.run([*flake8, "."], cwd=project, capture_output=True, text=True, timeout=120)
    assert found.returncode == 1, found.stderr
    for line in sample.splitlines():
        assert line in found.stdout.splitlines(), line
    assert ".venv" not in found.stdout

    broken = tmp_path / "broken"
    (broken / "functions").mkdir(parents=True)
    (broken / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.toolret]\nignore = ["TRV110"]\n'
    )
    (broken / "functions" / "x.py").write_text("def count(conv):\n    return 3\n")
    found = subprocess.run([*flake8, "."], cwd=broken, capture_output=True, text=True, timeout=120)
    assert found.stdout.splitlines() == config_error.splitlines(), found.stderr
