"""``ToolretFixCommand``: ``toolret fix`` as a LibCST codemod, one file at a time.

A thin front end: for each file LibCST hands over, the engine checks the text
(with the file's ``[tool.toolret]`` settings and the PolyAI prompts and YAML
beside it — directory facts, read as the flake8 plugin reads them) and
:func:`lint_rules.fixes.fix_source` applies the fixes, pass after pass, with
the same re-parse and conflict handling as ``toolret fix``. Facts from other
Python files (whole-project mode) are not available to a codemod, which sees
one file at a time: a fix that depends on one is not applied here.

LibCST reads and writes the file itself (encoding, BOM and line endings
round-trip through its parser; the write is not atomic and not guarded
against concurrent edits — ``toolret fix`` is). Run it with ``--no-format``
(and ``formatter: []`` in ``.libcst.codemod.yaml``, so that forgetting the
flag fails instead of running black over every fixed file).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import libcst as cst
from libcst.codemod import CodemodCommand, CodemodContext, SkipFile

from lint_rules.analysis.project import Project
from lint_rules.analysis.summaries import SummaryStore
from lint_rules.config import Settings, SettingsResolver
from lint_rules.discovery import discover, is_gitignored
from lint_rules.engine import check_source
from lint_rules.fixes import describe_fix_problems, fix_source
from lint_rules.model import Diagnostic

# Per process (LibCST runs files in a process pool): the PolyAI directory facts and
# the config lookups are read once per project, as in the flake8 plugin.
_PROJECT: Project | None = None
"""The codemod reads the project's summaries like ``toolret check`` (it is run on a
project's files, not one file as flake8 sees them)."""
_RESOLVERS: dict[tuple[tuple[str, ...], tuple[str, ...]], SettingsResolver] = {}


def _project() -> Project:
    global _PROJECT
    if _PROJECT is None:
        _PROJECT = Project(summaries=SummaryStore())
    return _PROJECT


def _resolver(select: tuple[str, ...], ignore: tuple[str, ...]) -> SettingsResolver:
    key = (select, ignore)
    resolver = _RESOLVERS.get(key)
    if resolver is None:

        def overrides(settings: Settings) -> Settings:
            return settings.with_overrides(select=list(select) or None, ignore=list(ignore))

        resolver = _RESOLVERS[key] = SettingsResolver(overrides=overrides)
    return resolver


def _codes(values: list[str] | None) -> tuple[str, ...]:
    return tuple(
        part.strip() for value in values or () for part in value.split(",") if part.strip()
    )


class ToolretFixCommand(CodemodCommand):
    DESCRIPTION = (
        "Apply toolret's safe fixes (e.g. `return 3` -> `return str(3)` in tool functions); "
        "--unsafe-fixes adds the unsafe ones."
    )

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument(
            "--unsafe-fixes",
            dest="unsafe_fixes",
            action="store_true",
            default=False,
            help="Apply unsafe fixes too (key and keyword renames); review them.",
        )
        arg_parser.add_argument(
            "--select",
            dest="select",
            action="append",
            default=None,
            help="Rule codes or prefixes to fix (replaces the config's selection).",
        )
        arg_parser.add_argument(
            "--ignore",
            dest="ignore",
            action="append",
            default=None,
            help="Rule codes or prefixes not to fix.",
        )

    def __init__(
        self,
        context: CodemodContext,
        unsafe_fixes: bool = False,
        select: list[str] | None = None,
        ignore: list[str] | None = None,
    ) -> None:
        super().__init__(context)
        self.unsafe_fixes = unsafe_fixes
        self.select = _codes(select)
        self.ignore = _codes(ignore)

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        filename = self.context.filename
        path = os.path.abspath(filename) if filename else "-"
        resolver = _resolver(self.select, self.ignore)
        if path != "-" and not any(
            discover([Path(path)], settings_for=resolver, force_exclude=True)
        ):
            raise SkipFile("excluded by the toolret configuration")
        settings = resolver(Path(path) if path != "-" else Path.cwd())
        if path != "-" and settings.respect_gitignore and is_gitignored(Path(path)):
            # libcst.tool walks directories without reading .gitignore; toolret fix skips
            # these files, and so does its codemod.
            raise SkipFile("ignored by .gitignore (respect-gitignore)")
        project = _project()

        def check(text: str) -> list[Diagnostic]:
            return check_source(text, path, settings, project)

        source = tree.code
        result = fix_source(source, check, unsafe=self.unsafe_fixes)
        for problem in describe_fix_problems(result):
            self.warn(problem.describe(filename or "-"))
        if not result.changed:
            return tree
        return cst.parse_module(result.source, config=tree.config_for_parsing)
