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
