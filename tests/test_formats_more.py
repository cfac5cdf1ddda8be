"""The formats for CI systems and report viewers: gitlab, sarif, junit, pylint, azure, rdjson.

Snapshots pin the exact text for a diagnostic with a fix and one with non-ASCII text.
The tests at the end run ruff 0.17 (when installed) on small files, turn its findings
(read back from its JSON output) into toolret diagnostics, and compare what the two print:
byte for byte for pylint, azure, gitlab and junit (with ``toolret`` for ``ruff``), and
field by field for rdjson and sarif, where toolret adds what ruff leaves out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from ruff_json import from_ruff

import lint_rules
from lint_rules.formats import FORMATS, has_summary, render
from lint_rules.formats.gitlab import fingerprint
from lint_rules.model import Applicability, Diagnostic, Edit, Fix, Location, Severity
from lint_rules.rules import all_rules

CWD = Path("/project")
WEATHER = "/project/functions/lookup_weather.py"
METEO = "/project/tools/météo.py"
SCHEMA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sarif-schema-2.1.0.json"


def at(row: int, column: int) -> Location:
    return Location(row=row, column=column)


def insertion(row: int, column: int, content: str) -> Edit:
    return Edit(content=content, location=at(row, column), end_location=at(row, column))


RETURN_LIST = Diagnostic(
    code="TRV101",
    name="polyai-invalid-return-type",
    message="`lookup_weather` returns a `list`",
    severity=Severity.ERROR,
    filename=WEATHER,
    location=at(7, 12),
    end_location=at(7, 24),
    fix=Fix(
        message="Wrap in `str()`",
        applicability=Applicability.SAFE,
        edits=(insertion(7, 12, "str("), insertion(7, 24, ")")),
    ),
)
REPR_RETURN = Diagnostic(
    code="TRV308",
    name="agents-function-tool-repr-return",
    message='`météo` returns `("天気", x)`: a repr',
    severity=Severity.INFO,
    filename=METEO,
    location=at(7, 29),
    end_location=at(7, 38),
)
UNKNOWN_KEY = Diagnostic(
    code="TRV105",
    name="polyai-unknown-return-key",
    message="Agent Studio ignores the key `colour`",
    severity=Severity.WARNING,
    filename=WEATHER,
    location=at(9, 22),
    end_location=at(9, 30),
    fix=Fix(
        message="Remove the `colour` key",
        applicability=Applicability.UNSAFE,
        edits=(Edit(content="", location=at(9, 20), end_location=at(9, 41)),),
    ),
)
BOTH = [RETURN_LIST, REPR_RETURN]


def show(fmt: str, diagnostics: list[Diagnostic], cwd: Path = CWD) -> str:
    return render(fmt, diagnostics, sources={}, cwd=cwd)


@pytest.fixture(autouse=True)
def _no_gitlab_project_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI_PROJECT_DIR", raising=False)


def test_registry_has_ruffs_twelve_formats_in_ruffs_order() -> None:
    assert FORMATS == (
        "concise",
        "full",
        "json",
        "json-lines",
        "junit",
        "grouped",
        "github",
        "gitlab",
        "pylint",
        "rdjson",
        "azure",
        "sarif",
    )
    for fmt in ("gitlab", "sarif", "junit", "pylint", "azure", "rdjson"):
        assert not has_summary(fmt)


# --- pylint and azure ------------------------------------------------------------------


def test_pylint() -> None:
    outside = replace(REPR_RETURN, filename="/elsewhere/t.py")
    assert show("pylint", [*BOTH, outside]) == (
        "functions/lookup_weather.py:7: [TRV101] `lookup_weather` returns a `list`\n"
        'tools/météo.py:7: [TRV308] `météo` returns `("天気", x)`: a repr\n'
        '/elsewhere/t.py:7: [TRV308] `météo` returns `("天気", x)`: a repr\n'
    )
    assert show("pylint", []) == ""


def test_azure() -> None:
    assert show("azure", [*BOTH, UNKNOWN_KEY]) == (
        "##vso[task.logissue type=error;sourcepath=/project/functions/lookup_weather.py;"
        "linenumber=7;columnnumber=12;code=TRV101;]`lookup_weather` returns a `list`\n"
        "##vso[task.logissue type=warning;sourcepath=/project/tools/météo.py;"
        'linenumber=7;columnnumber=29;code=TRV308;]`météo` returns `("天気", x)`: a repr\n'
        "##vso[task.logissue type=warning;sourcepath=/project/functions/lookup_weather.py;"
        "linenumber=9;columnnumber=22;code=TRV105;]Agent Studio ignores the key `colour`\n"
    )
    assert show("azure", []) == ""


def test_azure_escapes_what_would_break_the_command() -> None:
    odd = replace(RETURN_LIST, filename="/project/a;b].py", message="100% [sure];\r\nnext line")
    assert show("azure", [odd]) == (
        "##vso[task.logissue type=error;sourcepath=/project/a%3Bb%5D.py;linenumber=7;"
        "columnnumber=12;code=TRV101;]100% [sure];%0D%0Anext line\n"
    )


# --- gitlab ----------------------------------------------------------------------------


def test_gitlab() -> None:
    assert show("gitlab", BOTH) == (
        "[\n"
        "  {\n"
        '    "check_name": "TRV101",\n'
        '    "description": "TRV101: `lookup_weather` returns a `list`",\n'
        '    "severity": "major",\n'
        '    "fingerprint": "b01aa7933759fbb",\n'
        '    "location": {\n'
        '      "path": "functions/lookup_weather.py",\n'
        '      "positions": {\n'
        '        "begin": {\n'
        '          "line": 7,\n'
        '          "column": 12\n'
        "        },\n"
        '        "end": {\n'
        '          "line": 7,\n'
        '          "column": 24\n'
        "        }\n"
        "      }\n"
        "    }\n"
        "  },\n"
        "  {\n"
        '    "check_name": "TRV308",\n'
        '    "description": "TRV308: `météo` returns `(\\"天気\\", x)`: a repr",\n'
        '    "severity": "info",\n'
        '    "fingerprint": "b0a97b249c4d885c",\n'
        '    "location": {\n'
        '      "path": "tools/météo.py",\n'
        '      "positions": {\n'
        '        "begin": {\n'
        '          "line": 7,\n'
        '          "column": 29\n'
        "        },\n"
        '        "end": {\n'
        '          "line": 7,\n'
        '          "column": 38\n'
        "        }\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "]"
    )
    assert show("gitlab", []) == "[]"
    assert json.loads(show("gitlab", [UNKNOWN_KEY]))[0]["severity"] == "minor"


def test_gitlab_fingerprint_is_ruffs_siphash() -> None:
    # Values ruff 0.17.6 printed for F401 (`unused-import`) twice in `a.py`, F821 in
    # `a.py` and RUF001 in `météo.py`: the second F401 is salted with the first's value.
    first = fingerprint("unused-import", "a.py")
    assert f"{first:x}" == "4803f2a33ba1ea51"
    assert f"{fingerprint('unused-import', 'a.py', first):x}" == "b68a3ac42dc04a96"
    assert f"{fingerprint('undefined-name', 'a.py'):x}" == "71e37fc5c1c5acb"  # no padding
    assert f"{fingerprint('ambiguous-unicode-character-string', 'météo.py'):x}" == (
        "2b291714287df6ae"
    )


def test_gitlab_fingerprints_are_unique_stable_and_ignore_moves() -> None:
    moved = replace(RETURN_LIST, location=at(30, 1), end_location=at(30, 9))
    report = json.loads(show("gitlab", [RETURN_LIST, moved, RETURN_LIST]))
    prints = [entry["fingerprint"] for entry in report]
    assert len(set(prints)) == 3
    assert prints == [entry["fingerprint"] for entry in json.loads(show("gitlab", [moved] * 3))]
    # The n-th finding of a rule in a file keeps its fingerprint when lines move.
    assert json.loads(show("gitlab", [moved]))[0]["fingerprint"] == prints[0]


def test_gitlab_paths_follow_ci_project_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI_PROJECT_DIR", "/project/tools")
    paths = [entry["location"]["path"] for entry in json.loads(show("gitlab", BOTH))]
    assert paths == ["../functions/lookup_weather.py", "météo.py"]


# --- junit -----------------------------------------------------------------------------


def test_junit() -> None:
    assert show("junit", [*BOTH, UNKNOWN_KEY]) == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="toolret" tests="3" skipped="0" failures="3" errors="0">\n'
        '    <testsuite name="/project/functions/lookup_weather.py" tests="2" skipped="0" '
        'errors="0" failures="2" package="org.toolret">\n'
        '        <testcase name="org.toolret.TRV101" classname="/project/functions/lookup_weather"'
        ' line="7" column="12">\n'
        "            <properties>\n"
        '                <property name="severity" value="error"/>\n'
        "            </properties>\n"
        '            <failure message="`lookup_weather` returns a `list`">line 7, col 12, '
        "`lookup_weather` returns a `list`</failure>\n"
        "        </testcase>\n"
        '        <testcase name="org.toolret.TRV105" classname="/project/functions/lookup_weather"'
        ' line="9" column="22">\n'
        "            <properties>\n"
        '                <property name="severity" value="warning"/>\n'
        "            </properties>\n"
        '            <failure message="Agent Studio ignores the key `colour`">line 9, col 22, '
        "Agent Studio ignores the key `colour`</failure>\n"
        "        </testcase>\n"
        "    </testsuite>\n"
        '    <testsuite name="/project/tools/météo.py" tests="1" skipped="0" errors="0" '
        'failures="1" package="org.toolret">\n'
        '        <testcase name="org.toolret.TRV308" classname="/project/tools/météo" line="7" '
        'column="29">\n'
        "            <properties>\n"
        '                <property name="severity" value="info"/>\n'
        "            </properties>\n"
        '            <failure message="`météo` returns `(&quot;天気&quot;, x)`: a repr">'
        "line 7, col 29, `météo` returns `(&quot;天気&quot;, x)`: a repr</failure>\n"
        "        </testcase>\n"
        "    </testsuite>\n"
        "</testsuites>\n"
    )


def test_junit_when_clean() -> None:
    assert show("junit", []) == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="toolret" tests="1" skipped="0" failures="0" errors="0">\n'
        '    <testsuite name="toolret" tests="1" skipped="0" errors="0" failures="0" '
        'package="org.toolret">\n'
        '        <testcase name="No errors found" classname="toolret"/>\n'
        "    </testsuite>\n"
        "</testsuites>\n"
    )


def test_junit_escapes_and_stays_well_formed_xml() -> None:
    message = "a < b & 'c' \"d\"\tand\nnext\x01"
    odd = replace(RETURN_LIST, message=message, filename="/project/x&y.py")
    text = show("junit", [odd])
    assert (
        '<failure message="a &lt; b &amp; &apos;c&apos; &quot;d&quot;&#9;and&#10;next\ufffd">'
        "line 7, col 12, a &lt; b &amp; &apos;c&apos; &quot;d&quot;\tand\nnext\ufffd</failure>"
    ) in text
    failure = ET.fromstring(text.encode()).find("testsuite/testcase/failure")
    assert failure is not None
    assert failure.get("message") == message.replace("\x01", "\ufffd")
    assert failure.text == "line 7, col 12, " + message.replace("\x01", "\ufffd")
    suite = ET.fromstring(text.encode()).find("testsuite")
    assert suite is not None and suite.get("name") == "/project/x&y.py"


# --- rdjson ----------------------------------------------------------------------------


def test_rdjson(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLRET_DOCS_URL", "https://docs.example.org/toolret")
    assert show("rdjson", BOTH) == (
        "{\n"
        '  "diagnostics": [\n'
        "    {\n"
        '      "code": {\n'
        '        "url": "https://docs.example.org/toolret/rules/TRV101/",\n'
        '        "value": "TRV101"\n'
        "      },\n"
        '      "location": {\n'
        '        "path": "/project/functions/lookup_weather.py",\n'
        '        "range": {\n'
        '          "end": {\n'
        '            "column": 24,\n'
        '            "line": 7\n'
        "          },\n"
        '          "start": {\n'
        '            "column": 12,\n'
        '            "line": 7\n'
        "          }\n"
        "        }\n"
        "      },\n"
        '      "message": "`lookup_weather` returns a `list`",\n'
        '      "severity": "ERROR",\n'
        '      "suggestions": [\n'
        "        {\n"
        '          "range": {\n'
        '            "end": {\n'
        '              "column": 12,\n'
        '              "line": 7\n'
        "            },\n"
        '            "start": {\n'
        '              "column": 12,\n'
        '              "line": 7\n'
        "            }\n"
        "          },\n"
        '          "text": "str("\n'
        "        },\n"
        "        {\n"
        '          "range": {\n'
        '            "end": {\n'
        '              "column": 24,\n'
        '              "line": 7\n'
        "            },\n"
        '            "start": {\n'
        '              "column": 24,\n'
        '              "line": 7\n'
        "            }\n"
        "          },\n"
        '          "text": ")"\n'
        "        }\n"
        "      ]\n"
        "    },\n"
        "    {\n"
        '      "code": {\n'
        '        "url": "https://docs.example.org/toolret/rules/TRV308/",\n'
        '        "value": "TRV308"\n'
        "      },\n"
        '      "location": {\n'
        '        "path": "/project/tools/météo.py",\n'
        '        "range": {\n'
        '          "end": {\n'
        '            "column": 38,\n'
        '            "line": 7\n'
        "          },\n"
        '          "start": {\n'
        '            "column": 29,\n'
        '            "line": 7\n'
        "          }\n"
        "        }\n"
        "      },\n"
        '      "message": "`météo` returns `(\\"天気\\", x)`: a repr",\n'
        '      "severity": "INFO"\n'
        "    }\n"
        "  ],\n"
        '  "severity": "WARNING",\n'
        '  "source": {\n'
        '    "name": "toolret",\n'
        '    "url": "https://docs.example.org/toolret/"\n'
        "  }\n"
        "}"
    )


def test_rdjson_deletion_suggestion_and_clean_run() -> None:
    (entry,) = json.loads(show("rdjson", [UNKNOWN_KEY]))["diagnostics"]
    assert entry["severity"] == "WARNING"
    assert entry["suggestions"] == [
        {
            "range": {"end": {"column": 41, "line": 9}, "start": {"column": 20, "line": 9}},
            "text": "",
        }
    ]
    assert json.loads(show("rdjson", [])) == {
        "diagnostics": [],
        "severity": "WARNING",
        "source": {"name": "toolret"},  # no documentation site configured: no url
    }
    (entry,) = json.loads(show("rdjson", [UNKNOWN_KEY]))["diagnostics"]
    assert "url" not in entry["code"]


# --- sarif -----------------------------------------------------------------------------


def _rule_index(code: str) -> int:
    """The index of ``code`` among the rules of ``BOTH``'s results (only those are listed)."""
    return sorted({d.code for d in BOTH}).index(code)


