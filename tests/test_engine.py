"""The core: parse errors, crashes, noqa, decoding, signals and PolyAI project awareness."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lint_rules.analysis.project import Project, read_polyai_project
from lint_rules.config import Settings
from lint_rules.engine import check_bytes, check_source, describe_tool_functions
from lint_rules.frameworks.polyai.trv101 import PolyaiInvalidReturnType

INT_RETURN = "def count(conv):\n    return 3\n"


def codes(diagnostics: list) -> list[tuple[str, int, int]]:  # type: ignore[type-arg]
    return [(d.code, d.location.row, d.location.column) for d in diagnostics]


def test_int_return_in_a_function_file() -> None:
    found = check_source(INT_RETURN, "functions/count.py")
    assert codes(found) == [("TRV101", 2, 12)]
    fix = found[0].fix
    assert fix is not None and [e.content for e in fix.edits] == ["str(", ")"]
    assert found[0].end_location.column == 13


def test_syntax_error_in_a_function_file_is_trv001_at_cpythons_position() -> None:
    source = "def count(conv):\n    return {'a': 1,\n\ndef other():\n    pass\n"
    found = check_source(source, "functions/count.py")
    assert [d.code for d in found] == ["TRV001"]
    try:
        compile(source, "x", "exec")
    except SyntaxError as error:
        assert (found[0].location.row, found[0].location.column) == (error.lineno, error.offset)
    assert found[0].message.startswith("SyntaxError:")


def test_file_without_signal_is_never_reported_not_even_trv001() -> None:
    assert check_source("def broken(:\n", "src/app/models.py") == []


def test_undecodable_function_file_is_trv001_on_line_1() -> None:
    found = check_bytes(b"def f(conv):\n    return '\xff\xfe'\n", "functions/f.py")
    assert codes(found) == [("TRV001", 1, 1)]
    assert "decode" in found[0].message


def test_latin1_cookie_and_bom_are_decoded() -> None:
    latin = "# -*- coding: latin-1 -*-\ndef count(conv):\n    return 'caf\xe9' and 3\n"
    assert check_bytes(latin.encode("latin-1"), "functions/count.py") == []
    bom = b"\xef\xbb\xbf" + INT_RETURN.encode()
    assert codes(check_bytes(bom, "functions/count.py")) == [("TRV101", 2, 12)]


def test_a_crashing_rule_is_trv002_and_the_others_go_on(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: object, context: object, settings: object) -> Iterator[object]:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(PolyaiInvalidReturnType, "check", boom)
    source = "def count(conv):\n    return {}\n"
    found = check_source(source, "functions/count.py")
    assert [d.code for d in found] == ["TRV002", "TRV102"]
    assert "TRV101" in found[0].message and "kaboom" in found[0].message


@pytest.mark.parametrize(
    "comment",
    ["# noqa", "# noqa: TRV101", "#NOQA:TRV101", "# noqa: TRV1", "# noqa: E501, TRV101"],
)
def test_noqa_suppresses(comment: str) -> None:
    source = f"def count(conv):\n    return 3  {comment}\n"
    assert check_source(source, "functions/count.py") == []


@pytest.mark.parametrize("comment", ["# noqa: TRV102", "# noqa: E501"])
def test_noqa_for_other_codes_does_not_suppress(comment: str) -> None:
    source = f"def count(conv):\n    return 3  {comment}\n"
    assert [d.code for d in check_source(source, "functions/count.py")] == ["TRV101"]


@pytest.mark.parametrize("header", ["# ruff: noqa", "# flake8: noqa", "# toolret: noqa: TRV101"])
def test_file_level_exemption(header: str) -> None:
    assert check_source(f"{header}\n{INT_RETURN}", "functions/count.py") == []


def test_selection_and_per_file_ignores() -> None:
    assert check_source(INT_RETURN, "functions/count.py", Settings(ignore=("TRV101",))) == []
    only_102 = Settings().with_overrides(select=["TRV102"])
    assert check_source(INT_RETURN, "functions/count.py", only_102) == []


def test_recognition_outside_the_layout() -> None:
    annotated = "def count(conv: Conversation):\n    return 3\n"
    assert [d.code for d in check_source(annotated, "lib/count.py")] == ["TRV101"]
    generated = "from _gen import *  # <AUTO GENERATED>\n\ndef count(conv):\n    return 3\n"
    assert [d.code for d in check_source(generated, "lib/count.py")] == ["TRV101"]
    plain = "def count(conv):\n    return 3\n"
    assert check_source(plain, "lib/count.py") == []


def _polyai_project(root: Path, references: str) -> None:
    (root / "agent_settings").mkdir(parents=True)
    (root / "agent_settings" / "rules.txt").write_text(references)
    (root / "functions").mkdir()


def test_project_awareness_unreferenced_functions_are_helpers(tmp_path: Path) -> None:
    _polyai_project(tmp_path, "Call {{fn:book_table}} to book.\n")
    helper = tmp_path / "functions" / "in_hours.py"
    helper.write_text("def in_hours(conv):\n    return conv.hour < 17\n")
    tool = tmp_path / "functions" / "book_table.py"
    tool.write_text("def book_table(conv):\n    return conv.hour < 17\n")
    project = Project()
    assert check_source(helper.read_text(), str(helper), project=project) == []
    assert [d.code for d in check_source(tool.read_text(), str(tool), project=project)] == [
        "TRV101"
    ]
    reports = describe_tool_functions(helper.read_text(), str(helper), project=project)
    assert [(r.name, r.is_tool) for r in reports] == [("in_hours", False)]
    assert "not referenced" in reports[0].reason


def test_project_without_any_reference_falls_back_to_the_layout(tmp_path: Path) -> None:
    _polyai_project(tmp_path, "Be polite.\n")
    helper = tmp_path / "functions" / "in_hours.py"
    helper.write_text("def in_hours(conv):\n    return 3\n")
    assert [d.code for d in check_source(helper.read_text(), str(helper), project=Project())] == [
        "TRV101"
    ]


def test_start_end_functions_and_steps_are_always_tools(tmp_path: Path) -> None:
    _polyai_project(tmp_path, "Call {{fn:book_table}}.\n")
    start = tmp_path / "functions" / "start_function.py"
    start.write_text("def start_function(conv):\n    return 1\n")
    step = tmp_path / "flows" / "booking" / "function_steps" / "collect.py"
    step.parent.mkdir(parents=True)
    step.write_text("def collect(conv, flow):\n    return 1\n")
    project = Project()
    for file in (start, step):
        assert [d.code for d in check_source(file.read_text(), str(file), project=project)] == [
            "TRV101"
        ]


def test_reference_forms(tmp_path: Path) -> None:
    (tmp_path / "agent_settings").mkdir()
    (tmp_path / "topics").mkdir()
    (tmp_path / "topics" / "t.yaml").write_text(
        "actions: |\n  Use {{fn:alpha}} then {{ ft:beta }} or {{fn:FUNCTION-gamma}}('x').\n"
    )
    (tmp_path / "voice").mkdir()
    (tmp_path / "voice" / "phrase_filtering.yaml").write_text(
        "phrase_filtering:\n"
        "  - name: goodbye\n"
        "    regular_expressions: ['bye']\n"
        "    say_phrase: true\n"
        "    function: hangup\n"
        "  - name: agent\n"
        "    regular_expressions: ['human']\n"
        "    function: transfer\n"
    )
    project = read_polyai_project(tmp_path)
    assert project.referenced == {"alpha", "beta", "gamma", "hangup", "transfer"}
    assert project.after_spoken_phrase == {"hangup"}


def test_a_global_functions_second_parameter_is_not_flow() -> None:
    # Only transition functions and function steps take `flow`: passing a global
    # function's own argument to a call says nothing about speaking or navigating.
    source = (
        "def end_call(conv, ref: str):\n    item = conv.api.get(ref)\n    return {'hangup': True}\n"
    )
    assert [d.code for d in check_source(source, "functions/end_call.py")] == ["TRV103"]
    step = source.replace("end_call(conv, ref: str)", "end_call(conv, flow)").replace(
        "(ref)", "(flow)"
    )
    assert check_source(step, "flows/f/function_steps/end_call.py") == []


def test_every_family_signal_is_the_prefilter_one() -> None:
    """The engine decides which families a file signals from the prefilter alone, and
    imports only those (``engine.signalled_keys``): each family's ``has_signal`` must be
    the prefilter's, on every rule example and bundled example."""
    from lint_rules import prefilter
    from lint_rules.config import Settings as _Settings
    from lint_rules.engine import frameworks
    from lint_rules.rules import EngineRule, all_rules

    root = Path(__file__).resolve().parent.parent
    texts = [(str(p.relative_to(root)), p.read_text()) for p in (root / "examples").rglob("*.py")]
    for rule in all_rules():
        if not issubclass(rule, EngineRule):
            texts += [(e.path, e.code) for e in (*rule.invalid, *rule.valid)]
    settings = _Settings().with_overrides(select=["ALL"])
    for family in frameworks():
        extra = prefilter.extra_imports_of(family.key, settings)
        for path, text in texts:
            expected = prefilter.has_signal(family.key, text, path, extra_imports=extra)
            assert family.has_signal(text, path, settings) == expected, (family.key, path)


def test_a_check_imports_only_the_families_it_signals() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from lint_rules.engine import check_source\n"
        "found = check_source('def f(conv):\\n    return 3\\n', 'functions/f.py')\n"
        "assert [d.code for d in found] == ['TRV101'], found\n"
        "print(sorted({m.split('.')[2] for m in sys.modules\n"
        "              if m.startswith('lint_rules.frameworks.') and m.count('.') >= 2}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imported = set(eval(out.stdout))  # a printed list of names
    assert {"polyai", "any_framework"} <= imported
    assert not imported & {"openai_chat", "mcp", "langchain", "bedrock", "google_genai"}
