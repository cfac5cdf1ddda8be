"""``ProjectIndex.update``: replacing one file's facts answers every query as a rebuild does.

The language server keeps its project index up to date file by file (issue 13): a
saved file's facts are replaced and only what they can change is derived again. Here
the index so kept is compared, after every step of sequences of edits, creations and
deletions on disk, with one built from scratch (``add`` for every file, ``finish``) —
over the repository's example projects and small projects whose imports cross files
(relative imports, re-exports, ``src/`` layouts, a module that starts or stops
shadowing another) — and that rebuild with the whole-project pass as it was written
before contributions were recorded per module.
"""

from __future__ import annotations

import os
import random
import shutil
import textwrap
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from lint_rules.analysis.index import (
    AgentUse,
    DeclaredType,
    ModuleFacts,
    ProjectIndex,
    _chat_use,
    _declared,
    wants_facts,
)
from lint_rules.analysis.project import Project
from lint_rules.frameworks.index_facts import extract

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

Files = Mapping[str, str | None]
"""Relative path → text (``None``: no such file)."""


class Facts:
    """Index facts as the language server and ``toolret check`` read them: a file with a
    signal is parsed for them at once, any other only when a fact names it. Memoised on
    (path, bytes): a sequence of steps parses each version of a file once."""

    def __init__(self) -> None:
        self.project = Project(revalidate=False)
        self._known: dict[tuple[str, bytes], ModuleFacts] = {}
        self.parsed = 0

    def named(self, path: str, data: bytes) -> ModuleFacts:
        key = (path, data)
        if key not in self._known:
            self.parsed += 1
            self._known[key] = extract(path, data, self.project)
        return self._known[key]

    def indexed(self, path: str) -> ModuleFacts | None:
        """What the server gives the index for a file (``None``: it does not exist)."""
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        return self.named(path, data) if wants_facts(data) else ModuleFacts()


def python_files(root: Path) -> list[str]:
    return sorted(str(p) for p in root.rglob("*.py") if ".toolret_cache" not in p.parts)


def rebuilt(root: Path, facts: Facts) -> ProjectIndex:
    index = ProjectIndex(roots=(root,), extract=facts.named)
    for path in python_files(root):
        found = facts.indexed(path)
        assert found is not None
        index.add(path, found)
    index.finish()
    return index


def as_first_written(root: Path, facts: Facts) -> ProjectIndex:
    """The index built by the whole-project pass as it was before ``update`` existed
    (kept here verbatim, apart from writing to ``index`` instead of ``self``)."""
    index = ProjectIndex(roots=(root,), extract=facts.named)
    for path in python_files(root):
        found = facts.indexed(path)
        assert found is not None
        index.modules[path] = found
    for path in sorted(index.modules):
        agents = index.modules[path].get("agents")
        if not agents:
            continue
        types: dict[str, DeclaredType] = {}
        for qualified, display in agents.get("type_refs", ()):
            types[qualified] = index.resolve_type(path, qualified, display)
        if types:
            index.types[path] = types
        for reference, raw_type, label, line, misspelled in agents.get("uses", ()):
            target = index.resolve_function(path, reference)
            if target is None:
                continue
            declared = _declared(raw_type, types)
            where = f"{index._relative(path)}:{line}"
            use = AgentUse(label, declared, where, tuple(misspelled))
            index.uses.setdefault(target, []).append(use)
            index.named.setdefault("openai_agents", set()).add(target[0])
    for path in sorted(index.modules):
        chat = index.modules[path].get("chat")
        if chat and chat.get("uses"):
            _first_finish_chat(index, path, chat)
    return index