def test_sarif_exact_text_around_the_rules() -> None:
    text = show("sarif", BOTH)
    head = (
        "{\n"
        '  "$schema": "https://json.schemastore.org/sarif-2.1.0.json",\n'
        '  "runs": [\n'
        "    {\n"
        '      "columnKind": "unicodeCodePoints",\n'
        '      "originalUriBaseIds": {\n'
        '        "%SRCROOT%": {\n'
        '          "uri": "file:///project/"\n'
        "        }\n"
        "      },\n"
        '      "results": [\n'
        "        {\n"
        '          "fixes": [\n'
        "            {\n"
        '              "artifactChanges": [\n'
        "                {\n"
        '                  "artifactLocation": {\n'
        '                    "uri": "functions/lookup_weather.py",\n'
        '                    "uriBaseId": "%SRCROOT%"\n'
        "                  },\n"
        '                  "replacements": [\n'
        "                    {\n"
        '                      "deletedRegion": {\n'
        '                        "endColumn": 12,\n'
        '                        "endLine": 7,\n'
        '                        "startColumn": 12,\n'
        '                        "startLine": 7\n'
        "                      },\n"
        '                      "insertedContent": {\n'
        '                        "text": "str("\n'
        "                      }\n"
        "                    },\n"
        "                    {\n"
        '                      "deletedRegion": {\n'
        '                        "endColumn": 24,\n'
        '                        "endLine": 7,\n'
        '                        "startColumn": 24,\n'
        '                        "startLine": 7\n'
        "                      },\n"
        '                      "insertedContent": {\n'
        '                        "text": ")"\n'
        "                      }\n"
        "                    }\n"
        "                  ]\n"
        "                }\n"
        "              ],\n"
        '              "description": {\n'
        '                "text": "Wrap in `str()`"\n'
        "              },\n"
        '              "properties": {\n'
        '                "applicability": "safe"\n'
        "              }\n"
        "            }\n"
        "          ],\n"
        '          "level": "error",\n'
        '          "locations": [\n'
        "            {\n"
        '              "physicalLocation": {\n'
        '                "artifactLocation": {\n'
        '                  "uri": "functions/lookup_weather.py",\n'
        '                  "uriBaseId": "%SRCROOT%"\n'
        "                },\n"
        '                "region": {\n'
        '                  "endColumn": 24,\n'
        '                  "endLine": 7,\n'
        '                  "startColumn": 12,\n'
        '                  "startLine": 7\n'
        "                }\n"
        "              }\n"
        "            }\n"
        "          ],\n"
        '          "message": {\n'
        '            "text": "`lookup_weather` returns a `list`"\n'
        "          },\n"
        '          "ruleId": "TRV101",\n'
        f'          "ruleIndex": {_rule_index("TRV101")}\n'
        "        },\n"
        "        {\n"
        '          "level": "note",\n'
        '          "locations": [\n'
        "            {\n"
        '              "physicalLocation": {\n'
        '                "artifactLocation": {\n'
        '                  "uri": "tools/m%C3%A9t%C3%A9o.py",\n'
        '                  "uriBaseId": "%SRCROOT%"\n'
        "                },\n"
        '                "region": {\n'
        '                  "endColumn": 38,\n'
        '                  "endLine": 7,\n'
        '                  "startColumn": 29,\n'
        '                  "startLine": 7\n'
        "                }\n"
        "              }\n"
        "            }\n"
        "          ],\n"
        '          "message": {\n'
        '            "text": "`météo` returns `(\\"天気\\", x)`: a repr"\n'
        "          },\n"
        '          "ruleId": "TRV308",\n'
        f'          "ruleIndex": {_rule_index("TRV308")}\n'
        "        }\n"
        "      ],\n"
        '      "tool": {\n'
        '        "driver": {\n'
        '          "name": "toolret",\n'
        '          "rules": [\n'
    )
    tail = (
        "\n          ],\n"
        f'          "version": "{lint_rules.__version__}"\n'
        "        }\n"
        "      }\n"
        "    }\n"
        "  ],\n"
        '  "version": "2.1.0"\n'
        "}"
    )
    assert text.startswith(head)
    assert text.endswith(tail)
    rules = json.loads(text)["runs"][0]["tool"]["driver"]["rules"]
    assert json.loads("[" + text[len(head) : -len(tail)] + "]") == rules
    assert [rule["id"] for rule in rules] == sorted({d.code for d in BOTH})


