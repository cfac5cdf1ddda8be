"""ruff's ``junit`` format: a JUnit XML report, one test suite per file.

::

    <?xml version="1.0" encoding="UTF-8"?>
    <testsuites name="toolret" tests="2" skipped="0" failures="2" errors="0">
        <testsuite name="/abs/a.py" tests="2" skipped="0" errors="0" failures="2"
                   package="org.toolret">
            <testcase name="org.toolret.TRV301" classname="/abs/a" line="17" column="12">
                <properties>
                    <property name="severity" value="error"/>
                </properties>
                <failure message="msg">line 17, col 12, msg</failure>
            </testcase>
            …

(the ``testsuite`` tag is one line, wrapped here). As in ruff 0.17 (with ``toolret`` for
``ruff``): suites sorted by filename, named by the absolute path; a test case per
diagnostic, named ``org.toolret.<code>``, classed by the path without its extension,
with ``line`` / ``column`` of the start and the severity as a property; the failure's
``message`` is the message and its text repeats it after ``line N, col M,``; a trailing
newline. A clean run is one passing case, ``No errors found``. Attribute order, the
four-space indent and the escaping of all five XML special characters (``&`` ``<`` ``>``
``"`` ``'``) are quick-junit's.

Unlike ruff, characters that XML 1.0 cannot hold (control characters other than tab,
newline and carriage return) become U+FFFD, and tab / newline / carriage return in an
attribute are written as character references so that a parser reads them back.

A notebook diagnostic's test case has no ``line`` / ``column`` attributes, as in ruff
0.17 (a cell's rows are not rows of the ``.ipynb`` file); unlike ruff, whose failure
text is then the bare message, the text gives the place: ``cell 3, line 4, col 12, msg``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence

from lint_rules.formats._base import RenderOptions
from lint_rules.model import Diagnostic

NAME = "junit"
PROGRAM = "toolret"
PACKAGE = f"org.{PROGRAM}"
INDENT = "    "

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
_ATTRIBUTE_ESCAPES = {**_ESCAPES, "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_TEXT_SPECIAL = re.compile("[&<>\"']")
_ATTRIBUTE_SPECIAL = re.compile("[&<>\"'\t\n\r]")


def escape_text(text: str) -> str:
    return _TEXT_SPECIAL.sub(lambda m: _ESCAPES[m.group()], _NOT_XML.sub("\ufffd", text))


def escape_attribute(text: str) -> str:
    return _ATTRIBUTE_SPECIAL.sub(
        lambda m: _ATTRIBUTE_ESCAPES[m.group()], _NOT_XML.sub("\ufffd", text)
    )


def _tag(depth: int, name: str, attributes: Sequence[tuple[str, object]], end: str = ">") -> str:
    """An opening (``end=">"``) or empty (``end="/>"``) tag, indented ``depth`` levels."""
    rendered = "".join(f' {key}="{escape_attribute(str(value))}"' for key, value in attributes)
    return f"{INDENT * depth}<{name}{rendered}{end}"


def classname(filename: str) -> str:
    """The path without its extension (Rust's ``parent().join(file_stem())``)."""
    stem = os.path.basename(filename)
    if "." in stem[1:]:
        stem = stem[: stem.rindex(".")]
    return os.path.join(os.path.dirname(filename), stem)


def _test_case(diagnostic: Diagnostic) -> list[str]:
    start = diagnostic.location
    description = f"line {start.row}, col {start.column}, {diagnostic.message}"
    case: list[tuple[str, object]] = [
        ("name", f"{PACKAGE}.{diagnostic.code}"),
        ("classname", classname(diagnostic.filename)),
    ]
    if diagnostic.cell is None:
        case += [("line", start.row), ("column", start.column)]
    else:
        description = f"cell {diagnostic.cell}, {description}"
    return [
        _tag(2, "testcase", case),
        _tag(3, "properties", ()),
        _tag(4, "property", [("name", "severity"), ("value", diagnostic.severity.value)], "/>"),
        f"{INDENT * 3}</properties>",
        _tag(3, "failure", [("message", diagnostic.message)])
        + f"{escape_text(description)}</failure>",
        f"{INDENT * 2}</testcase>",
    ]


def _suite(depth: int, name: str, tests: int, failures: int) -> str:
    counts = [("tests", tests), ("skipped", 0), ("errors", 0), ("failures", failures)]
    return _tag(depth, "testsuite", [("name", name), *counts, ("package", PACKAGE)])


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    by_file: dict[str, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        by_file.setdefault(diagnostic.filename, []).append(diagnostic)
    total = len(diagnostics)
    suites = [
        ("tests", total or 1),
        ("skipped", 0),
        ("failures", total),
        ("errors", 0),
    ]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        _tag(0, "testsuites", [("name", PROGRAM), *suites]),
    ]
    if not diagnostics:
        lines.append(_suite(1, PROGRAM, 1, 0))
        lines.append(
            _tag(2, "testcase", [("name", "No errors found"), ("classname", PROGRAM)], "/>")
        )
        lines.append(f"{INDENT}</testsuite>")
    for filename in sorted(by_file):
        in_file = by_file[filename]
        lines.append(_suite(1, filename, len(in_file), len(in_file)))
        for diagnostic in in_file:
            lines.extend(_test_case(diagnostic))
        lines.append(f"{INDENT}</testsuite>")
    lines.append("</testsuites>")
    return "\n".join(lines) + "\n"