def _first_finish_chat(index: ProjectIndex, path: str, chat: Mapping[str, Any]) -> None:
    for use in chat["uses"]:
        where = f"{index._relative(path)}:{use.get('line', 0)}"
        chat_use = _chat_use(chat, use, where)
        imported = use.get("registry")
        if isinstance(imported, str):
            found = index._resolve(importer=path, qualified=imported, table="registries")
            if found is None:
                continue
            file, name = found
            registry = (index.facts_of(file).get("chat") or {})["registries"][name]
            keys = sorted(key for key, _ in registry["entries"])
            closed = bool(registry["closed"]) and not use.get("extended")
            index.chat_registry_keys.setdefault(path, {})[imported] = [keys, closed]
            if file == path:
                continue
            index.chat_registries.setdefault((file, name), []).append(chat_use)
            index.named.setdefault("openai_chat", set()).add(file)
            owner, entries = file, [(local, None) for _, local in registry["entries"]]
        else:
            owner, entries = path, [(local, ref) for _, local, ref in use.get("entries", ())]
        for local, ref in entries:
            if not isinstance(local, str):
                continue
            target = index._registered(owner, local, ref)
            if target is None:
                continue
            if target[0] != owner:
                signature = (index.facts_of(target[0]).get("chat") or {})["signatures"]
                index.chat_signatures.setdefault(owner, {})[local] = signature[target[1]]
            if target[0] != path:
                index.chat_functions.setdefault(target, []).append(chat_use)
                index.named.setdefault("openai_chat", set()).add(target[0])


def answers(index: ProjectIndex, paths: list[str]) -> dict[str, Any]:
    """Every query the rules, the runner and the server ask, for ``paths``."""
    found: dict[str, Any] = {"cross": index.has_cross_facts}
    for path in paths:
        found[path] = (
            index.view(path),
            index.uses_in(path),
            list(index.uses_in(path)),  # the order the rules see them in
            {q: index.resolved_type(path, q) for q in index.types.get(path, {})},
            index.chat_uses_of_registries(path),
            list(index.chat_uses_of_registries(path)),
            index.chat_uses_of_functions(path),
            list(index.chat_uses_of_functions(path)),
            index.chat_signatures.get(path),
            index.chat_registry_keys.get(path),
        )
    return found


def assert_same(kept: ProjectIndex, built: ProjectIndex, paths: list[str]) -> None:
    assert kept == built  # the tables, the roots and the modules' facts
    assert kept.extracted == built.extracted
    assert answers(kept, paths) == answers(built, paths)


def write(root: Path, files: Files) -> list[str]:
    """Make the files so on disk; the absolute paths of those that changed."""
    changed = []
    for name, text in files.items():
        target = root / name
        if text is None:
            if target.exists():
                target.unlink()
                changed.append(str(target))
            continue
        text = textwrap.dedent(text)
        if target.exists() and target.read_text() == text:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        changed.append(str(target))
    return changed


class Session:
    """An index kept with ``update`` while the files change, as the server keeps it."""

    def __init__(self, root: Path, files: Files) -> None:
        (root / "pyproject.toml").write_text("")
        write(root, files)
        self.root = root
        self.facts = Facts()
        self.index = rebuilt(root, self.facts)
        self.seen: set[str] = set(python_files(root))

    def step(self, files: Files) -> ProjectIndex:
        """Change the files, update the kept index, and compare it with a rebuild."""
        for path in write(self.root, files):
            self.seen.add(path)
            self.index.update(path, self.facts.indexed(path))
        built = rebuilt(self.root, self.facts)
        assert_same(self.index, built, sorted(self.seen))
        assert built == as_first_written(self.root, self.facts)
        return self.index


def at(root: Path, name: str) -> str:
    return str(root / name)


# ------------------------------------------------------------ an Agents SDK project

MODELS = """\
    from pydantic import BaseModel


    class Weather(BaseModel):
        city: str
    """
MODELS_TYPEDDICT = """\
    from typing import TypedDict


    class Weather(TypedDict):
        city: str
    """
BEHAVIORS = """\
    from agents import ToolsToFinalOutputResult


    def stop_on_weather(context, results):
        return ToolsToFinalOutputResult(is_final_output=True, final_output="sunny")


    def keep_going(context, results):
        return ToolsToFinalOutputResult(is_final_output=False)
    """