@pytest.mark.parametrize("site", [None, "https://docs.example.org/toolret"])
def test_sarif_describes_the_rules_with_results_by_reference(
    site: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if site is None:
        monkeypatch.delenv("TOOLRET_DOCS_URL", raising=False)
    else:
        monkeypatch.setenv("TOOLRET_DOCS_URL", site)
    log = json.loads(show("sarif", BOTH))
    driver = log["runs"][0]["tool"]["driver"]
    rules = driver["rules"]
    by_code = {rule.code: rule for rule in all_rules()}
    assert [rule["id"] for rule in rules] == ["TRV101", "TRV308"]
    for descriptor in rules:
        rule = by_code[descriptor["id"]]
        expected = {
            "defaultConfiguration": {
                "enabled": rule.default_enabled(),
                "level": {"error": "error", "warning": "warning", "info": "note"}[
                    rule.severity.value
                ],
            },
            "fullDescription": {"text": rule.documentation()},
            "help": {
                "text": f"{rule.code} ({rule.name}): `toolret rule {rule.code}` prints its "
                "documentation"
            },
            "id": rule.code,
            "name": rule.name,
            "properties": {
                "id": rule.code,
                "kind": descriptor["properties"]["kind"],
                "name": rule.name,
                "problem.severity": {
                    "error": "error",
                    "warning": "warning",
                    "info": "recommendation",
                }[rule.severity.value],
            },
            "shortDescription": {"text": rule.message},
        }
        if site is not None:
            expected["helpUri"] = f"{site}/rules/{rule.code}/"
        assert descriptor == expected
    assert ("informationUri" in driver) is (site is not None)
    assert rules[1]["properties"]["kind"] == "OpenAI Agents SDK"
    assert rules[1]["defaultConfiguration"] == {"enabled": False, "level": "note"}
    assert json.loads(show("sarif", []))["runs"][0]["tool"]["driver"]["rules"] == []


def test_sarif_for_one_finding_is_small() -> None:
    # Every rule's page used to be embedded: 248 KB for one finding (ruff's: 6 KB).
    assert len(show("sarif", [REPR_RETURN]).encode()) < 8000


def test_sarif_fix_that_deletes_and_paths_outside_the_root() -> None:
    outside = replace(UNKNOWN_KEY, filename="/elsewhere/a b.py")
    log = json.loads(show("sarif", [UNKNOWN_KEY, outside]))
    inside_result, outside_result = log["runs"][0]["results"]
    assert inside_result["level"] == "warning"
    assert inside_result["fixes"] == [
        {
            "artifactChanges": [
                {
                    "artifactLocation": {
                        "uri": "functions/lookup_weather.py",
                        "uriBaseId": "%SRCROOT%",
                    },
                    "replacements": [
                        {
                            "deletedRegion": {
                                "endColumn": 41,
                                "endLine": 9,
                                "startColumn": 20,
                                "startLine": 9,
                            }
                        }
                    ],
                }
            ],
            "description": {"text": "Remove the `colour` key"},
            "properties": {"applicability": "unsafe"},
        }
    ]
    location = outside_result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "file:///elsewhere/a%20b.py"}


