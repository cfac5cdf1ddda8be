"""Output formats: exact text, in ruff's dialect.

The snapshots below were checked against ruff 0.17.6 by rendering ruff's own
diagnostics (read back from its JSON output) with these formats and diffing the text
with ruff's; the tests at the end repeat that check on a small file when ruff is
installed.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ruff_json import from_ruff

from lint_rules.formats import (
    FORMATS,
    STATISTICS_FORMATS,
    FixableApplicability,
    UnsupportedStatisticsFormat,
    fix_only_summary,
    has_summary,
    render,
    render_fix_table,
    render_statistics,
    summary,
)
from lint_rules.model import (
    Applicability,
    Diagnostic,
    Edit,
    Fix,
    Location,
    Severity,
)

CWD = Path("/project")
WEATHER = "/project/tools/weather.py"
WEATHER_SOURCE = '''\
import json

from agents import function_tool


@function_tool
def lookup_weather(city: str) -> str:
    """Look up the weather for a city.

    Args:
        city: The city name.
    """
    forecast = {
        "city": city,
        "temp": 21,
    }
    return forecast
'''
METEO = "/project/tools/météo.py"
METEO_SOURCE = """\
from agents import function_tool


@function_tool
def météo(ville: str) -> str:
    prévision = {"ville": ville}
    return ("天気予報 — météo", prévision)
