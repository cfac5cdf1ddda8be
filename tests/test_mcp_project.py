"""MCP servers across files: ``toolret check``'s index knows the origin of an imported server.

``server.py`` binds ``mcp = FastMCP("x")`` and ``tools.py`` does ``from pkg.server import
mcp`` then ``@mcp.tool()``: the tools are the server's (TRV601, TRV602 and the rest
apply as if the server were bound in ``tools.py``), through absolute and relative
imports and re-exports; the facts digest re-checks ``tools.py`` when the server's origin
changes; flake8 (one file at a time) sees none of it; and the index kept with
``ProjectIndex.update`` answers as one rebuilt from scratch.
"""

from __future__ import annotations

import os
import random
import textwrap
from pathlib import Path

import pytest
from conftest import Invoke
from test_index_incremental import Facts, assert_same, python_files, random_steps, rebuilt

from lint_rules import runner
from lint_rules.analysis.index import ProjectIndex, wants_mcp_facts
from lint_rules.analysis.project import Project
from lint_rules.cache import ResultCache
from lint_rules.config import Settings, SettingsResolver
from lint_rules.engine import check_source
from lint_rules.frameworks.index_facts import extract

Found = list[tuple[str, int, str]]

OFFICIAL = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n'
STANDALONE = 'from fastmcp import FastMCP\n\nmcp = FastMCP("x")\n'
LOWLEVEL = 'from mcp.server.lowlevel import Server\n\nmcp = Server("x")\n'

TOOLS = """\
<IMPORT>


@mcp.tool
def bare(x: int) -> str:
    return str(x)


@mcp.tool()
def lookup(x: int) -> str:
    return {"x": x}
"""

BARE, LOOKUP = 4, 11
"""The lines TRV601 (``@mcp.tool``) and TRV602 (``return {"x": x}``) point at."""
BOTH: Found = [("tools.py", BARE, "TRV601"), ("tools.py", LOOKUP, "TRV602")]


IMPORT = "from pkg.server import mcp"


def tools(imports: str = IMPORT) -> str:
    return TOOLS.replace("<IMPORT>", imports)


def write(root: Path, files: dict[str, str | None]) -> None:
    (root / "pyproject.toml").write_text("")
    for name, text in files.items():
        target = root / name
        if text is None:
            target.unlink(missing_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))


def project(root: Path, server: str = OFFICIAL, imports: str = IMPORT) -> None:
    write(root, {"pkg/__init__.py": "", "pkg/server.py": server, "pkg/tools.py": tools(imports)})


def check(paths: list[Path], cache: ResultCache | None = None, **kwargs: object) -> Found:
    resolver = SettingsResolver(overrides=lambda s: s.with_overrides(select=["TRV6"]))
    result = runner.run(
        paths,
        resolver,
        project=Project(revalidate=False),
        cache=cache,
        **kwargs,  # type: ignore[arg-type]
    )
    return sorted((Path(d.filename).name, d.location.row, d.code) for d in result.diagnostics)


# ------------------------------------------------------------------ the facts


def test_the_facts_of_a_server_a_reexport_and_a_tool_module(tmp_path: Path) -> None:
    project(tmp_path)
    server = extract(str(tmp_path / "pkg/server.py"), OFFICIAL.encode())
    assert server.get("mcp") == {
        "servers": {"mcp": "official"},
        "imports": {"FastMCP": "mcp.server.fastmcp.FastMCP"},
        "functions": [],
        "uses": [],
        "registers": [],
    }
    module = extract(str(tmp_path / "pkg/tools.py"), tools().encode())
    assert module.get("mcp")["uses"] == ["pkg.server.mcp"]
    relative = extract(str(tmp_path / "pkg/tools.py"), tools("from .server import mcp").encode())
    assert relative.get("mcp")["uses"] == [".server.mcp"]
    reexport = extract(str(tmp_path / "pkg/__init__.py"), b"from .server import mcp\n")
    assert reexport.get("mcp") == {
        "servers": {},
        "imports": {"mcp": ".server.mcp"},
        "functions": [],
        "uses": [],
        "registers": [],
    }