def test_sarif_unknown_codes_get_a_rule_too() -> None:
    foreign = replace(REPR_RETURN, code="XYZ001", name="foreign")
    run = json.loads(show("sarif", [foreign, foreign]))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == ["XYZ001"]
    assert [result["ruleIndex"] for result in run["results"]] == [len(rules) - 1] * 2


def _github_code_scanning_problems(log: dict[str, Any]) -> list[str]:
    """What GitHub's SARIF upload requires of a log (docs: "SARIF support for code
    scanning"), plus the conventions it relies on for good results."""
    problems = []
    if log.get("version") != "2.1.0":
        problems.append("version")
    if not str(log.get("$schema", "")).startswith("https://"):
        problems.append("$schema")
    for run in log.get("runs", []):
        driver = run.get("tool", {}).get("driver", {})
        if not driver.get("name"):
            problems.append("driver.name")
        rules = driver.get("rules", [])
        for rule in rules:
            for key in ("id", "shortDescription", "fullDescription", "help"):
                if key not in rule:
                    problems.append(f"rule {rule.get('id')}: {key}")
            for key in ("shortDescription", "fullDescription", "help"):
                if not isinstance(rule.get(key, {}).get("text"), str):
                    problems.append(f"rule {rule.get('id')}: {key}.text")
        if run.get("columnKind") != "unicodeCodePoints":
            problems.append("columnKind")
        for result in run.get("results", []):
            if not result.get("ruleId") or not result.get("message", {}).get("text"):
                problems.append("result ruleId / message.text")
            if rules[result["ruleIndex"]]["id"] != result["ruleId"]:
                problems.append("ruleIndex")
            if result.get("level") not in ("error", "warning", "note", "none"):
                problems.append("level")
            location = result["locations"][0]["physicalLocation"]
            artifact = location["artifactLocation"]
            if artifact.get("uriBaseId") != "%SRCROOT%" or artifact["uri"].startswith("/"):
                problems.append("relative uri with uriBaseId")
            region = location["region"]
            for key in ("startLine", "startColumn", "endLine", "endColumn"):
                if not isinstance(region.get(key), int) or region[key] < 1:
                    problems.append(f"region.{key}")
    return problems