"""
METEO_LINE = METEO_SOURCE.splitlines()[6]
METEO_COLUMN = METEO_LINE.index("prévision") + 1  # code points, 1-based


def at(row: int, column: int) -> Location:
    return Location(row=row, column=column)


def fix(
    message: str,
    *edits: tuple[Location, Location, str],
    applicability: Applicability = Applicability.SAFE,
) -> Fix:
    return Fix(
        message=message,
        applicability=applicability,
        edits=tuple(Edit(content=c, location=s, end_location=e) for s, e, c in edits),
    )


def diagnostic(
    start: Location,
    end: Location,
    *,
    code: str = "TRV301",
    name: str = "return-type-mismatch",
    message: str = "`lookup_weather` returns a `dict`, but its annotation says `str`",
    filename: str = WEATHER,
    severity: Severity = Severity.ERROR,
    fix: Fix | None = None,
) -> Diagnostic:
    return Diagnostic(
        code=code,
        name=name,
        message=message,
        severity=severity,
        filename=filename,
        location=start,
        end_location=end,
        fix=fix,
    )


SERIALIZE = fix(
    "Serialize the value with `json.dumps`",
    (at(17, 12), at(17, 20), "json.dumps(forecast)"),
    applicability=Applicability.UNSAFE,
)
RETURN_DICT = diagnostic(at(17, 12), at(17, 20), fix=SERIALIZE)
RETURN_TUPLE = diagnostic(
    at(7, METEO_COLUMN),
    at(7, METEO_COLUMN + len("prévision")),
    code="TRV102",
    name="tuple-return",
    message="`météo` returns a `tuple`; the model receives its `repr`",
    filename=METEO,
    severity=Severity.WARNING,
)
SOURCES = {WEATHER: WEATHER_SOURCE, METEO: METEO_SOURCE}


def show(
    fmt: str,
    diagnostics: list[Diagnostic],
    *,
    sources: dict[str, str] | None = None,
    unsafe: bool = False,
    show_fix_hint: bool = True,
) -> str:
    return render(
        fmt,
        diagnostics,
        sources=SOURCES if sources is None else sources,
        cwd=CWD,
        fixable_applicability="unsafe" if unsafe else "safe",
        show_fix_hint=show_fix_hint,
    )


# --- full -------------------------------------------------------------------------


def test_full_frame_with_an_unsafe_fix_and_its_preview() -> None:
    assert show("full", [RETURN_DICT]) == (
        "TRV301 `lookup_weather` returns a `dict`, but its annotation says `str`\n"
        "  --> tools/weather.py:17:12\n"
        "   |\n"
        '15 |         "temp": 21,\n'
        "16 |     }\n"
        "17 |     return forecast\n"
        "   |            ^^^^^^^^\n"
        "help: Serialize the value with `json.dumps`\n"
        "   |\n"
        "16 |     }\n"
        "   -     return forecast\n"
        "17 +     return json.dumps(forecast)\n"
        "   |\n"
        "note: This is an unsafe fix and may change runtime behavior\n"
        "\n"
    )


def test_full_marks_a_fix_fixable_only_when_fix_would_apply_it() -> None:
    assert show("full", [RETURN_DICT], unsafe=True).startswith(
        "TRV301 [*] `lookup_weather` returns"
    )
    safe = replace(RETURN_DICT, fix=replace(SERIALIZE, applicability=Applicability.SAFE))
    text = show("full", [safe])
    assert text.startswith("TRV301 [*] `lookup_weather` returns")
    assert "note:" not in text
    assert show("full", [safe], show_fix_hint=False).startswith("TRV301 `lookup_weather`")


def test_full_display_only_fix_gets_ruffs_note() -> None:
    display_only = replace(
        RETURN_DICT, fix=replace(SERIALIZE, applicability=Applicability.DISPLAY_ONLY)
    )
    text = show("full", [display_only], unsafe=True)
    assert text.startswith("TRV301 `lookup_weather`")  # never fixable
    assert text.endswith(
        "note: This suggestion may be incorrect or produce invalid syntax. It requires manual "
        "review and cannot be applied automatically\n\n"
    )


def test_full_counts_columns_in_code_points_and_draws_by_display_width() -> None:
    # `-->` gives the code-point column; the carets sit under `prévision` in a
    # terminal, where each of 天気予報 takes two columns.
    assert show("full", [RETURN_TUPLE]) == (
        "TRV102 `météo` returns a `tuple`; the model receives its `repr`\n"
        f" --> tools/météo.py:7:{METEO_COLUMN}\n"
        "  |\n"
        "5 | def météo(ville: str) -> str:\n"
        '6 |     prévision = {"ville": ville}\n'
        '7 |     return ("天気予報 — météo", prévision)\n'
        "  |" + " " * 33 + "^^^^^^^^^\n"
        "\n"
    )
    assert METEO_COLUMN == 29


def test_full_multi_line_range_and_a_fix_with_two_distant_edits() -> None:
    add_import = fix(
        "Import `json` and serialize",
        (at(1, 1), at(1, 1), "import json\n"),
        (at(17, 12), at(17, 20), "json.dumps(forecast)"),
    )
    assert show("full", [diagnostic(at(13, 16), at(16, 6), fix=add_import)]) == (
        "TRV301 [*] `lookup_weather` returns a `dict`, but its annotation says `str`\n"
        "  --> tools/weather.py:13:16\n"
        "   |\n"
        "11 |           city: The city name.\n"
        '12 |       """\n'
        "13 |       forecast = {\n"
        "   |  ________________^\n"
        '14 | |         "city": city,\n'
        '15 | |         "temp": 21,\n'
        "16 | |     }\n"
        "   | |_____^\n"
        "17 |       return forecast\n"
        "   |\n"
        "help: Import `json` and serialize\n"
        "   |\n"
        "1  | import json\n"
        "2  + import json\n"
        "3  |\n" + "-" * 80 + "\n"
        "17 |     }\n"
        "   -     return forecast\n"
        "18 +     return json.dumps(forecast)\n"
        "   |\n"
        "\n"
    )


def test_full_multi_line_range_that_starts_a_line_uses_a_slash() -> None:
    assert show("full", [diagnostic(at(13, 5), at(16, 6))]) == (
        "TRV301 `lookup_weather` returns a `dict`, but its annotation says `str`\n"
        "  --> tools/weather.py:13:5\n"
        "   |\n"
        "11 |           city: The city name.\n"
        '12 |       """\n'
        "13 | /     forecast = {\n"
        '14 | |         "city": city,\n'
        '15 | |         "temp": 21,\n'
        "16 | |     }\n"
        "   | |_____^\n"
        "17 |       return forecast\n"
        "   |\n"
        "\n"
    )


