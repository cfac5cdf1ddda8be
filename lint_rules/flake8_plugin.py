"""The flake8 entry point ``TRV``.

flake8 owns rule selection (``--select``/``--ignore``/``--extend-ignore``),
``per-file-ignores`` and ``# noqa`` here; toolret contributes its framework
settings from the closest ``[tool.toolret]`` and the PolyAI directory facts.
The plugin yields every finding, whatever the file's ``# noqa`` comments say
(``check_source(apply_noqa=False)``): flake8 applies ``# noqa`` with its own
rules, and ``flake8 --disable-noqa`` shows everything. Hence no TRV004
(unused-noqa) here either: which directive suppressed what is flake8's to know.
The rules that are off by default in the CLI (``catalog.DEFAULT_ENABLED``: the info
rules, ``TRV005``, the opt-in warnings) are declared default-ignored
(``extend_default_ignore``), so ``--select TRV`` or ``--extend-select TRV107`` turns
them on as with the CLI.

flake8 checks one file at a time (possibly in worker processes), so only
same-file Python facts are used; PolyAI prompt/YAML references are read per
process and cached by project root and file stats. An exception escaping
``run()`` would abort all of flake8, so every failure — including an invalid
``[tool.toolret]`` table, or a selector in it that selects no rule — becomes one
TRV002 diagnostic at line 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lint_rules import __version__
from lint_rules.catalog import DEFAULT_ENABLED

Result = tuple[int, int, str, type[Any]]

_NEVER_REPORTED = frozenset({"TRV004"})  # unused-noqa: flake8 applies the directives, not toolret
_OFF_BY_DEFAULT = tuple(
    code for code, enabled in DEFAULT_ENABLED.items() if not enabled and code not in _NEVER_REPORTED
)


class PrefixChecker:
    """The entry point of each code prefix after ``TRV`` (``TRR``, …): it reports nothing
    (``ToolretChecker`` yields every code), and its registered name makes flake8 select
    the prefix's codes by default."""

    name = "toolret-codes"
    version = __version__

    def __init__(self, tree: object) -> None:
        del tree

    def run(self) -> Iterator[Result]:
        return iter(())


class ToolretChecker:
    name = "toolret"
    version = __version__

    _project: Any = None  # per-process cache of directory facts (see module docstring)
    _resolver: Any = None

    def __init__(self, tree: object, lines: list[str], filename: str) -> None:
        del tree  # accepted so flake8 runs this as a tree plugin; LibCST parses the lines
        self.lines = lines
        self.filename = filename

    @classmethod
    def add_options(cls, option_manager: Any) -> None:
        option_manager.extend_default_ignore(list(_OFF_BY_DEFAULT))

    @classmethod
    def parse_options(cls, options: Any) -> None:
        del options  # selection is flake8's; settings come from [tool.toolret]

    def run(self) -> Iterator[Result]:
        try:
            results = list(self._check())
        except Exception as error:  # never let flake8's whole run abort
            results = [
                (
                    1,
                    0,
                    f"TRV002 Internal error in toolret: {type(error).__name__}: {error}",
                    type(self),
                )
            ]
        yield from results

    def _check(self) -> Iterator[Result]:
        from lint_rules.analysis.project import Project
        from lint_rules.config import ConfigError, Settings, SettingsResolver
        from lint_rules.engine import check_source

        cls = type(self)
        if cls._project is None:
            cls._project = Project()
            cls._resolver = SettingsResolver()
        path = self.filename if self.filename not in ("-", "stdin") else ""
        try:
            settings = cls._resolver(Path(path) if path else Path.cwd())
        except ConfigError as error:
            # flake8 shows one line: the file, line and column without the source excerpt.
            # An unknown selector is reported too, though flake8 owns selection here: the
            # same file makes ``toolret check`` fail, and a typo should not pass in one front end.
            yield (1, 0, f"TRV002 {error.summary}", type(self))
            return
        # Every rule on: flake8 decides what is shown.
        settings = Settings(
            select=("ALL",),
            target_version=settings.target_version,
            polyai=settings.polyai,
            browser_use=settings.browser_use,
            openai_agents=settings.openai_agents,
            openai_chat=settings.openai_chat,
        )
        source = "".join(self.lines)
        name = str(Path(path).absolute()) if path else "-"
        found = check_source(source, name, settings, cls._project, apply_noqa=False)
        for diagnostic in found:
            text = f"{diagnostic.code} {diagnostic.message}"
            yield (diagnostic.location.row, diagnostic.location.column - 1, text, type(self))