def test_every_way_of_registering_on_an_imported_server_is_a_use(tmp_path: Path) -> None:
    source = textwrap.dedent(
        """\
        \"\"\"Tools of an mcp server.\"\"\"
        from pkg.a import one
        from pkg.b import two as second
        from pkg.c import three
        from pkg.d import four
        from pkg.e import low
        from pkg.f import unused
        import json
        import mcp.types  # the family's signal: files without one are not indexed


        @one.resource("r://x")
        def resource() -> str:
            return ""


        def add(x: int) -> int:
            return x


        second.add_tool(add)
        three.tool(name="t")(add)


        class Holder:
            @four.prompt()
            def prompt(self) -> str:
                return ""


        @low.call_tool()
        async def call(name, arguments):
            return []


        @json.tool()
        def not_imported_from() -> None: ...
        """
    )
    facts = extract(str(tmp_path / "tools.py"), source.encode()).get("mcp")
    assert facts["uses"] == [
        "json",  # resolved later: not a project file
        "pkg.a.one",
        "pkg.b.two",
        "pkg.c.three",
        "pkg.d.four",
        "pkg.e.low",
    ]
    assert "pkg.f.unused" not in facts["uses"]


def test_a_file_without_the_mcp_signal_gives_only_what_a_registration_needs(
    tmp_path: Path,
) -> None:
    assert not wants_mcp_facts(b"from x import y\n")
    assert not wants_mcp_facts(b"mcp = 1\n")
    assert wants_mcp_facts(b"from fastmcp import FastMCP\n")
    facts = extract(str(tmp_path / "a.py"), b"from tools_calls import x\n@x.tool\ndef f(): ...\n")
    # Its functions and imports, for a server of another module that registers ``f``.
    assert facts.get("mcp") == {"functions": ["f"], "imports": {"x": "tools_calls.x"}}
    assert extract(str(tmp_path / "b.py"), b"x = 1\n").get("mcp") == {}


# ------------------------------------------------------------------ toolret check


@pytest.mark.parametrize(
    "imports",
    [
        pytest.param("from pkg.server import mcp", id="absolute"),
        pytest.param("from .server import mcp", id="relative"),
        pytest.param("from pkg import mcp", id="reexported"),
        pytest.param("from . import mcp", id="reexported-relative"),
    ],
)
def test_an_imported_official_server_makes_its_tools_checked(tmp_path: Path, imports: str) -> None:
    project(tmp_path, imports=imports)
    write(tmp_path, {"pkg/__init__.py": "from .server import mcp\n"})
    assert check([tmp_path]) == BOTH
    # pre-commit passes only the changed file; the server lives in an unchanged one
    assert check([tmp_path / "pkg" / "tools.py"]) == BOTH


def test_a_reexport_through_two_packages(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "app/__init__.py": "from .core import mcp\n",
            "app/core/__init__.py": "from app.core.server import mcp\n",
            "app/core/server.py": OFFICIAL,
            "app/tools/__init__.py": "",
            "app/tools/tools.py": tools("from app import mcp"),
        },
    )
    assert check([tmp_path]) == BOTH


def test_the_origin_decides_the_rules(tmp_path: Path) -> None:
    project(tmp_path, server=STANDALONE)
    assert check([tmp_path]) == [("tools.py", LOOKUP, "TRV602")]  # fastmcp accepts `@mcp.tool`
    project(tmp_path, server=LOWLEVEL)
    assert check([tmp_path]) == []  # a low-level server has no `.tool`


@pytest.mark.parametrize(
    "files",
    [
        pytest.param({"pkg/server.py": "mcp = object()\n"}, id="not-a-server"),
        pytest.param({"pkg/server.py": None}, id="no-server-file"),
        pytest.param({"pkg/server.py": OFFICIAL + "\nmcp = make()\n"}, id="bound-twice-is-unknown"),
        pytest.param(
            {"pkg/tools.py": tools() + "\nfrom other import mcp\n"}, id="shadowed-in-tools"
        ),
    ],
)
def test_what_does_not_resolve_is_not_guessed_at(
    tmp_path: Path, files: dict[str, str | None]
) -> None:
    project(tmp_path)
    write(tmp_path, files)
    assert check([tmp_path]) == []


def test_without_the_index_only_same_file_facts_count(tmp_path: Path) -> None:
    project(tmp_path)
    assert check([tmp_path], index_project=False) == []


def test_flake8_style_checks_use_same_file_facts_only(tmp_path: Path) -> None:
    project(tmp_path)
    settings = Settings().with_overrides(select=["TRV6"])
    for name in ("server.py", "tools.py"):
        path = tmp_path / "pkg" / name
        assert check_source(path.read_text(), str(path), settings, Project()) == []


def test_a_changed_server_origin_invalidates_the_cached_tool_file(tmp_path: Path) -> None:
    project(tmp_path)
    cache_dir = tmp_path / ".cache"
    server, tool_file = tmp_path / "pkg" / "server.py", tmp_path / "pkg" / "tools.py"
    for paths in ([tmp_path], [tool_file]):
        server.write_text(OFFICIAL)
        assert check(paths, ResultCache(cache_dir)) == BOTH
        assert check(paths, ResultCache(cache_dir)) == BOTH  # warm
        server.write_text(STANDALONE)
        os.utime(server, ns=(1, 1))
        assert check(paths, ResultCache(cache_dir)) == [("tools.py", LOOKUP, "TRV602")]
        server.write_text(LOWLEVEL)
        assert check(paths, ResultCache(cache_dir)) == []
        server.write_text(OFFICIAL)
        assert check(paths, ResultCache(cache_dir)) == BOTH