def test_full_trims_blank_context_lines_and_expands_tabs() -> None:
    source = "import os\n\n\ndef f():\n\treturn os\n"
    text = show(
        "full",
        [diagnostic(at(5, 9), at(5, 11), filename="/project/t.py")],
        sources={"/project/t.py": source},
    )
    assert text == (
        "TRV301 `lookup_weather` returns a `dict`, but its annotation says `str`\n"
        " --> t.py:5:9\n"
        "  |\n"
        "4 | def f():\n"
        "5 |     return os\n"
        "  |            ^^\n"
        "\n"
    )


def test_full_cuts_long_lines_around_the_range() -> None:
    line = 'x = "' + "a" * 300 + '" + undefined_name + "' + "b" * 100 + '"'
    start = line.index("undefined_name") + 1
    text = show(
        "full",
        [diagnostic(at(1, start), at(1, start + 14), filename="/project/long.py")],
        sources={"/project/long.py": line + "\n"},
    )
    frame_line = text.splitlines()[3]
    assert frame_line == "1 | …" + line[249:383] + "…"
    assert text.splitlines()[4] == "  |" + " " * 62 + "^" * 14


def test_full_without_source_or_for_a_whole_file_shows_only_the_location() -> None:
    expected = "TRV001 Could not parse `tools/weather.py`\n--> tools/weather.py:1:1\n\n"
    parse_error = diagnostic(
        at(1, 1),
        at(1, 1),
        code="TRV001",
        name="parse-error",
        message="Could not parse `tools/weather.py`",
    )
    assert show("full", [parse_error], sources={}) == expected
    assert show("full", [parse_error]) == expected


def test_full_diagnostics_end_with_a_blank_line_each() -> None:
    text = show("full", [RETURN_DICT, RETURN_TUPLE])
    assert text == show("full", [RETURN_DICT]) + show("full", [RETURN_TUPLE])
    assert show("full", []) == ""


# --- concise and grouped -------------------------------------------------------------


def test_concise() -> None:
    outside = replace(RETURN_TUPLE, filename="/elsewhere/t.py")
    stdin = replace(RETURN_TUPLE, filename="-")
    assert show("concise", [RETURN_DICT, RETURN_TUPLE, outside, stdin], unsafe=True) == (
        "tools/weather.py:17:12: TRV301 [*] `lookup_weather` returns a `dict`, "
        "but its annotation says `str`\n"
        "tools/météo.py:7:29: TRV102 `météo` returns a `tuple`; the model receives its `repr`\n"
        "/elsewhere/t.py:7:29: TRV102 `météo` returns a `tuple`; the model receives its `repr`\n"
        "-:7:29: TRV102 `météo` returns a `tuple`; the model receives its `repr`\n"
    )
    assert show("concise", []) == ""


def test_grouped() -> None:
    early = diagnostic(at(7, 5), at(7, 19), code="TRV104", message="Missing docstring")
    assert show("grouped", [early, RETURN_DICT, RETURN_TUPLE], unsafe=True) == (
        "tools/météo.py:\n"
        "  7:29 TRV102 `météo` returns a `tuple`; the model receives its `repr`\n"
        "\n"
        "tools/weather.py:\n"
        "   7:5  TRV104 Missing docstring\n"
        "  17:12 TRV301 [*] `lookup_weather` returns a `dict`, but its annotation says `str`\n"
        "\n"
    )


# --- json and json-lines --------------------------------------------------------------