def test_sarif_has_what_github_code_scanning_requires() -> None:
    foreign = replace(REPR_RETURN, code="XYZ001", name="foreign")
    log = json.loads(show("sarif", [*BOTH, UNKNOWN_KEY, foreign]))
    assert _github_code_scanning_problems(log) == []
    assert log["runs"][0]["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///project/"}}
    assert log["runs"][0]["tool"]["driver"]["version"] == lint_rules.__version__
    assert json.loads(show("sarif", []))["runs"][0]["results"] == []


@pytest.mark.skipif(not SCHEMA.is_file(), reason=f"no SARIF 2.1.0 schema at {SCHEMA}")
def test_sarif_validates_against_the_official_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)
    outside = replace(UNKNOWN_KEY, filename="/elsewhere/a b.py")
    foreign = replace(REPR_RETURN, code="XYZ001", name="foreign")
    for diagnostics in ([], [*BOTH, UNKNOWN_KEY, outside, foreign]):
        log = json.loads(show("sarif", diagnostics))
        errors = [error.message for error in validator.iter_errors(log)]
        assert errors == []
    # The schema does catch a broken log.
    broken = json.loads(show("sarif", BOTH))
    broken["runs"][0]["columnKind"] = "bytes"
    assert not validator.is_valid(broken)


