"""The JSON schema of toolret's configuration, generated from the settings model.

``toolret.schema.json`` at the top of the repository is this module's output, as
ruff ships ``ruff.schema.json``: TOML-aware editors (Even Better TOML / taplo) use
it to complete and check a ``toolret.toml`` / ``.toolret.toml`` (or the
``[tool.toolret]`` table, through a taplo rule). Regenerate it after changing
``config.Settings``::

    python -m lint_rules.schema            # writes toolret.schema.json
    python -m lint_rules.schema --check    # exit 1 if it is out of date

``tests/test_config_keys.py`` fails when the file in the repository is not current.
The schema describes what a file may hold; ``config`` still checks more (that a
selector selects a rule, that a glob parses, ``required-version``'s match).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from lint_rules import config

__all__ = ["SCHEMA_FILE", "json_schema", "main", "render"]

SCHEMA_FILE = Path(__file__).resolve().parent.parent / "toolret.schema.json"
"""Where the schema is kept: the top of the repository (beside ``pyproject.toml``)."""

_DESCRIPTIONS = {
    "select": "The rules to run (codes, prefixes or `ALL`), replacing the default set.",
    "extend-select": "Rules to run in addition to `select` (or the default set).",
    "ignore": "Rules not to run.",
    "fixable": "The rules whose fixes `--fix` applies (default: `ALL`).",
    "unfixable": "Rules whose fixes are never applied.",
    "extend-fixable": "Rules made fixable in addition to `fixable`.",
    "per-file-ignores": "Glob pattern -> rules not to run on the files it matches "
    "(`!pattern`: on the files it does not match).",
    "extend-per-file-ignores": "More per-file ignores, added to `per-file-ignores`.",
    "exclude": "Files and directories not to check; replaces the default list.",
    "extend-exclude": "Files and directories not to check, in addition to `exclude`.",
    "respect-gitignore": "Skip what `.gitignore` files and `.git/info/exclude` ignore.",
    "force-exclude": "Apply the excludes to paths named on the command line too.",
}


def _field_docstrings(model: type[Any]) -> dict[str, str]:
    """Field name -> the docstring written under it in the class body."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(model)))
    body = tree.body[0].body  # type: ignore[attr-defined]
    found: dict[str, str] = {}
    for statement, following in itertools.pairwise(body):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            found[statement.target.id] = " ".join(inspect.cleandoc(following.value.value).split())
    return found


def _without_null(prop: dict[str, Any]) -> dict[str, Any]:
    """A key's schema without pydantic's ``null`` (TOML has none: leave the key out)."""
    prop = {key: value for key, value in prop.items() if key != "title"}
    if prop.get("default", 0) is None:
        del prop["default"]
    options = prop.get("anyOf")
    if options:
        kept = [option for option in options if option != {"type": "null"}]
        del prop["anyOf"]
        if len(kept) == 1:
            prop = {**kept[0], **prop}
        else:
            prop["anyOf"] = kept
    return prop


def json_schema() -> dict[str, Any]:
    """The schema of a ``toolret.toml`` (the keys of ``[tool.toolret]``), draft 2020-12."""
    from pydantic import TypeAdapter

    schema: dict[str, Any] = TypeAdapter(config.Settings).json_schema(by_alias=True)
    defs: dict[str, Any] = schema.setdefault("$defs", {})
    models = [
        config.Settings,
        config.PolyAISettings,
        config.BrowserUseSettings,
        config.OpenAIAgentsSettings,
        config.OpenAIChatSettings,
    ]
    for model in models:
        target = schema if model is config.Settings else defs[model.__name__]
        target.pop("title", None)
        docs = _field_docstrings(model)
        properties: dict[str, Any] = target["properties"]
        for item in dataclasses.fields(model):
            key = item.name.replace("_", "-")
            if item.name in config._INTERNAL_FIELDS:
                properties.pop(key, None)
                continue
            prop = _without_null(properties[key])
            properties[key] = prop
            text = docs.get(item.name) or _DESCRIPTIONS.get(key)
            if text:
                prop["description"] = text.replace("``", "`")
        target["additionalProperties"] = False
        if model.__doc__:
            target["description"] = (
                inspect.cleandoc(model.__doc__).splitlines()[0].replace("``", "`")
            )
    top = schema["properties"]
    for prop in top.values():
        if "$ref" in prop:  # pydantic writes the table's default with Python names
            prop.pop("default", None)
    top["output-format"]["enum"] = list(config.OUTPUT_FORMATS)
    top["target-version"]["enum"] = list(config.TARGET_VERSIONS)
    top["extension"]["additionalProperties"]["enum"] = list(config.EXTENSION_LANGUAGES)
    lint_keys = {key: top[key] for key in config._LINT_KEYS}
    schema["properties"]["lint"] = {
        "description": "ruff's current layout: the rule-selection keys and the framework "
        "tables may go here instead of the top level (a key in both is an error).",
        "type": "object",
        "properties": lint_keys,
        "additionalProperties": False,
    }
    schema["properties"] = dict(sorted(schema["properties"].items()))
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "toolret",
        "description": "toolret's configuration: a `toolret.toml` / `.toolret.toml`, or the "
        "`[tool.toolret]` table of a `pyproject.toml`. Generated by "
        "`python -m lint_rules.schema`.",
        **{key: value for key, value in schema.items() if key not in ("title", "description")},
    }


def render() -> str:
    """The schema file's text (sorted keys, two-space indent, a final newline)."""
    return json.dumps(json_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write ``toolret.schema.json``; ``--check``: exit 1 if it is not current instead."""
    args = sys.argv[1:] if argv is None else argv
    text = render()
    current = SCHEMA_FILE.read_text(encoding="utf-8") if SCHEMA_FILE.exists() else None
    if "--check" in args:
        if current != text:
            print(f"{SCHEMA_FILE.name} is out of date: run `python -m lint_rules.schema`")
            return 1
        return 0
    if current != text:
        SCHEMA_FILE.write_text(text, encoding="utf-8")
        print(f"wrote {SCHEMA_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