def test_json_is_ruffs_object_with_sorted_keys_and_no_trailing_newline() -> None:
    assert show("json", []) == "[]"
    text = show("json", [RETURN_DICT])
    assert text == (
        "[\n"
        "  {\n"
        '    "cell": null,\n'
        '    "code": "TRV301",\n'
        '    "end_location": {\n'
        '      "column": 20,\n'
        '      "row": 17\n'
        "    },\n"
        '    "filename": "/project/tools/weather.py",\n'
        '    "fix": {\n'
        '      "applicability": "unsafe",\n'
        '      "edits": [\n'
        "        {\n"
        '          "content": "json.dumps(forecast)",\n'
        '          "end_location": {\n'
        '            "column": 20,\n'
        '            "row": 17\n'
        "          },\n"
        '          "location": {\n'
        '            "column": 12,\n'
        '            "row": 17\n'
        "          }\n"
        "        }\n"
        "      ],\n"
        '      "message": "Serialize the value with `json.dumps`"\n'
        "    },\n"
        '    "location": {\n'
        '      "column": 12,\n'
        '      "row": 17\n'
        "    },\n"
        '    "message": "`lookup_weather` returns a `dict`, but its annotation says `str`",\n'
        '    "name": "return-type-mismatch",\n'
        '    "noqa_row": 17,\n'
        '    "severity": "error",\n'
        '    "url": null\n'
        "  }\n"
        "]"
    )


