"""The second screen (``analysis.screen``): a module no family needs is never parsed, and
that changes nothing — every rule example, the bundled examples, the runner's corpus and a
generated tool-heavy corpus give byte-identical output with the screen on and off."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest

from lint_rules import engine, runner
from lint_rules.analysis import module as module_parsing
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import needed_by_any, python_tree_as_written, view_of
from lint_rules.config import Settings, SettingsResolver
from lint_rules.engine import check_source
from lint_rules.frameworks import index_facts
from lint_rules.model import Diagnostic
from lint_rules.rules import EngineRule, Example, Rule, all_rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import generate_tool_corpus  # noqa: E402
from tests.test_runner import corpus  # noqa: E402

EVERY = Settings().with_overrides(select=["ALL"], ignore=["TRV005"])
"""Every rule the screen may leave unrun (TRV005, on, turns the screen off)."""


def _json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], sort_keys=True)


def _examples() -> list[object]:
    cases = []
    for rule in all_rules():
        if issubclass(rule, EngineRule):
            continue
        for kind in ("invalid", "valid"):
            for index, example in enumerate(getattr(rule, kind)):
                cases.append(pytest.param(rule, example, id=f"{rule.code}-{kind}-{index}"))
    return cases


@pytest.mark.parametrize(("rule", "example"), _examples())
def test_every_rule_example_is_the_same_with_the_screen_off(
    rule: type[Rule], example: Example, tmp_path: Path
) -> None:
    target = tmp_path / example.path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(example.code)
    for name, text in example.files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    for settings in (EVERY, Settings().with_overrides(select=[rule.code])):
        on = check_source(example.code, str(target), settings, Project(), screen=True)
        off = check_source(example.code, str(target), settings, Project(), screen=False)
        assert _json(on) == _json(off)


def _run(target: Path, screen: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """The JSON of a run over ``target`` (one process, every rule), and how many modules
    LibCST parsed."""
    parses = 0
    real = module_parsing.parse_module

    def counting(*args: object, **kwargs: object) -> module_parsing.ParsedModule:
        nonlocal parses
        parses += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "parse_module", counting)
    monkeypatch.setattr(module_parsing, "parse_module", counting)
    monkeypatch.setattr(index_facts, "parse_module", counting)
    resolver = SettingsResolver(
        overrides=lambda s: s.with_overrides(select=["ALL"], ignore=["TRV005"])
    )
    result = runner.run([target], resolver, jobs=1, use_screen=screen)
    monkeypatch.undo()
    return _json(result.diagnostics), parses


@pytest.mark.parametrize("kind", ["examples", "generated"])
def test_runs_are_identical_with_the_screen_off(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if kind == "examples":
        target = corpus(tmp_path)
    else:
        target = tmp_path / "generated"
        generate_tool_corpus(target, 6000)
    on, parsed_on = _run(target, True, monkeypatch)
    off, parsed_off = _run(target, False, monkeypatch)
    assert on == off
    assert json.loads(on), "the corpus has findings"
    if kind == "examples":  # the rule examples' valid modules hold much the screen skips
        assert parsed_on < parsed_off
    else:
        assert parsed_on <= parsed_off


def _view(source: str, path: str = "module.py") -> object:
    tree = python_tree_as_written(source)
    assert tree is not None
    return view_of(tree, path)


def test_the_view_reads_code_names_not_comments_docstrings_or_imports() -> None:
    view = _view(
        '"""A module about tool_calls."""\n'
        "from openai import OpenAI  # tool_calls\n"
        "client = OpenAI()\n"
        "def ask(question):\n"
        '    """Send tool_calls back."""\n'
        '    return client.chat.completions.create(model="m", messages=[question])\n'
    )
    assert view.has("client", "create", "model", "m", "question", "ask", "OpenAI")  # type: ignore[attr-defined]
    assert not view.has("openai")  # type: ignore[attr-defined]
    assert not view.mentions("tool_calls", "module about")  # type: ignore[attr-defined]
    assert view.calls("create")  # type: ignore[attr-defined]
    assert view.imports_from("openai")  # type: ignore[attr-defined]
    assert view.functions  # type: ignore[attr-defined]


def test_the_view_counts_an_alias_under_its_imported_name() -> None:
    view = _view(
        "from claude_agent_sdk import tool as sdk_tool\n"
        "from langchain_core.tools import BaseTool as B\n"
        "from openai.types.chat import ChatCompletionToolMessageParam as T\n"
        "@sdk_tool('a', 'b', {})\n"
        "async def a(args): ...\n"
        "class C(B): ...\n"
        "m = T(role='tool', content='', tool_call_id='x')\n"
    )
    assert view.decorated_by("tool") and view.decorated_by("sdk_tool")  # type: ignore[attr-defined]
    assert "BaseTool" in view.bases  # type: ignore[attr-defined]
    assert view.calls("ChatCompletionToolMessageParam")  # type: ignore[attr-defined]
    assert view.mentions("TOOLMESSAGE")  # type: ignore[attr-defined]


def test_a_family_without_a_screen_needs_every_module() -> None:
    view = _view("x = 1\n")

    class Screened:
        def needs_libcst(self, view: object) -> bool:
            return False

    assert not needed_by_any(view, [Screened()])  # type: ignore[arg-type]
    assert needed_by_any(view, [Screened(), object()])  # type: ignore[arg-type]


def test_syntax_this_python_does_not_read_is_never_screened() -> None:
    assert python_tree_as_written("def broken(:\n") is None
    assert python_tree_as_written("x = 1\n") is not None
    assert isinstance(python_tree_as_written("x = 1\n"), ast.Module)


NOTHING_TO_REPORT = (
    "from openai import OpenAI  # noqa: E501\n"
    "client = OpenAI()\n"
    "def ask(q):\n"
    '    return client.chat.completions.create(model="m", messages=[q], tools=[])\n'
)


@pytest.mark.parametrize(
    ("select", "screened"),
    [(["ALL"], False), (["TRV4"], True), (["TRV4", "TRV004"], False), (["TRV4", "TRV005"], False)],
)
def test_rules_on_the_whole_text_turn_the_screen_off(
    select: list[str], screened: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """TRV005 reads every signalled module's syntax, TRV004 every ``noqa`` comment: with
    either on (``ALL``) the module is parsed, whatever the families say."""
    monkeypatch.setattr(engine, "_needed", lambda *args: False)
    parsed: list[str] = []
    real = engine.parse_module

    def counting(source: str, path: str, **kwargs: object) -> module_parsing.ParsedModule:
        parsed.append(path)
        return real(source, path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "parse_module", counting)
    settings = Settings().with_overrides(select=select)
    check_source(NOTHING_TO_REPORT, "ask.py", settings, screen=True)
    assert (not parsed) is screened


def test_a_notebook_that_can_contribute_no_fact_is_never_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A notebook's index facts are screened as a module's are: one that reads
    ``tool_calls`` and imports (so its facts are wanted) but dispatches through no registry
    is never parsed for them, and a notebook with a finding still is parsed, once."""
    from tests.test_notebook import code, notebook, write

    quiet = 'import json\n\nprint(json.dumps({"tool_calls": []}))\n'  # no dispatch
    write(tmp_path / "quiet.ipynb", notebook([code("a", quiet)]))
    on, parsed_on = _run(tmp_path, True, monkeypatch)
    off, parsed_off = _run(tmp_path, False, monkeypatch)
    assert on == off
    assert (parsed_on, parsed_off) == (0, 1)
    loud = (
        "from browser_use import Tools\n\n"
        "tools = Tools()\n\n"
        '@tools.action("Count the rows")\n'
        "async def count_rows(browser_session):\n"
        "    return len(await browser_session.rows())\n"
    )
    write(tmp_path / "loud.ipynb", notebook([code("b", loud)]))
    on, parsed_on = _run(tmp_path, True, monkeypatch)
    off, parsed_off = _run(tmp_path, False, monkeypatch)
    assert on == off
    assert json.loads(on), "the action's int return is reported"
    assert (parsed_on, parsed_off) == (1, 2)
