"""A partial run (pre-commit's changed files) builds the project index from what its
files' results can read (issue 29): a file of the rest is extracted only when its imports
reach one of them (``index.Reach``), and the results are the whole run's."""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from collections import defaultdict
from pathlib import Path

import pytest

from lint_rules import runner
from lint_rules.analysis.index import ModuleFacts, Reach
from lint_rules.config import SettingsResolver
from lint_rules.frameworks import index_facts
from tests.test_runner import ROOT

EVERY_RULE = SettingsResolver(
    overrides=lambda s: s.with_overrides(select=["ALL"], ignore=["TRV005"])
)

LOOP = """\
import json

from openai import OpenAI

<IMPORT>

client = OpenAI()


def answer(messages, tools):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    for call in response.choices[0].message.tool_calls:
        result = <TABLE>[call.function.name](**json.loads(call.function.arguments))
        messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)})
"""


def _loop(imports: str, table: str = "REGISTRY") -> str:
    return LOOP.replace("<IMPORT>", imports).replace("<TABLE>", table)


CHAIN = {
    # a registry re-exported by its package, dispatched through by loops elsewhere
    "pkg/__init__.py": "from .impl import REGISTRY\n",
    "pkg/impl.py": """\
        from datetime import datetime


        def get_time(city):
            return {"time": datetime.now()}


        REGISTRY = {"get_time": get_time}
        """,
    "pkg/sub/__init__.py": "",
    "pkg/sub/relative_loop.py": _loop("from .. import REGISTRY"),
    "app/loop.py": _loop("from pkg import REGISTRY"),
    "unrelated/other.py": _loop("from elsewhere import TABLE", "TABLE"),
}


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(ROOT / "examples", root / "examples")
    (root / "pyproject.toml").write_text("[project]\nname = 'corpus'\n", encoding="utf-8")
    _write(root, CHAIN)  # at the root: `from pkg import` resolves there
    return root


def _by_file(paths: list[Path], *, index_project: bool = True) -> dict[str, list[str]]:
    result = runner.run(paths, EVERY_RULE, jobs=1, index_project=index_project)
    found: dict[str, list[str]] = defaultdict(list)
    for d in result.diagnostics:
        found[d.filename].append(json.dumps(d.to_json(), sort_keys=True))
    return found


PROJECTS = ("examples/openai_agents", "examples/openai_chat/split", "examples/mcp/support")
"""The examples whose modules hold facts about each other."""


def test_each_file_alone_reports_what_the_whole_run_reports_of_it(tmp_path: Path) -> None:
    root = _project(tmp_path)
    whole = _by_file([root])
    # the files whose results the index changes, and every file of the projects
    unindexed = _by_file([root], index_project=False)
    depends = {Path(f) for f in {*whole, *unindexed} if whole.get(f) != unindexed.get(f)}
    assert len(depends) >= 5
    files = sorted(
        depends
        | {root / name for name in CHAIN}
        | {p for project in PROJECTS for p in (root / project).glob("*.py")}
    )
    for path in files:
        alone = _by_file([path])
        assert alone.get(str(path), []) == whole.get(str(path), []), path
    # the chain: the registry's TRV402 comes from loops in two other packages
    impl = str(root / "pkg" / "impl.py")
    assert any('"TRV402"' in d for d in whole[impl])


def reaching(candidates: dict[str, bytes], targets: list[str], roots: list[Path]) -> set[str]:
    reach = Reach(roots)
    for path, data in candidates.items():
        reach.add(path, data)
    return reach.kept(targets)


def _write(root: Path, files: dict[str, str]) -> dict[str, bytes]:
    found = {}
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
        found[str(path)] = path.read_bytes()
    return found


def test_reaching_follows_imports_as_the_index_resolves_them(tmp_path: Path) -> None:
    files = _write(
        tmp_path,
        {
            "target.py": "X = 1\n",
            "reexport/__init__.py": "from target import X\n",
            "reexport/relative.py": "from . import X\n",
            "deep/user.py": "from reexport import X  # through the package\n",
            "spread.py": "import json; from target import (\n    X,  # the value (see x)\n)\n",
            "stranger.py": '"""Prose:\nfrom target import X, in a docstring\n"""\nimport json\n',
            "lookalike.py": "from targets import X\n",
            "broken.py": "from target import\n",
            "notebook.ipynb": "{}",
        },
    )
    target = str(tmp_path / "target.py")
    candidates = {path: data for path, data in files.items() if path != target}
    kept = {os.path.relpath(p, tmp_path) for p in reaching(candidates, [target], [tmp_path])}
    # stranger.py's prose looks like an import until the module is read whole
    assert kept == {
        "reexport/__init__.py",
        "reexport/relative.py",
        "deep/user.py",
        "spread.py",  # the list's comment holds a parenthesis: the module is read whole
        "broken.py",  # not readable: kept
        "notebook.ipynb",  # not Python bytes: kept
    }


def test_a_file_outside_the_walk_is_a_link_of_the_chain(tmp_path: Path) -> None:
    # excluded.py is not a candidate (excluded, or known to the cache): what it imports is
    # unread, so a candidate importing it is kept
    files = _write(tmp_path, {"user.py": "from excluded import X\n", "excluded.py": ""})
    user = str(tmp_path / "user.py")
    assert reaching({user: files[user]}, [], [tmp_path]) == {user}
    assert reaching({user: files[user]}, [], [tmp_path / "elsewhere"]) == {user}


def test_a_partial_run_extracts_only_the_files_that_reach_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "project"
    _write(root, {"pyproject.toml": "", **CHAIN})
    extracted: list[str] = []
    real = index_facts.screened_extract

    def counting(path: str, *args: object, **kwargs: object) -> ModuleFacts:
        extracted.append(os.path.relpath(path, root))
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(index_facts, "screened_extract", counting)
    _by_file([root / "pkg" / "impl.py"])
    # not unrelated/other.py: its loop dispatches through another module's table (the
    # packages' __init__.py hold no fact: their bytes say so, nothing is extracted)
    assert sorted(extracted) == ["app/loop.py", "pkg/sub/relative_loop.py"]