MAIN = """\
    from agents import Agent

    from behaviors import stop_on_weather
    from models import Weather

    weather = Agent(name="Weather", output_type=Weather, tool_use_behavior=stop_on_weather)
    """
MAIN_STR = MAIN.replace("output_type=Weather", "output_type=str")
MAIN_TWO = MAIN.replace("import stop_on_weather", "import keep_going, stop_on_weather").replace(
    "tool_use_behavior=stop_on_weather)",
    "tool_use_behavior=stop_on_weather)\n"
    '    other = Agent(name="Other", tool_use_behavior=keep_going)',
)


def test_an_agent_file_changed_added_and_removed(tmp_path: Path) -> None:
    session = Session(tmp_path, {"models.py": MODELS, "behaviors.py": BEHAVIORS, "main.py": MAIN})
    behaviors = at(tmp_path, "behaviors.py")
    assert session.index.uses_in(behaviors)  # the agent in main.py uses stop_on_weather
    assert at(tmp_path, "models.py") in session.index.extracted  # named, not signalled

    session.step({"main.py": MAIN_STR})  # the declared type changes
    assert at(tmp_path, "models.py") not in session.index.extracted  # no longer named
    session.step({"main.py": MAIN_TWO})  # a second agent, a second behaviour
    assert set(session.index.uses_in(behaviors)) == {"keep_going", "stop_on_weather"}
    session.step({"main.py": None})  # the agents are gone
    assert not session.index.has_cross_facts
    assert session.index.extracted == {}
    session.step({"main.py": MAIN})  # and back
    session.step({"app/main.py": MAIN, "main.py": None})  # moved: found from app/ too
    assert session.index.uses_in(behaviors)


def test_a_named_file_that_changes_changes_what_another_resolves_to(tmp_path: Path) -> None:
    session = Session(tmp_path, {"models.py": MODELS, "behaviors.py": BEHAVIORS, "main.py": MAIN})
    main = at(tmp_path, "main.py")
    assert session.index.resolved_type(main, "models.Weather") == DeclaredType(
        "class", "Weather", f"{at(tmp_path, 'models.py')}::Weather"
    )
    # models.py has no signal of its own: the index extracted it when main.py named it,
    # and its new text reaches main.py's declared type.
    kept = session.step({"models.py": MODELS_TYPEDDICT})
    assert kept.resolved_type(main, "models.Weather") == DeclaredType("typeddict", "Weather")
    kept = session.step({"models.py": None})
    assert kept.resolved_type(main, "models.Weather") == DeclaredType("unknown", "Weather")
    kept = session.step({"models/__init__.py": MODELS_TYPEDDICT})  # a package takes its place
    assert kept.resolved_type(main, "models.Weather") == DeclaredType("typeddict", "Weather")
    session.step({"models.py": MODELS})  # the module wins over the package again
    # the behaviour functions move to another module: the import no longer resolves
    session.step({"behaviors.py": None, "behaviours.py": BEHAVIORS})
    kept = session.step({"behaviors.py": "from behaviours import *\n"})
    assert not kept.uses_in(at(tmp_path, "behaviours.py"))  # a star import is not followed
    kept = session.step({"behaviors.py": "from behaviours import stop_on_weather\n"})
    assert kept.uses_in(at(tmp_path, "behaviours.py"))  # a re-export is


def test_a_module_that_starts_shadowing_another(tmp_path: Path) -> None:
    # `from models import Weather` in app/main.py looks in app/ before the root.
    session = Session(
        tmp_path,
        {"models.py": MODELS, "behaviors.py": BEHAVIORS, "app/main.py": MAIN, "src/x.py": "x = 1"},
    )
    main = at(tmp_path, "app/main.py")
    kept = session.step({"app/models.py": MODELS_TYPEDDICT})
    assert kept.resolved_type(main, "models.Weather") == DeclaredType("typeddict", "Weather")
    kept = session.step({"app/models.py": None})
    assert kept.resolved_type(main, "models.Weather").kind == "class"  # type: ignore[union-attr]
    session.step({"models.py": None, "src/models.py": MODELS_TYPEDDICT})  # a src/ layout
    session.step({"app/behaviors.py": BEHAVIORS.replace("stop_on_weather", "elsewhere")})
    session.step({"app/behaviors.py": None})


