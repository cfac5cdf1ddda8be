"""Issue 12, gaps 1 and 2 through the rules: what value inference v2 now lets each family
see, through ``toolret check`` (files on disk, the CLI's JSON) and the flake8 plugin alike,
and the traps that must stay silent.

Each case is a small file written the way real tool code is written; ``expected`` lists
``(row, code)`` of every finding (the ``--select`` prefix narrows to the family).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from lint_rules.flake8_plugin import ToolretChecker

Case = tuple[str, str, str, set[tuple[int, str]]]

CASES: list[Case] = [
    (
        "polyai: return a number after logging it",
        "functions/count_rows.py",
        """\
        import logging

        log = logging.getLogger(__name__)


        def count_rows(conv):
            rows = conv.state.rows or []
            n = len(rows)
            log.info("rows: %s", n)
            label = str(n)
            conv.state.label = label
            return n
        """,
        {(12, "TRV101")},
    ),
    (
        "polyai: a float parameter passed to round()",
        "functions/quote.py",
        """\
        def quote(conv, amount: float):
            conv.state.rounded = round(amount)
            return amount
        """,
        {(3, "TRV101")},
    ),
    (
        "polyai: an utterance computed by a same-module helper",
        "functions/count_bookings.py",
        """\
        def _count(bookings):
            return len([b for b in bookings if b.active])


        def count_bookings(conv):
            total = _count(conv.state.bookings)
            return {"utterance": total}
        """,
        {(7, "TRV106")},
    ),
    (
        "polyai: keys stored one by one",
        "functions/goodbye.py",
        """\
        def goodbye(conv):
            reply = {}
            reply["utterence"] = "Thanks for calling, goodbye."
            reply["hangup"] = True
            return reply
        """,
        {(3, "TRV105"), (4, "TRV103")},
    ),
    (
        "polyai traps: rebound in a branch, passed to a helper, a for target, exec",
        "functions/traps.py",
        """\
        def traps(conv):
            n = len(conv.state.rows)
            if conv.state.verbose:
                n = f"{n} rows"
            if conv.state.a:
                return n
            reply = {}
            fill_reply(reply)
            if conv.state.b:
                return reply
            for count in conv.state.counts:
                pass
            count = 3 if conv.state.c else count
            if conv.state.d:
                return count
            m = 3
            exec("m = 'three'")
            return m
        """,
        set(),
    ),
    (
        "browser-use: a list built by appends",
        "shop_tools.py",
        """\
        from browser_use import Tools

        tools = Tools()


        @tools.action("List product names")
        async def list_names(browser_session):
            names = []
            for item in await browser_session.get_items():
                names.append(item.name)
            print(len(names))
            return names
        """,
        {(12, "TRV201")},
    ),
    (
        "browser-use traps: the list joined, a list handed to an unknown function is still a list",
        "shop_tools_ok.py",
        """\
        from browser_use import ActionResult, Tools

        tools = Tools()


        @tools.action("List product names")
        async def list_names(browser_session):
            names = []
            for item in await browser_session.get_items():
                names.append(item.name)
            return ActionResult(extracted_content=", ".join(names))


        @tools.action("Count products")
        async def count(browser_session):
            n = len(await browser_session.get_items())
            return f"{n} products"
        """,
        set(),
    ),
    (
        "agents: a function tool that returns the list it appended to",
        "tools.py",
        """\
        from agents import function_tool


        @function_tool
        def search(query: str):
            \"\"\"Search the catalogue.\"\"\"
            results = []
            for hit in index.search(query):
                results.append({"title": hit.title, "url": hit.url})
            return results


        @function_tool
        def titles(query: str) -> str:
            \"\"\"Titles only.\"\"\"
            found = [hit.title for hit in index.search(query)]
            return "\\n".join(found)
        """,
        {(10, "TRV308")},
    ),
    (
        "chat: a registered function whose list holds datetimes",
        "loop.py",
        """\
        import json
        from datetime import datetime

        from openai import OpenAI

        client = OpenAI()
        tools = [{"type": "function", "function": {"name": "slots", "parameters": {}}}]


        def slots():
            found = []
            for hour in (9, 10, 11):
                found.append(datetime(2026, 1, 1, hour))
            return found


        REGISTRY = {"slots": slots}


        def run(messages):
            response = client.chat.completions.create(model="m", messages=messages, tools=tools)
            message = response.choices[0].message
            messages.append(message)
            for call in message.tool_calls:
                result = REGISTRY[call.function.name](**json.loads(call.function.arguments))
                messages.append(
                    {"role": "tool", "tool_call_id": call.id, "content": json.dumps(result)}
                )
        """,
        {(14, "TRV402")},
    ),
]


def _write(root: Path, relative: str, source: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def _toolret_check(root: Path, relative: str) -> set[tuple[int, str]]:
    (root / "pyproject.toml").write_text("[project]\nname = 'shop'\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", relative, "--no-cache",
         "--output-format", "json", "--select", "ALL"],
        cwd=root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    return {(d["location"]["row"], d["code"]) for d in json.loads(result.stdout)}


def _flake8_plugin(root: Path, relative: str) -> set[tuple[int, str]]:
    path = root / relative
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return {
        (row, text.split(" ", 1)[0])
        for row, _, text, _ in ToolretChecker(None, lines, str(path)).run()
    }


@pytest.mark.parametrize("front_end", [_toolret_check, _flake8_plugin], ids=["check", "flake8"])
@pytest.mark.parametrize(
    ("title", "relative", "source", "expected"), CASES, ids=[c[0] for c in CASES]
)
def test_each_front_end_sees_it(
    tmp_path: Path,
    front_end: Callable[[Path, str], set[tuple[int, str]]],
    title: str,
    relative: str,
    source: str,
    expected: set[tuple[int, str]],
) -> None:
    del title
    _write(tmp_path, relative, source)
    assert front_end(tmp_path, relative) == expected


def test_the_str_fix_is_offered_and_idempotent(tmp_path: Path) -> None:
    path = _write(tmp_path, *CASES[0][1:3])
    _write(tmp_path, "functions/quote.py", CASES[1][2])
    for _ in range(2):
        result = subprocess.run(
            [sys.executable, "-m", "lint_rules", "fix", ".", "--no-cache"],
            cwd=tmp_path, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert result.returncode == 0, result.stdout + result.stderr
    fixed = path.read_text(encoding="utf-8")
    assert fixed.endswith("    conv.state.label = label\n    return str(n)\n")
    assert 'log.info("rows: %s", n)' in fixed  # only the return is touched
    quote = (tmp_path / "functions/quote.py").read_text(encoding="utf-8")
    assert quote == (
        "def quote(conv, amount: float):\n"
        "    conv.state.rounded = round(amount)\n"
        "    return str(amount)\n"
    )
