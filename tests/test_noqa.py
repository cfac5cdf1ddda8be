"""``# noqa`` handling: ruff's documented syntax plus flake8's prefix match."""

from __future__ import annotations

import io
import re
import tokenize

import pytest

from lint_rules.analysis.noqa import Directive, NoqaDirectives, add_noqa, lex_directive

TOOL = """\
def get_weather(conv, city: str):
    return 42{comment}
"""


def suppressed(comment: str, code: str = "TRV101") -> bool:
    """Whether ``comment`` on the return line silences ``code`` reported there (row 2)."""
    directives = NoqaDirectives.from_source(TOOL.format(comment=comment))
    return directives.suppresses(code, 2)


@pytest.mark.parametrize(
    "comment",
    [
        "  # noqa",
        "  #noqa",
        "  # NOQA",
        "  # NoQA",
        "  #   noqa",
        "  # noqa because the PolyAI runtime wraps it",
        "  # noqa: TRV101",
        "  # noqa:TRV101",
        "  # NOQA:TRV101",
        "  # noqa : TRV101",
        "  # noqa: TRV102,TRV101",
        "  # noqa: TRV102, TRV101",
        "  # noqa: TRV102 TRV101",
        "  # noqa: E501,TRV101 this is why",
        "  # noqa: TRV1",
        "  # noqa: TRV10",
        "  # noqa: TRV",
        "  # type: ignore  # noqa: TRV101",
        "  # pragma: no cover # noqa",
        "  # noqa: TRV101  # and a remark",
        "  # noqa: TRV102TRV101",
    ],
)
def test_directive_suppresses(comment: str) -> None:
    assert suppressed(comment)


@pytest.mark.parametrize(
    "comment",
    [
        "",
        "  # noqa: TRV102",
        "  # noqa: TRV2",
        "  # noqa: E501",
        "  # noqa: trv101",
        # Malformed directives suppress nothing (ruff warns about them).
        "  #noqaTRV101",
        "  # noqa;TRV101",
        "  # noqa:",
        "  # noqa: TRV101abc",
        "  # noqa-TRV101",
        # A file directive is not a line directive, and must be on its own line.
        "  # ruff: noqa",
        "  # toolret: noqa",
        # Not the word noqa.
        "  # no qa",
        "  # noq",
    ],
)
def test_directive_does_not_suppress(comment: str) -> None:
    assert not suppressed(comment)


def test_codes_are_matched_by_prefix_not_substring() -> None:
    assert suppressed("  # noqa: TRV1", "TRV108")
    assert not suppressed("  # noqa: TRV1", "TRV201")
    assert not suppressed("  # noqa: RV101", "TRV101")


def test_directive_applies_to_its_own_line_only() -> None:
    source = "def f(conv):  # noqa\n    return 42\n"
    directives = NoqaDirectives.from_source(source)
    assert directives.suppresses("TRV101", 1)
    assert not directives.suppresses("TRV101", 2)


def test_noqa_inside_string_literals_is_not_a_directive() -> None:
    source = '''\
def f(conv):
    """Return 42.

    # noqa
    """
    x = "# noqa: TRV101"; return x
    return {"utterance": 'text  # noqa'}
'''
    directives = NoqaDirectives.from_source(source)
    assert [row for row in range(1, 8) if directives.suppresses("TRV101", row)] == []


def test_file_without_noqa_is_not_tokenized(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_args: object) -> None:
        raise AssertionError("tokenize must not run")

    monkeypatch.setattr(tokenize, "generate_tokens", fail)
    directives = NoqaDirectives.from_source("def f(conv):\n    return 42\n")
    assert not directives.suppresses("TRV101", 2)


@pytest.mark.parametrize(
    "line",
    ["# ruff: noqa", "# flake8: noqa", "# toolret: noqa", "#ruff:noqa", "    # ruff: NOQA"],
)
def test_file_level_blanket(line: str) -> None:
    source = f"import os\n{line}\n\ndef f(conv):\n    return 42\n"
    directives = NoqaDirectives.from_source(source)
    assert directives.exempts_file
    assert directives.suppresses("TRV101", 5)
    assert directives.suppresses("TRV002", 1)


def test_file_level_codes() -> None:
    source = "# flake8: noqa: TRV101, TRV2\ndef f(conv):\n    return 42\n"
    directives = NoqaDirectives.from_source(source)
    assert not directives.exempts_file
    assert directives.suppresses("TRV101", 3)
    assert directives.suppresses("TRV205", 3)
    assert not directives.suppresses("TRV102", 3)


@pytest.mark.parametrize(
    "line",
    [
        "x = 1  # ruff: noqa",  # not on its own line: ignored, as in ruff
        "# Ruff: noqa",  # the tool name is case-sensitive in ruff
        "# pylint: noqa",
        "s = '''\n# ruff: noqa\n'''",  # inside a string
    ],
)
def test_not_a_file_level_directive(line: str) -> None:
    directives = NoqaDirectives.from_source(f"{line}\ndef f(conv):\n    return 42\n")
    assert not directives.exempts_file
    assert not directives.suppresses("TRV101", 3)


def test_multiline_string_uses_its_last_line() -> None:
    source = '''\
def f(conv):
    return """It is
sunny"""  # noqa: TRV101
'''
    directives = NoqaDirectives.from_source(source)
    assert directives.noqa_row(2) == 3
    assert directives.noqa_row(3) == 3
    assert directives.noqa_row(1) == 1
    assert directives.suppresses("TRV101", 2)
    assert not directives.suppresses("TRV101", 1)