def test_relative_imports_and_reexports(tmp_path: Path) -> None:
    main = """\
        from agents import Agent

        from . import models
        from pkg import stop_on_weather

        weather = Agent(name="W", output_type=models.Weather, tool_use_behavior=stop_on_weather)
        """
    session = Session(
        tmp_path,
        {
            "pkg/__init__.py": "from .behaviors import stop_on_weather\n",
            "pkg/behaviors.py": BEHAVIORS,
            "pkg/models.py": MODELS,
            "pkg/main.py": main,
        },
    )
    behaviors = at(tmp_path, "pkg/behaviors.py")
    assert session.index.uses_in(behaviors)
    kept = session.step({"pkg/__init__.py": "from .other import stop_on_weather\n"})
    assert not kept.uses_in(behaviors)
    kept = session.step({"pkg/other.py": "from .behaviors import stop_on_weather\n"})
    assert kept.uses_in(behaviors)  # followed through two re-exports
    kept = session.step({"pkg/behaviors.py": BEHAVIORS.replace("def stop_on", "def stopped_on")})
    assert not kept.uses_in(behaviors)
    session.step({"pkg/sub/main.py": main.replace("from . import", "from .. import")})
    session.step({"pkg/models.py": MODELS_TYPEDDICT, "pkg/__init__.py": None})


# ------------------------------------------------------- a Chat Completions project

LOOP = """\
    import json

    from openai import OpenAI

    from tools import REGISTRY

    client = OpenAI()
    tools = [
        {"type": "function", "function": {"name": "get_weather", "parameters": {
            "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
    ]


    def run(messages):
        response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
        message = response.choices[0].message
        messages.append(message)
        for tool_call in message.tool_calls:
            result = REGISTRY[tool_call.function.name](**json.loads(tool_call.function.arguments))
            messages.append(
                {"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result)}
            )
    """
TOOLS = """\
    from impl import get_time


    def get_weather(location: str) -> str:
        return f"Sunny in {location}"


    REGISTRY = {"get_weather": get_weather, "time": get_time}
    """
IMPL = """\
    from datetime import datetime


    def get_time(city: str):
        return {"city": city, "time": datetime.now()}
    """
LOOP_OWN_REGISTRY = LOOP.replace(
    "from tools import REGISTRY",
    "from tools import get_weather\n    from impl import get_time\n\n"
    '    REGISTRY = {"get_weather": get_weather, "get_time": get_time}',
)


def test_a_registry_its_functions_and_its_loop_change(tmp_path: Path) -> None:
    session = Session(tmp_path, {"loop.py": LOOP, "tools.py": TOOLS, "impl.py": IMPL})
    tools, impl = at(tmp_path, "tools.py"), at(tmp_path, "impl.py")
    assert session.index.chat_uses_of_registries(tools)
    assert session.index.chat_signatures[tools]["get_time"]  # imported from impl.py

    kept = session.step({"impl.py": IMPL.replace("(city: str)", "(city: str, units: str)")})
    assert kept.chat_signatures[tools]["get_time"][1] == ["city", "units"]
    kept = session.step({"impl.py": None})
    assert "get_time" not in kept.chat_signatures.get(tools, {})
    session.step({"impl.py": IMPL})
    kept = session.step({"tools.py": TOOLS.replace('"time"', '"get_time"')})  # new keys
    assert kept.chat_registry_keys[at(tmp_path, "loop.py")]["tools.REGISTRY"][0] == [
        "get_time",
        "get_weather",
    ]
    kept = session.step({"loop.py": LOOP_OWN_REGISTRY})  # the loop's own registry
    assert set(kept.chat_uses_of_functions(tools)) == {"get_weather"}
    assert set(kept.chat_uses_of_functions(impl)) == {"get_time"}
    session.step({"tools.py": None})
    session.step({"tools/__init__.py": "from .impl import get_weather\n", "tools/impl.py": TOOLS})
    session.step({"loop.py": LOOP.replace("json.dumps(result)", "json.dumps(result, default=str)")})
    session.step({"loop.py": None})