def test_the_cli_reports_across_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, toolret_cli: Invoke
) -> None:
    project(tmp_path, imports="from .server import mcp")
    monkeypatch.chdir(tmp_path)
    args = ("check", "--select", "TRV6", "--output-format", "concise", ".")
    result = toolret_cli(*args)  # the cache is on
    assert result.exit_code == 1
    assert f"tools.py:{BARE}:2: TRV601" in result.stdout
    assert f"tools.py:{LOOKUP}:12: TRV602" in result.stdout
    (tmp_path / "pkg" / "server.py").write_text(STANDALONE)
    result = toolret_cli(*args)
    assert "TRV601" not in result.stdout and "TRV602" in result.stdout
    assert (tmp_path / ".toolret_cache").is_dir()


# ------------------------------------------------------------------ the index


def test_the_index_answers_the_origin_of_an_imported_name(tmp_path: Path) -> None:
    project(tmp_path)
    facts = Facts()
    index = rebuilt(tmp_path, facts)
    tool_file = str(tmp_path / "pkg" / "tools.py")
    assert index.mcp_server(tool_file, "pkg.server.mcp") == "official"
    assert index.mcp_server(tool_file, "pkg.server.other") is None
    assert index.mcp_server(str(tmp_path / "pkg" / "server.py"), "pkg.server.mcp") is None
    assert index.has_cross_facts
    assert index.view(tool_file)[4] == '[["pkg.server.mcp", "official"]]'
    assert index.view(str(tmp_path / "pkg" / "server.py"))[4] == ""


def test_update_follows_the_server_file(tmp_path: Path) -> None:
    project(tmp_path)
    facts = Facts()
    index = rebuilt(tmp_path, facts)
    tool_file = str(tmp_path / "pkg" / "tools.py")
    steps: list[dict[str, str | None]] = [
        {"pkg/server.py": STANDALONE},
        {"pkg/server.py": None},
        {"pkg/server/__init__.py": LOWLEVEL},
        {"pkg/server/__init__.py": "from .impl import mcp\n", "pkg/server/impl.py": OFFICIAL},
        {"pkg/server/impl.py": STANDALONE},
        {"pkg/tools.py": tools("from .server import mcp")},
        {"pkg/tools.py": tools("from .server import mcp as other").replace("@mcp", "@other")},
        {"pkg/server/__init__.py": None, "pkg/server/impl.py": None, "pkg/server.py": OFFICIAL},
    ]
    for files in steps:
        for name in files:
            target = tmp_path / name
            existed = target.exists()
            write(tmp_path, {name: files[name]})
            if existed or target.exists():
                index.update(str(target), facts.indexed(str(target)))
        assert_same(index, rebuilt(tmp_path, facts), python_files(tmp_path))
    assert index.mcp_server(tool_file, "pkg.server.mcp") is None
    assert index.mcp_server(tool_file, ".server.mcp") == "official"


def test_random_steps_over_an_mcp_project(tmp_path: Path) -> None:
    files = {
        "server.py": OFFICIAL,
        "standalone.py": STANDALONE.replace("mcp =", "app ="),
        "tools.py": tools("from server import mcp"),
        "more.py": tools("from pkg import mcp"),
        "pkg/__init__.py": "from server import mcp\n",
        "pkg/tools.py": tools("from .. import server\nfrom server import mcp"),
    }
    write(tmp_path, dict(files))
    facts = Facts()
    index = rebuilt(tmp_path, facts)
    texts = [textwrap.dedent(t) for t in files.values()] + [
        "from standalone import app as mcp\n",
        "from fastmcp import FastMCP\n\nmcp = FastMCP()\n",
    ]
    seen = set(python_files(tmp_path))
    for seed in range(3):
        rng = random.Random(f"mcp-{seed}")
        for step in random_steps(tmp_path, rng, texts, 12):
            for name, text in step.items():
                target = tmp_path / name
                before = target.read_text() if target.exists() else None
                if text == before:
                    continue
                write(tmp_path, {name: text})
                seen.add(str(target))
                index.update(str(target), facts.indexed(str(target)))
            assert_same(index, rebuilt(tmp_path, facts), sorted(seen))
    assert isinstance(index, ProjectIndex)