# --- against the real ruff --------------------------------------------------------------

_SIBLING_RUFF = Path(sys.executable).with_name("ruff")
RUFF = shutil.which("ruff") or (str(_SIBLING_RUFF) if _SIBLING_RUFF.exists() else None)


def _ruff_version() -> str:
    if RUFF is None:
        return ""
    completed = subprocess.run([RUFF, "--version"], capture_output=True, text=True, check=False)
    return completed.stdout.strip()


RUFF_VERSION = _ruff_version()
needs_ruff_017 = pytest.mark.skipif(
    not RUFF_VERSION.startswith("ruff 0.17."),
    reason=f"these shapes are pinned to ruff 0.17; found {RUFF_VERSION or 'no ruff'}",
)

RUFF_FILES = {
    "a.py": (
        "import os\n"
        "import sys\n"
        "\n"
        "\n"
        "def météo():\n"
        "    x = 1\n"
        '    return "天気 <&> \\"q\\" — " + zz\n'
    ),
    "sub/b.py": "def f(x=[\n    1,\n]):\n    return x\n",
    "sub/météo.py": 's = "a–b"\n',
}
RUFF_ARGS = ("--select", "F401,F841,F821,B006,RUF001")


def _ruff(cwd: Path, fmt: str, *args: str, project_dir: str | None = None) -> str:
    assert RUFF is not None
    env = {key: value for key, value in os.environ.items() if key != "CI_PROJECT_DIR"}
    if project_dir is not None:
        env["CI_PROJECT_DIR"] = project_dir
    completed = subprocess.run(
        [RUFF, "check", "--no-cache", "--isolated", "--output-format", fmt, *args],
        cwd=cwd,
        capture_output=True,
        check=False,
        env=env,
    )
    return completed.stdout.decode("utf-8")