def test_backslash_continuation_uses_its_last_line() -> None:
    source = "def f(conv):\n    return 1 + \\\n        2  # noqa: TRV101\n"
    directives = NoqaDirectives.from_source(source)
    assert directives.noqa_row(2) == 3
    assert directives.suppresses("TRV101", 2)


def test_bracketed_lines_keep_their_own_directives() -> None:
    source = 'def f(conv):\n    return {  # noqa: TRV105\n        "utterence": "hi",\n    }\n'
    directives = NoqaDirectives.from_source(source)
    assert directives.noqa_row(2) == 2
    assert directives.suppresses("TRV105", 2)
    assert not directives.suppresses("TRV105", 3)


def test_noqa_row_without_any_directive_tokenizes_lazily() -> None:
    directives = NoqaDirectives.from_source('x = """a\nb"""\n')
    assert directives.noqa_row(1) == 2


def test_source_that_stops_tokenizing_keeps_earlier_directives() -> None:
    source = "x = 1  # noqa: TRV101\ny = (\n"
    directives = NoqaDirectives.from_source(source)
    assert directives.suppresses("TRV101", 1)
    assert not directives.suppresses("TRV101", 2)


def test_line_directive_is_exposed() -> None:
    directives = NoqaDirectives.from_source("x = 1  # noqa: TRV101, TRV102\n")
    assert directives.line_directive(1) == Directive(codes=("TRV101", "TRV102"), start=0, end=22)
    assert directives.line_directive(2) is None


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("# noqa", None),
        ("# noqa: TRV101 TRV102", ("TRV101", "TRV102")),
        ("# noqa: TRV101,,TRV102", ("TRV101", "TRV102")),
        ("# noqa: TRV101 This is a comment", ("TRV101",)),
        ("#noqa", None),
        ("# noqa:", ()),
        ("# hello", "absent"),
    ],
)
def test_lex_directive(text: str, codes: object) -> None:
    directive = lex_directive(text)
    if codes == "absent":
        assert directive is None
    else:
        assert directive is not None
        assert directive.codes == codes


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("    return 42\n", "    return 42  # noqa: TRV101\n"),
        ("    return 42", "    return 42  # noqa: TRV101"),
        ("    return 42\r\n", "    return 42  # noqa: TRV101\r\n"),
        ("    return 42   \n", "    return 42  # noqa: TRV101\n"),
        ("    return 42  # noqa: E501\n", "    return 42  # noqa: E501, TRV101\n"),
        ("    return 42  #noqa:E501,W291\n", "    return 42  #noqa:E501,W291, TRV101\n"),
        (
            "    return 42  # noqa: E501 because long\n",
            "    return 42  # noqa: E501, TRV101 because long\n",
        ),
        (
            "    return 42  # type: ignore\n",
            "    return 42  # type: ignore  # noqa: TRV101\n",
        ),
        ('    return "# not a comment"\n', '    return "# not a comment"  # noqa: TRV101\n'),
        (
            "    return '''# in a string'''  # noqa: E501\n",
            "    return '''# in a string'''  # noqa: E501, TRV101\n",
        ),
        # The last line of a multi-line string: it begins inside the string.
        ('sunny # really"""  # noqa: E501\n', 'sunny # really"""  # noqa: E501, TRV101\n'),
        # A malformed directive would hide one placed after it.
        ("    return 42  # noqa:\n", "    return 42  # noqa: TRV101 # noqa:\n"),
    ],
)
def test_add_noqa(line: str, expected: str) -> None:
    assert add_noqa(line, "TRV101") == expected


@pytest.mark.parametrize(
    "line",
    [
        "    return 42  # noqa\n",
        "    return 42  # noqa: TRV101\n",
        "    return 42  # noqa: TRV1\n",
    ],
)
def test_add_noqa_leaves_suppressed_lines_alone(line: str) -> None:
    assert add_noqa(line, "TRV101") == line


def test_add_noqa_output_suppresses() -> None:
    source = 'def f(conv):\n    return {"utterence": "hi"}  # noqa: TRV106\n'
    lines = source.splitlines(keepends=True)
    lines[1] = add_noqa(lines[1], "TRV105")
    directives = NoqaDirectives.from_source("".join(lines))
    assert directives.suppresses("TRV105", 2)
    assert directives.suppresses("TRV106", 2)


@pytest.mark.parametrize(
    "source",
    [
        'def f(conv):\n    return """It is\nsunny"""  # noqa: TRV101\n',
        "def f(conv):\n    return 1 + \\\n        2\n",
        "x = 'a\\\nb'\ny = 2\n",
        'x = (\n    "a"\n    "b"\n)\ny = f"""{x}\n"""\n',
        "a = 1\r\nb = '''x\r\ny'''\r\nc = 3\r\n",
        "a = 1\rb = '''x\ry'''\rc = 3\r",
        'x = 1  # """ in a comment\ny = 2 \\\n  + 3\n',
        "def f():\n    '''doc\n    more'''\n    return g(1,\n             2)\n",
    ],
)
def test_noqa_row_at_a_token_start_agrees_with_the_tokenizer(source: str) -> None:
    exact = NoqaDirectives.from_source(source)
    rows = len(re.split(r"\r\n|\r|\n", source))
    expected = [exact.noqa_row(row) for row in range(1, rows + 1)]
    starts = {token.start[0] for token in _tokens(source)}
    for row in starts:
        quick = NoqaDirectives.from_source(source)
        assert quick.noqa_row(row, token_start=True) == expected[row - 1], row


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    return [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.ENDMARKER, tokenize.DEDENT)
    ]