def test_json_url_points_into_the_configured_documentation_site(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No site configured: ``null`` (as ruff's ``url`` may be), never an invented address.
    monkeypatch.setenv("TOOLRET_DOCS_URL", "https://docs.example.org/toolret/")
    (value,) = json.loads(show("json", [RETURN_DICT]))
    assert value["url"] == "https://docs.example.org/toolret/rules/TRV301/"


def test_json_lines_keeps_non_ascii_and_names_display_only_like_ruff() -> None:
    display_only = replace(
        RETURN_TUPLE,
        fix=fix(
            "Return a `dict`",
            (at(7, 12), at(7, 38), '{"prévision": prévision}'),
            applicability=Applicability.DISPLAY_ONLY,
        ),
    )
    assert show("json-lines", [RETURN_TUPLE, display_only]) == (
        '{"cell":null,"code":"TRV102","end_location":{"column":38,"row":7},'
        '"filename":"/project/tools/météo.py","fix":null,"location":{"column":29,"row":7},'
        '"message":"`météo` returns a `tuple`; the model receives its `repr`",'
        '"name":"tuple-return","noqa_row":7,"severity":"warning",'
        '"url":null}\n'
        '{"cell":null,"code":"TRV102","end_location":{"column":38,"row":7},'
        '"filename":"/project/tools/météo.py","fix":{"applicability":"displayonly",'
        '"edits":[{"content":"{\\"prévision\\": prévision}","end_location":{"column":38,"row":7},'
        '"location":{"column":12,"row":7}}],"message":"Return a `dict`"},'
        '"location":{"column":29,"row":7},'
        '"message":"`météo` returns a `tuple`; the model receives its `repr`",'
        '"name":"tuple-return","noqa_row":7,"severity":"warning",'
        '"url":null}\n'
    )
    assert show("json-lines", []) == ""


# --- github ---------------------------------------------------------------------------


def test_github() -> None:
    multi_line = diagnostic(at(13, 16), at(16, 6), severity=Severity.INFO)
    odd = replace(RETURN_TUPLE, filename="/project/a,b:c.py", message="100% of\nthe value")
    assert show("github", [RETURN_DICT, multi_line, odd]) == (
        "::error title=toolret (TRV301),file=/project/tools/weather.py,line=17,col=12,"
        "endLine=17,endColumn=20::tools/weather.py:17:12: TRV301 `lookup_weather` returns a "
        "`dict`, but its annotation says `str`%0A  help: Serialize the value with `json.dumps`\n"
        "::notice title=toolret (TRV301),file=/project/tools/weather.py,line=13,endLine=16::"
        "tools/weather.py:13:16: TRV301 `lookup_weather` returns a `dict`, but its annotation "
        "says `str`\n"
        "::warning title=toolret (TRV102),file=/project/a%2Cb%3Ac.py,line=7,col=29,endLine=7,"
        "endColumn=38::a,b:c.py:7:29: TRV102 100%25 of%0Athe value\n"
    )


# --- summary lines ----------------------------------------------------------------------


def _with_fix(applicability: Applicability | None) -> Diagnostic:
    if applicability is None:
        return RETURN_TUPLE
    return replace(RETURN_DICT, fix=replace(SERIALIZE, applicability=applicability))


SAFE = _with_fix(Applicability.SAFE)
UNSAFE = _with_fix(Applicability.UNSAFE)
DISPLAY = _with_fix(Applicability.DISPLAY_ONLY)
NO_FIX = _with_fix(None)


@pytest.mark.parametrize(
    ("diagnostics", "kwargs", "expected"),
    [
        ([], {}, "All checks passed!\n"),
        ([NO_FIX], {}, "Found 1 error.\n"),
        ([NO_FIX, DISPLAY], {}, "Found 2 errors.\n"),
        ([SAFE], {}, "Found 1 error.\n[*] 1 fixable with `--fix`.\n"),
        (
            [UNSAFE],
            {},
            "Found 1 error.\n1 unsafe fix available with `--fix --unsafe-fixes`.\n",
        ),
        (
            [SAFE, UNSAFE, UNSAFE],
            {},
            "Found 3 errors.\n"
            "[*] 1 fixable with `--fix` (2 unsafe fixes available with `--fix --unsafe-fixes`).\n",
        ),
        (
            [SAFE, UNSAFE],
            {"fixable_applicability": "unsafe"},
            "Found 2 errors.\n[*] 2 fixable with `--fix`.\n",
        ),
        (
            [SAFE, UNSAFE],
            {"hint_unsafe_fixes": False},
            "Found 2 errors.\n[*] 1 fixable with `--fix`.\n",
        ),
        ([UNSAFE], {"hint_unsafe_fixes": False}, "Found 1 error.\n"),
        (
            [UNSAFE],
            {"fixed": 1},
            "Found 2 errors (1 fixed, 1 remaining).\n"
            "1 unsafe fix available with `--fix --unsafe-fixes`.\n",
        ),
        ([], {"fixed": 1}, "Found 1 error (1 fixed, 0 remaining).\n"),
    ],
)
def test_summary(diagnostics: list[Diagnostic], kwargs: dict[str, Any], expected: str) -> None:
    assert summary("full", diagnostics, **kwargs) == expected
    assert summary("concise", diagnostics, **kwargs) == expected
    assert summary("json", diagnostics, **kwargs) == ""


def test_fix_only_summary() -> None:
    assert fix_only_summary([], fixed=0) == ""
    assert fix_only_summary([], fixed=3) == "Fixed 3 errors.\n"
    assert fix_only_summary([UNSAFE], fixed=1) == (
        "Fixed 1 error (1 additional fix available with `--unsafe-fixes`).\n"
    )
    assert fix_only_summary([UNSAFE, UNSAFE], fixed=0) == (
        "No errors fixed (2 fixes available with `--unsafe-fixes`).\n"
    )
    assert fix_only_summary([UNSAFE], fixed=2, dry_run=True) == (
        "Would fix 2 errors (1 additional fix available with `--unsafe-fixes`).\n"
    )
    assert fix_only_summary([UNSAFE], fixed=0, dry_run=True) == (
        "No errors would be fixed (1 fix available with `--unsafe-fixes`).\n"
    )
    assert fix_only_summary([UNSAFE], fixed=1, fixable_applicability="unsafe") == (
        "Fixed 1 error.\n"
    )


def test_fix_table() -> None:
    fixed = {
        WEATHER: {("TRV301", "return-type-mismatch"): 1, ("TRV104", "missing-docstring"): 12},
        METEO: {("TRV102", "tuple-return"): 2},
    }
    assert render_fix_table(fixed, cwd=CWD) == (
        "\n"
        "Fixed 15 errors:\n"
        "- tools/météo.py:\n"
        "     2 \N{MULTIPLICATION SIGN} TRV102 (tuple-return)\n"
        "- tools/weather.py:\n"
        "    12 \N{MULTIPLICATION SIGN} TRV104 (missing-docstring)\n"
        "     1 \N{MULTIPLICATION SIGN} TRV301 (return-type-mismatch)\n"
        "\n"
    )
    assert render_fix_table({}, cwd=CWD) == ""


# --- statistics ---------------------------------------------------------------------------


def test_statistics_text() -> None:
    docstring = diagnostic(at(7, 5), at(7, 19), code="TRV104", name="missing-docstring")
    diagnostics = [SAFE, UNSAFE, NO_FIX, NO_FIX, docstring]
    assert render_statistics(diagnostics) == (
        "2\tTRV301\t[-] return-type-mismatch\n"
        "2\tTRV102\t[ ] tuple-return\n"
        "1\tTRV104\t[ ] missing-docstring\n"
    )
    assert render_statistics(diagnostics, fixable_applicability="unsafe") == (
        "2\tTRV301\t[*] return-type-mismatch\n"
        "2\tTRV102\t[ ] tuple-return\n"
        "1\tTRV104\t[ ] missing-docstring\n"
    )
    # No markers at all when nothing is fixable; codes are padded to the longest.
    assert render_statistics([NO_FIX, UNSAFE, diagnostic(at(1, 1), at(1, 2), code="TRV2")]) == (
        "1\tTRV2  \treturn-type-mismatch\n"
        "1\tTRV301\treturn-type-mismatch\n"
        "1\tTRV102\ttuple-return\n"
    )
    assert render_statistics([]) == ""


def test_statistics_json_and_unsupported_formats() -> None:
    assert render_statistics([SAFE, UNSAFE], fmt="json") == (
        "[\n"
        "  {\n"
        '    "code": "TRV301",\n'
        '    "name": "return-type-mismatch",\n'
        '    "count": 2,\n'
        '    "fixable": false,\n'
        '    "fixable_count": 1\n'
        "  }\n"
        "]\n"
    )
    assert render_statistics([], fmt="json") == ""
    assert STATISTICS_FORMATS == ("full", "concise", "json")
    with pytest.raises(
        UnsupportedStatisticsFormat,
        match=r"^Unsupported serialization format for statistics: JsonLines$",
    ):
        render_statistics([SAFE], fmt="json-lines")


# --- registry -------------------------------------------------------------------------------


def test_registry() -> None:
    from lint_rules.cli import CHECK_FORMATS

    assert FORMATS == CHECK_FORMATS
    assert [fmt for fmt in FORMATS if has_summary(fmt)] == ["concise", "full", "grouped"]
    with pytest.raises(KeyError):
        show("bogus", [])


# --- against the real ruff --------------------------------------------------------------------

_VENV_RUFF = Path("/work/venv/bin/ruff")
RUFF = shutil.which("ruff") or (str(_VENV_RUFF) if _VENV_RUFF.exists() else None)
needs_ruff = pytest.mark.skipif(RUFF is None, reason="ruff is not installed")

RUFF_SOURCE = 'import os\n\n\ndef météo():\n    x = 1\n    return "天気" + zz\n'
CONCISE = re.compile(
    r"^(?P<path>.+?):(?P<row>\d+):(?P<column>\d+): (?P<code>[A-Z]+\d+)"
    r"(?P<fix> \[\*\])? (?P<message>\S.*)$"
)


def _ruff(cwd: Path, fmt: str, *args: str) -> str:
    assert RUFF is not None
    completed = subprocess.run(
        [RUFF, "check", "--no-cache", "--isolated", "--output-format", fmt, *args],
        cwd=cwd,
        capture_output=True,
        check=False,
    )
    return completed.stdout.decode("utf-8")


def _shape(value: Any) -> Any:
    """Keys at every level, and which values are null / objects / arrays / scalars."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(item) for item in value[:1]]
    return None if value is None else "scalar"


@needs_ruff
def test_json_has_exactly_ruffs_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLRET_DOCS_URL", "https://docs.example.org/toolret")  # as ruff: a str
    (tmp_path / "a.py").write_text(RUFF_SOURCE, encoding="utf-8")
    ruff_objects = json.loads(_ruff(tmp_path, "json", "--select", "F401,F821", "a.py"))
    assert [obj["code"] for obj in ruff_objects] == ["F401", "F821"]
    ours = json.loads(
        render("json", [from_ruff(obj) for obj in ruff_objects], sources={}, cwd=tmp_path)
    )
    assert [_shape(obj) for obj in ours] == [_shape(obj) for obj in ruff_objects]
    with_fix, without_fix = ours
    assert set(with_fix) == set(ruff_objects[0])
    assert set(with_fix["fix"]) == set(ruff_objects[0]["fix"])
    assert set(with_fix["fix"]["edits"][0]) == set(ruff_objects[0]["fix"]["edits"][0])
    assert without_fix["fix"] is None
    # And the same for the toolret diagnostics of the snapshots above.
    assert _shape(json.loads(show("json", [RETURN_DICT]))[0]) == _shape(ruff_objects[0])
    assert _shape(json.loads(show("json", [RETURN_TUPLE]))[0]) == _shape(ruff_objects[1])


@needs_ruff
def test_concise_lines_have_ruffs_shape(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(RUFF_SOURCE, encoding="utf-8")
    ruff_lines = _ruff(tmp_path, "concise", "--select", "F401,F821", "a.py").splitlines()
    ruff_matches = [CONCISE.match(line) for line in ruff_lines[:2]]
    assert all(ruff_matches), ruff_lines
    our_lines = show("concise", [RETURN_DICT, RETURN_TUPLE], unsafe=True).splitlines()
    our_matches = [CONCISE.match(line) for line in our_lines]
    assert all(our_matches), our_lines
    assert [m["fix"] for m in ruff_matches if m] == [" [*]", None]
    assert [m["fix"] for m in our_matches if m] == [" [*]", None]
    assert [m["path"] for m in ruff_matches if m] == ["a.py", "a.py"]
    assert ruff_lines[2:] == ["Found 2 errors.", "[*] 1 fixable with `--fix`."]


def _ruff_version() -> str:
    assert RUFF is not None
    return subprocess.run([RUFF, "--version"], capture_output=True, text=True).stdout.strip()


@needs_ruff
@pytest.mark.parametrize("unsafe", [False, True])
def test_ruffs_own_diagnostics_render_exactly_as_ruff_renders_them(
    tmp_path: Path, unsafe: bool
) -> None:
    if not _ruff_version().startswith("ruff 0.17."):
        pytest.skip(f"exact text is pinned to ruff 0.17; found {_ruff_version()}")
    files = {
        "a.py": RUFF_SOURCE,
        "b.py": "def f(x=[\n    1,\n    2,\n]):\n\treturn x  \n",
        "c.py": "import sys\r\nprint(sys, y)\r\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_bytes(text.encode("utf-8"))
    args = ["--select", "F401,F821,F841,B006,W291,W191", *(["--unsafe-fixes"] if unsafe else [])]
    objects = [json.loads(line) for line in _ruff(tmp_path, "json-lines", *args, ".").splitlines()]
    diagnostics = [from_ruff(obj) for obj in objects]
    sources = {
        d.filename: (tmp_path / Path(d.filename).name).read_bytes().decode() for d in diagnostics
    }
    applicability: FixableApplicability = "unsafe" if unsafe else "safe"
    for fmt in ("full", "concise", "grouped"):
        ours = render(
            fmt, diagnostics, sources=sources, cwd=tmp_path, fixable_applicability=applicability
        ) + summary(fmt, diagnostics, fixable_applicability=applicability)
        assert ours == _ruff(tmp_path, fmt, *args, "."), fmt