@pytest.fixture
def ruff_project(tmp_path: Path) -> tuple[Path, list[Diagnostic]]:
    """A small project with findings with and without fixes (one multi-line, with two
    edits), non-ASCII text and a non-ASCII file name; and toolret's view of them."""
    for name, text in RUFF_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    lines = _ruff(tmp_path, "json-lines", *RUFF_ARGS, ".").splitlines()
    diagnostics = [from_ruff(json.loads(line)) for line in lines]
    assert [d.code for d in diagnostics] == ["F401", "F401", "F841", "F821", "B006", "RUF001"]
    return tmp_path, diagnostics


@needs_ruff_017
@pytest.mark.parametrize("fmt", ["pylint", "azure", "gitlab"])
def test_same_text_as_ruff(fmt: str, ruff_project: tuple[Path, list[Diagnostic]]) -> None:
    cwd, diagnostics = ruff_project
    assert show(fmt, diagnostics, cwd) == _ruff(cwd, fmt, *RUFF_ARGS, ".")


@needs_ruff_017
def test_gitlab_paths_and_fingerprints_match_ruff_under_ci_project_dir(
    ruff_project: tuple[Path, list[Diagnostic]], monkeypatch: pytest.MonkeyPatch
) -> None:
    cwd, diagnostics = ruff_project
    project_dir = str(cwd / "sub")
    monkeypatch.setenv("CI_PROJECT_DIR", project_dir)
    ours = show("gitlab", diagnostics, cwd)
    assert ours == _ruff(cwd, "gitlab", *RUFF_ARGS, ".", project_dir=project_dir)
    assert json.loads(ours)[0]["location"]["path"] == "../a.py"


def _ruff_clean(cwd: Path, fmt: str) -> str:
    (cwd / "clean").mkdir()
    (cwd / "clean" / "c.py").write_text("x = 1\n", encoding="utf-8")
    return _ruff(cwd / "clean", fmt, *RUFF_ARGS, ".")


@needs_ruff_017
@pytest.mark.parametrize("fmt", ["pylint", "azure", "gitlab", "junit"])
def test_clean_run_as_ruff(fmt: str, tmp_path: Path) -> None:
    theirs = _ruff_clean(tmp_path, fmt)
    if fmt == "junit":
        theirs = theirs.replace('"org.ruff"', '"org.toolret"').replace('"ruff"', '"toolret"')
    assert show(fmt, [], tmp_path) == theirs


@needs_ruff_017
def test_junit_as_ruff(ruff_project: tuple[Path, list[Diagnostic]]) -> None:
    cwd, diagnostics = ruff_project
    theirs = _ruff(cwd, "junit", *RUFF_ARGS, ".")
    theirs = theirs.replace('"ruff"', '"toolret"').replace('"org.ruff', '"org.toolret')
    assert show("junit", diagnostics, cwd) == theirs


