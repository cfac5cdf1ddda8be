"""SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

The shape follows ruff 0.17's ``sarif`` output (keys sorted at every level, two-space
indent, no trailing newline; ``results[]`` with ``ruleId``, ``level``, ``message.text``,
one location and, when the diagnostic has a fix of any applicability, ``fixes[]``; each
replacement's ``insertedContent`` left out for a pure deletion), with what GitHub code
scanning needs and ruff lacks:

- ``driver.rules[]`` lists the rules that have results (as ruff does), sorted by code,
  each with ``id``, ``name``, ``shortDescription`` (the rule's summary),
  ``fullDescription`` (its documentation, as ruff), ``help`` by reference (a line naming
  the rule and ``toolret rule CODE``; its page's ``helpUri`` when the documentation
  site is configured, ``TOOLRET_DOCS_URL``; ``driver.informationUri`` likewise),
  ``defaultConfiguration`` (``enabled``, ``level``) and ruff's ``properties`` (``id``,
  ``kind``, ``name``, ``problem.severity``); results carry a ``ruleIndex`` into that
  list. Every rule's page used to be embedded: a one-finding log was 248 KB;
- artifact URIs are relative to the working directory (the repository root in CI) with
  ``uriBaseId: "%SRCROOT%"``, which ``run.originalUriBaseIds`` maps to the directory's
  ``file://`` URI; a file outside it keeps an absolute ``file://`` URI;
- ``run.columnKind`` is ``unicodeCodePoints`` (SARIF's default is UTF-16 code units),
  which is what toolret's columns count.

Levels: error / warning / info → ``error`` / ``warning`` / ``note``; GitHub's
``problem.severity`` property: ``error`` / ``warning`` / ``recommendation``. Each fix
records its applicability (``safe``, ``unsafe``, ``display-only``) in ``properties``.

A notebook diagnostic: ruff 0.17 does nothing special (its regions are rows of the
concatenated code cells, which no viewer can map back). toolret gives the cell-relative
region, starts ``message.text`` with the place (``cell 3:4:12: message``) and leaves out
``fixes``, whose regions would address the wrong lines of the ``.ipynb`` artifact.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import lint_rules
from lint_rules.formats._base import RenderOptions, cell_prefix, relative_path
from lint_rules.model import Diagnostic, Location, Severity, docs_base, rule_url

if TYPE_CHECKING:
    from lint_rules.rules import Rule

NAME = "sarif"
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
TOOL_NAME = "toolret"
SRCROOT = "%SRCROOT%"

LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
PROBLEM_SEVERITY = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "recommendation",
}


def artifact_location(filename: str, options: RenderOptions) -> dict[str, str]:
    """A URI relative to ``%SRCROOT%`` (the cwd), or an absolute one outside it."""
    path = PurePath(relative_path(filename, options.cwd))
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": quote(path.as_posix()), "uriBaseId": SRCROOT}


def region(start: Location, end: Location) -> dict[str, int]:
    return {
        "endColumn": end.column,
        "endLine": end.row,
        "startColumn": start.column,
        "startLine": start.row,
    }


def _help(code: str, name: str) -> dict[str, str]:
    return {"text": f"{code} ({name}): `toolret rule {code}` prints its documentation"}


def _with_uri(descriptor: dict[str, Any], code: str) -> dict[str, Any]:
    url = rule_url(code)
    if url is not None:
        descriptor["helpUri"] = url
    return descriptor


def _rule_descriptor(rule: type[Rule]) -> dict[str, Any]:
    from lint_rules.docs import FRAMEWORK_TITLES

    return _with_uri(
        {
            "defaultConfiguration": {
                "enabled": rule.default_enabled(),
                "level": LEVEL[rule.severity],
            },
            "fullDescription": {"text": rule.documentation() or rule.message},
            "help": _help(rule.code, rule.name),
            "id": rule.code,
            "name": rule.name,
            "properties": {
                "id": rule.code,
                "kind": FRAMEWORK_TITLES.get(rule.framework, rule.framework),
                "name": rule.name,
                "problem.severity": PROBLEM_SEVERITY[rule.severity],
            },
            "shortDescription": {"text": rule.message},
        },
        rule.code,
    )


def _unknown_rule_descriptor(diagnostic: Diagnostic) -> dict[str, Any]:
    """For a code that is not a toolret rule: what the diagnostic itself tells."""
    return {
        "defaultConfiguration": {"enabled": True, "level": LEVEL[diagnostic.severity]},
        "fullDescription": {"text": diagnostic.message},
        "help": {"text": f"{diagnostic.code} ({diagnostic.name})"},
        "id": diagnostic.code,
        "name": diagnostic.name,
        "properties": {
            "id": diagnostic.code,
            "name": diagnostic.name,
            "problem.severity": PROBLEM_SEVERITY[diagnostic.severity],
        },
        "shortDescription": {"text": diagnostic.message},
    }


def rule_descriptors(diagnostics: Sequence[Diagnostic]) -> list[dict[str, Any]]:
    """The rules the diagnostics use, by code (a code no rule has: from the diagnostic)."""
    from lint_rules.rules import rules_by_code

    known = rules_by_code()
    descriptors = []
    for code in sorted({diagnostic.code for diagnostic in diagnostics}):
        rule = known.get(code)
        if rule is not None:
            descriptors.append(_rule_descriptor(rule))
        else:
            first = next(d for d in diagnostics if d.code == code)
            descriptors.append(_unknown_rule_descriptor(first))
    return descriptors


def _fixes(diagnostic: Diagnostic, location: dict[str, str]) -> list[dict[str, Any]]:
    fix = diagnostic.fix
    if fix is None:
        return []
    replacements: list[dict[str, Any]] = []
    for edit in fix.edits:
        replacement: dict[str, Any] = {"deletedRegion": region(edit.location, edit.end_location)}
        if edit.content:
            replacement["insertedContent"] = {"text": edit.content}
        replacements.append(replacement)
    return [
        {
            "artifactChanges": [{"artifactLocation": location, "replacements": replacements}],
            "description": {"text": fix.message},
            "properties": {"applicability": fix.applicability.value},
        }
    ]


def result(diagnostic: Diagnostic, rule_index: int, options: RenderOptions) -> dict[str, Any]:
    location = artifact_location(diagnostic.filename, options)
    value: dict[str, Any] = {
        "level": LEVEL[diagnostic.severity],
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": location,
                    "region": region(diagnostic.location, diagnostic.end_location),
                }
            }
        ],
        "message": {"text": cell_prefix(diagnostic) + diagnostic.message},
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
    }
    fixes = _fixes(diagnostic, location) if diagnostic.cell is None else []
    if fixes:
        value["fixes"] = fixes
    return value


def sarif_log(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> dict[str, Any]:
    """The SARIF log as plain JSON values."""
    rules = rule_descriptors(diagnostics)
    index = {descriptor["id"]: position for position, descriptor in enumerate(rules)}
    root = options.cwd.as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA_URI,
        "runs": [
            {
                "columnKind": "unicodeCodePoints",
                "originalUriBaseIds": {SRCROOT: {"uri": root}},
                "results": [
                    result(diagnostic, index[diagnostic.code], options)
                    for diagnostic in diagnostics
                ],
                "tool": {"driver": _driver(rules)},
            }
        ],
        "version": SARIF_VERSION,
    }


def _driver(rules: list[dict[str, Any]]) -> dict[str, Any]:
    driver: dict[str, Any] = {
        "name": TOOL_NAME,
        "rules": rules,
        "version": lint_rules.__version__,
    }
    base = docs_base()
    if base is not None:
        driver["informationUri"] = base + "/"
    return driver


def render(diagnostics: Sequence[Diagnostic], options: RenderOptions) -> str:
    return json.dumps(sarif_log(diagnostics, options), indent=2, sort_keys=True, ensure_ascii=False)
