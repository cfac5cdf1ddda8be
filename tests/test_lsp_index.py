"""The language server's workspace index reads a file's facts as ``toolret check`` does
(issue 29): through the facts' screen, so a module that can contribute no cross-file fact
is never LibCST-parsed for them; a module another one's fact names is read in full, once,
and kept until it changes."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from lint_rules import engine
from lint_rules.analysis import module as module_parsing
from lint_rules.frameworks import index_facts
from lint_rules.lsp.server import ToolretLanguageServer
from tests.test_openai_chat_project import TOOLS, loop

QUIET = textwrap.dedent(
    """\
    import json

    from openai import OpenAI


    def show(message):
        print(json.dumps({"tool_calls": message.tool_calls}))  # no dispatch, no registry
    """
)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The paths LibCST parses for index facts, in order."""
    seen: list[str] = []
    real = module_parsing.parse_module

    def counting(source: str, path: str, **kwargs: object) -> module_parsing.ParsedModule:
        seen.append(os.path.basename(path))
        return real(source, path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(index_facts, "parse_module", counting)
    yield seen


def _index(tmp_path: Path, files: dict[str, str]) -> ToolretLanguageServer:
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    server = ToolretLanguageServer()
    server._index_roots = (tmp_path,)
    for name in files:
        server._read_facts(str(tmp_path / name))
    server._rebuild_index()
    return server


def test_a_module_that_can_contribute_nothing_is_not_parsed(
    tmp_path: Path, parses: list[str]
) -> None:
    server = _index(tmp_path, {"quiet.py": QUIET})
    assert parses == []
    assert not server._facts[str(tmp_path / "quiet.py")][1].data


def test_with_the_screen_off_it_is(
    tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "SCREEN", False)
    _index(tmp_path, {"quiet.py": QUIET})
    assert parses == ["quiet.py"]


def test_a_named_module_is_read_once_and_kept(tmp_path: Path, parses: list[str]) -> None:
    # the loop dispatches through the registry tools.py defines: the loop contributes,
    # tools.py is named by its fact and read in full when the index first asks
    server = _index(tmp_path, {"loop.py": loop(), "tools.py": TOOLS})
    assert sorted(parses) == ["loop.py", "tools.py"]
    tools = str(tmp_path / "tools.py")
    assert server._facts[tools][1].data, "the named module's facts are the index's"
    assert server._project.index is not None
    assert server._project.index.facts_of(tools).data
    parses.clear()
    server._rebuild_index()
    assert parses == [], "a rebuild reads no unchanged file again"