def _shape(value: Any) -> Any:
    """Keys at every level, and which values are null / objects / arrays / scalars."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(item) for item in value[:1]]
    return None if value is None else "scalar"


@needs_ruff_017
def test_rdjson_as_ruff_plus_a_severity(
    ruff_project: tuple[Path, list[Diagnostic]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLRET_DOCS_URL", "https://docs.example.org/toolret")  # urls, as ruff
    cwd, diagnostics = ruff_project
    text = show("rdjson", diagnostics, cwd)
    theirs_text = _ruff(cwd, "rdjson", *RUFF_ARGS, ".")
    assert not text.endswith("\n") and not theirs_text.endswith("\n")
    ours, theirs = json.loads(text), json.loads(theirs_text)
    assert list(ours) == list(theirs) == ["diagnostics", "severity", "source"]
    assert ours["severity"] == theirs["severity"] == "WARNING"
    assert _shape(ours["source"]) == _shape(theirs["source"])
    assert len(ours["diagnostics"]) == len(theirs["diagnostics"])
    for mine, their in zip(ours["diagnostics"], theirs["diagnostics"], strict=True):
        assert mine.pop("severity") == "ERROR"
        assert list(mine) == list(their)  # same keys, same (sorted) order
        assert mine["code"]["value"] == their["code"]["value"]
        mine["code"]["url"] = their["code"]["url"]
        assert mine == their
    # Key order and indentation are ruff's too: ruff's text re-serialised sorted is itself.
    assert json.dumps(theirs, indent=2, sort_keys=True, ensure_ascii=False) == theirs_text


@needs_ruff_017
def test_sarif_as_ruff_plus_what_github_needs(
    ruff_project: tuple[Path, list[Diagnostic]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLRET_DOCS_URL", "https://docs.example.org/toolret")  # URIs, as ruff
    cwd, diagnostics = ruff_project
    text = show("sarif", diagnostics, cwd)
    theirs_text = _ruff(cwd, "sarif", *RUFF_ARGS, ".")
    assert not text.endswith("\n") and not theirs_text.endswith("\n")
    assert json.dumps(json.loads(theirs_text), indent=2, sort_keys=True, ensure_ascii=False) == (
        theirs_text
    )
    ours, theirs = json.loads(text), json.loads(theirs_text)
    assert ours.keys() == theirs.keys()
    assert (ours["$schema"], ours["version"]) == (theirs["$schema"], theirs["version"])
    (run,), (their_run,) = ours["runs"], theirs["runs"]
    assert run.keys() == their_run.keys() | {"columnKind", "originalUriBaseIds"}
    assert run["tool"]["driver"].keys() == their_run["tool"]["driver"].keys()
    root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert root == cwd.as_uri() + "/"

    for mine, their in zip(run["results"], their_run["results"], strict=True):
        assert mine.keys() == their.keys() | {"ruleIndex"}
        for key in ("level", "message", "ruleId"):
            assert mine[key] == their[key]
        # ruff gives absolute file:// URIs, toolret relative ones: resolve both.
        for result in (mine, their):
            artifacts = [result["locations"][0]["physicalLocation"]["artifactLocation"]]
            for fix in result.get("fixes", []):
                fix.pop("properties", None)
                artifacts += [change["artifactLocation"] for change in fix["artifactChanges"]]
            for artifact in artifacts:
                if artifact.pop("uriBaseId", None) == "%SRCROOT%":
                    artifact["uri"] = root + artifact["uri"]
        mine.pop("ruleIndex")
        assert mine == their

    # Rules: both list those that fired; a descriptor has ruff's keys
    # (and `name`), down to `defaultConfiguration` and `properties`.
    # (The codes here are ruff's: the comparison takes a toolret rule's descriptor.)
    (their_rule, *_) = their_run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == sorted(
        {rule["id"] for rule in their_run["tool"]["driver"]["rules"]}
    )
    our_rule = json.loads(show("sarif", BOTH))["runs"][0]["tool"]["driver"]["rules"][0]
    assert our_rule.keys() == their_rule.keys() | {"name"}
    assert our_rule["defaultConfiguration"].keys() == their_rule["defaultConfiguration"].keys()
    assert our_rule["properties"].keys() == their_rule["properties"].keys()
    assert our_rule["help"].keys() == their_rule["help"].keys()