# ------------------------------------------------- random steps over the examples


EXAMPLE_PROJECTS = [
    pytest.param(EXAMPLES / project, id=project)
    for project in ("openai_agents", "openai_chat", "openai_chat/split", "polyai", "browser_use")
]


def random_steps(
    root: Path, rng: random.Random, texts: list[str], count: int
) -> Iterator[dict[str, str | None]]:
    """Steps of one to three changes: a file rewritten (another file's text, or text
    without facts), deleted, or created where an import looks (``m/__init__.py`` for
    ``m.py``, ``src/m.py``, a sibling ``pkg/``)."""
    names = [os.path.relpath(p, root) for p in python_files(root)]
    stems = sorted({Path(n).with_suffix("").as_posix() for n in names if "/" not in n})
    places = names + [f"{s}/__init__.py" for s in stems] + [f"src/{s}.py" for s in stems]
    places += [f"pkg/{n}" for n in names[:3]] + ["pkg/__init__.py"]
    choices: list[str | None] = [*texts, None, "x = 1\n", "from models import *\n"]
    for _ in range(count):
        yield {rng.choice(places): rng.choice(choices) for _ in range(rng.randint(1, 3))}


@pytest.mark.parametrize("example", EXAMPLE_PROJECTS)
def test_random_steps_over_an_example_project(tmp_path: Path, example: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(example, root, ignore=shutil.ignore_patterns(".toolret_cache", "*.md"))
    originals = {os.path.relpath(p, root): Path(p).read_text() for p in python_files(root)}
    session = Session(root, {})
    built = rebuilt(root, session.facts)
    assert built == as_first_written(root, session.facts)
    texts = list(originals.values())
    for seed in range(3):
        rng = random.Random(f"{example.name}-{seed}")
        for files in random_steps(root, rng, texts, 12):
            session.step(files)
        session.step({**{name: None for name in session_files(root)}, **originals})


def session_files(root: Path) -> list[str]:
    return [os.path.relpath(p, root) for p in python_files(root)]


def test_update_before_finish_is_add(tmp_path: Path) -> None:
    write(tmp_path, {"models.py": MODELS, "behaviors.py": BEHAVIORS, "main.py": MAIN})
    facts = Facts()
    index = ProjectIndex(roots=(tmp_path,), extract=facts.named)
    for path in python_files(tmp_path):
        index.update(path, facts.indexed(path))
    index.update(at(tmp_path, "gone.py"), None)
    index.finish()
    assert_same(index, rebuilt(tmp_path, facts), python_files(tmp_path))


def test_unchanged_facts_derive_nothing_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session(
        tmp_path, {"models.py": MODELS, "behaviors.py": BEHAVIORS, "main.py": MAIN, "x.py": "x=1"}
    )
    derived: list[str] = []
    original: Callable[[ProjectIndex, str], None] = ProjectIndex._derive

    def counting(index: ProjectIndex, path: str) -> None:
        derived.append(os.path.basename(path))
        original(index, path)

    monkeypatch.setattr(ProjectIndex, "_derive", counting)
    main = at(tmp_path, "main.py")
    session.index.update(main, session.facts.indexed(main))  # saved, facts unchanged
    session.index.update(at(tmp_path, "x.py"), ModuleFacts())  # named by nothing
    assert derived == []
    # behaviors.py has no signal: main.py's contribution read it, and is derived again
    (behaviors,) = write(tmp_path, {"behaviors.py": BEHAVIORS + "\n# edited\n"})
    session.index.update(behaviors, session.facts.indexed(behaviors))
    assert sorted(derived) == ["behaviors.py", "main.py"]
    monkeypatch.undo()
    assert_same(session.index, rebuilt(tmp_path, session.facts), python_files(tmp_path))
