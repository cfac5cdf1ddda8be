"""What a rule is, and the registry of every rule.

A rule is one class: its docstring is its documentation (ruff's sections), its
``invalid`` / ``valid`` examples sit beside its logic and become both its tests
(``tests/test_rule_examples.py`` collects them all) and the Example / Use
instead sections of its documentation page. A rule sees one *context* its
framework built (a recognised tool function, an ``Agent(...)`` call, …) and
yields :class:`Finding` values that point at LibCST nodes; the engine turns
them into positioned :class:`~lint_rules.model.Diagnostic` values only when
something is reported.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import libcst as cst

from lint_rules.analysis.names import means_builtin, means_module
from lint_rules.model import Applicability, Severity

if TYPE_CHECKING:
    from lint_rules.analysis.module import ParsedModule


@dataclass(frozen=True)
class EditSpec:
    """A text edit relative to a node: replace it, or insert before / after it."""

    node: cst.CSTNode
    content: str
    mode: Literal["replace", "before", "after"] = "replace"


@dataclass(frozen=True)
class FixSpec:
    title: str
    applicability: Applicability
    edits: tuple[EditSpec, ...]


@dataclass(frozen=True)
class Finding:
    """A rule's report: the node it points at, the message, and an optional fix."""

    node: cst.CSTNode
    message: str
    fix: FixSpec | None = None


@dataclass(frozen=True)
class Example:
    """A snippet a rule must (``invalid``) or must not (``valid``) flag.

    ``path`` is where the snippet lives (PolyAI recognises tool functions by
    file layout); ``files`` are other files of the same project (the PolyAI
    prompts and YAML that say which functions are tools), relative to the
    project root that ``path`` is relative to. ``fixed`` is the source after
    the rule's fixes (safe and unsafe) are applied.
    """

    code: str
    path: str = "example.py"
    fixed: str | None = None
    files: Mapping[str, str] = field(default_factory=dict)
    title: str = ""


class Rule:
    """Base of every rule. Subclasses set the class attributes and ``check``."""

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    framework: ClassVar[str]
    """Key of the framework whose contexts this rule checks (``polyai``, …)."""
    fix_applicability: ClassVar[Applicability | None] = None
    message: ClassVar[str] = ""
    """A one-line summary, used by ``toolret rules`` and SARIF's shortDescription."""
    invalid: ClassVar[tuple[Example, ...]] = ()
    valid: ClassVar[tuple[Example, ...]] = ()

    @classmethod
    def default_enabled(cls) -> bool:
        return cls.severity is not Severity.INFO

    @classmethod
    def documentation(cls) -> str:
        return inspect.cleandoc(cls.__doc__ or "")

    def check(self, context: Any, settings: Any) -> Iterator[Finding]:
        raise NotImplementedError


class EngineRule(Rule):
    """Codes the engine itself reports (TRV001-TRV005); they have no ``check``."""

    framework = "engine"


class ParseError(EngineRule):
    """
    ## What it does
    Reports a file that could hold tool functions (it mentions a framework) but
    could not be read, decoded or parsed.

    ## Why is this bad?
    toolret cannot check a file it cannot parse, and neither can the framework
    load it. The diagnostic points where CPython's own parser places the error
    (line 1 for a file that cannot be decoded). Files that mention no
    framework are not parsed at all and never get this diagnostic: syntax
    errors there are flake8's `E999` and ruff's business.

    CPython's parser has the last word where no Python version would accept the
    code (bad indentation, brackets nested past its limit of 200, code too deep
    for its compiler), even where LibCST would parse it. A file whose
    expressions LibCST could only parse in minutes (a left-recursive chain of
    thousands of `+` or `[0]`) is reported here too, at the chain, instead of
    being parsed. So is a file of more than 2 MiB of code (2,097,152
    characters, blank and comment-only lines not counted): its tree and
    analyses could take gigabytes of memory (about a thousand bytes per
    character of dense code), and such files are generated data, not tool
    code. Exclude it, or split it.

    No `# noqa` silences it and `--add-noqa` never writes one for it, as ruff
    never silences a syntax error: a directive would hide a file toolret could
    not check from every later run. Fix the file, exclude it, or deselect the
    code.
    """

    code = "TRV001"
    name = "parse-error"
    severity = Severity.ERROR
    message = "A file that could hold tool functions could not be parsed"


class InternalError(EngineRule):
    """
    ## What it does
    Reports that a rule crashed on this file. The other rules and files are
    still checked; the message names the rule.

    ## Why is this bad?
    A crash means toolret could not check the file completely. Please report
    it to toolret's maintainers with the file (or a reduced version of it).
    The flake8 plugin also uses this
    code to report an invalid `[tool.toolret]` configuration, since flake8
    plugins cannot stop the run. Like TRV001, no `# noqa` silences it.
    """

    code = "TRV002"
    name = "internal-error"
    severity = Severity.ERROR
    message = "A rule crashed on this file"


class IoError(EngineRule):
    """
    ## What it does
    Reports a path toolret was asked to check, or a file of the project it
    needed to read, that could not be read: it does not exist, permissions
    forbid it, a symbolic link is dangling or loops, or it is not a regular
    file at all (a named pipe, a device, a socket), or a project text file
    (a PolyAI prompt or YAML file, a `.gitignore`) is larger than toolret's
    read limit. The message is the operating system's reason.

    ## Why is this bad?
    toolret cannot check what it cannot read, and a path that silently
    produced no diagnostics would look clean. Like ruff's `E902`, the
    diagnostic is reported at line 1 of the path and every other file of the
    run is still checked; the exit code is 1, not the usage error's 2.
    toolret reads only regular files: a named pipe or a link to `/dev/zero`
    would otherwise block the run forever or read until memory runs out.
    Deselecting `TRV003` turns these diagnostics into warnings on stderr, as
    ruff does for `E902`. Like TRV001, no `# noqa` silences it.
    """

    code = "TRV003"
    name = "io-error"
    severity = Severity.ERROR
    message = "A path to check, or a project file toolret reads, could not be read"


class UnusedNoqa(EngineRule):
    """
    ## What it does
    Reports a `# noqa` directive, or a code in one, that suppressed nothing in this
    run, as ruff's `RUF100` (unused-noqa) does, with its messages:

    - ``Unused `noqa` directive (unused: `TRV101`)``: the rule is enabled but
      reported nothing that the directive silenced;
    - ``(non-enabled: `TRV107`)``: the rule is not enabled for the file (off by
      default, deselected, or in `per-file-ignores`), so the code silences nothing;
    - ``(duplicated: `TRV101`)``: the directive lists the code twice;
    - ``(unknown: `TRV110`)``: a code of toolret's own namespace (`TRV`) that names no
      rule, such as a typo;
    - ``Unused blanket `noqa` directive``: a bare `# noqa` that silenced nothing.

    File directives (`# ruff: noqa: TRV101`, `# toolret: noqa: TRV101`) are judged
    the same way. Other tools' codes (`E501`, `F401`, ...) are never reported, as
    ruff's `RUF100` never reports codes it does not know: toolret cannot tell whether
    another tool uses them. Codes under a prefix listed in `external` (`external =
    ["TRV9"]`, or `[tool.toolret.lint] external`) are never reported either, used or
    not: list there the codes another run must keep.

    ## Why is this bad?
    A directive that silences nothing hides nothing today, but it will hide the next
    finding on its line without anyone noticing, and it misleads readers into
    thinking the line has a problem. The directives `--add-noqa` writes when a team
    adopts toolret pile up this way once the code they silenced is fixed.

    Off by default, as ruff's `RUF100`: select it (`--extend-select TRV004`, or
    `extend-select = ["TRV004"]`) to find the directives left behind. It judges a
    file only when the check of the file was complete: a file that does not parse
    (`TRV001`), or on which a rule crashed (`TRV002`, whether reported or not), gets
    no `TRV004`, and neither does a file toolret does not check (one that mentions
    no framework). `--ignore-noqa` does not change what it reports (as in ruff).

    A directive that lists `TRV004` (`# noqa: TRV004, TRV101`) is not judged, and a
    file directive for `TRV004` (`# toolret: noqa: TRV004`) turns it off for the file,
    as `# noqa: RUF100` does in ruff; `per-file-ignores` works too. Under flake8
    (which applies `# noqa` itself) the plugin never reports it.

    ## Example
    ```python
    from fastmcp import FastMCP

    mcp = FastMCP("orders")


    @mcp.tool
    def status(order: str) -> str:
        return order  # noqa: TRV601
    ```

    ## Use instead
    ```python
    @mcp.tool
    def status(order: str) -> str:
        return order
    ```

    ## Fix
    Safe, as ruff's: the unused codes are removed from the directive (`# noqa:
    TRV101, TRV601` becomes `# noqa: TRV101`), or the whole directive when none is
    left, with the spaces before it (and its line, when the directive was all the
    line held). Unlike ruff, text after the codes (a reason) is kept, as a comment of
    its own: `x = f()  # noqa: TRV601 legacy` becomes `x = f()  # legacy`.
    """

    code = "TRV004"
    name = "unused-noqa"
    severity = Severity.WARNING
    fix_applicability = Applicability.SAFE
    message = "A `# noqa` directive that suppressed nothing"

    @classmethod
    def default_enabled(cls) -> bool:
        return False


class VersionSyntax(EngineRule):
    """
    ## What it does
    Reports syntax that needs a newer Python than the project's target version,
    as ruff's version-related syntax errors do, with ruff's messages and at
    ruff's places:

    - f-strings that only PEP 701 allows (Python 3.12): a quote of the
      enclosing f-string reused inside a replacement field
      (`f"{row["name"]}"`), a backslash or a comment inside one, a line break
      inside a replacement field of a single-quoted f-string;
    - `type X = ...` and type parameter lists (`def f[T]`, `class C[T]`,
      Python 3.12); a type parameter's default (`class Box[T = str]`, PEP 696,
      Python 3.13);
    - `except*` (Python 3.11), `match` (Python 3.10), parenthesized context
      managers (`with (open(a) as f, open(b) as g):`, Python 3.9);
    - t-strings and `except A, B:` without parentheses (Python 3.14), with a
      LibCST recent enough to read them.

    The target is `target-version` (`py37` … `py315`, ruff's values) in the
    configuration or `--target-version` on the command line; without either,
    the lower bound of `[project] requires-python` of the `pyproject.toml` that
    holds the settings (`">=3.10"` is `py310`) or, where it has none, of Poetry's
    `[tool.poetry.dependencies] python` (`"^3.13"` is `py313`; ruff reads only
    `requires-python`), else ruff's default, `py311`.

    ## Why is this bad?
    Python older than the syntax cannot even compile the file: on the
    project's oldest supported interpreter the module fails to import, with
    every tool in it. toolret reads every file with the newest grammar LibCST
    knows, whatever Python runs it, so such a file is still checked: this
    diagnostic never replaces the file's other findings and is never a
    `TRV001`.

    Off by default, as it is no finding about tool return values: select it
    (`--select TRV005`, or `extend-select = ["TRV005"]`) where ruff does not
    already report these errors. Like every rule it reports only in files
    toolret checks (those that mention a framework), and `# noqa: TRV005`,
    `per-file-ignores` and `--add-noqa` work on it.

    ## Example
    With `target-version = "py311"`:

    ```python
    from fastmcp import FastMCP

    mcp = FastMCP("orders")


    @mcp.tool
    def status(order: dict[str, str]) -> str:
        return f"{order["status"]}"
    ```

    ## Use instead
    ```python
    @mcp.tool
    def status(order: dict[str, str]) -> str:
        return f"{order['status']}"
    ```

    Or raise `target-version` (or `requires-python`) to the Python the project
    really supports.
    """

    code = "TRV005"
    name = "version-syntax"
    severity = Severity.ERROR
    message = "Syntax newer than the target Python version"

    @classmethod
    def default_enabled(cls) -> bool:
        return False


UNSUPPRESSIBLE: frozenset[str] = frozenset({ParseError.code, InternalError.code, IoError.code})
"""Codes no ``# noqa`` silences and ``--add-noqa`` never writes (a file that does not
parse, a crash, a path that cannot be read): as ruff's syntax errors, a directive would
hide a file toolret did not check from every later run."""


def all_rules() -> tuple[type[Rule], ...]:
    """Every rule, engine codes first, by prefix (``catalog.CODE_PREFIXES``: ``TRV``, then
    the families after TRV9xx in the order they came), then by code."""
    from lint_rules.catalog import CODE_PREFIXES
    from lint_rules.frameworks import framework_modules

    rules: list[type[Rule]] = [ParseError, InternalError, IoError, UnusedNoqa, VersionSyntax]
    for module in framework_modules():
        rules.extend(module.RULES)
    order = {prefix: index for index, prefix in enumerate(CODE_PREFIXES)}
    return tuple(sorted(rules, key=lambda r: (order[r.code.rstrip("0123456789")], r.code)))


_BY_CODE: dict[str, type[Rule]] | None = None


def rules_by_code() -> Mapping[str, type[Rule]]:
    global _BY_CODE
    if _BY_CODE is None:
        _BY_CODE = {rule.code: rule for rule in all_rules()}
    return _BY_CODE


def get_rule(code_or_name: str) -> type[Rule] | None:
    by_code = rules_by_code()
    rule = by_code.get(code_or_name.upper())
    if rule is not None:
        return rule
    for candidate in by_code.values():
        if candidate.name == code_or_name:
            return candidate
    return None


def wrap_in_str(expr: cst.BaseExpression, module: ParsedModule) -> FixSpec | None:
    """The project's signature fix: ``x`` → ``str(x)``, the user's own parentheses kept;
    ``None`` where ``str`` at ``expr`` is not the builtin (``str = None``, a parameter
    ``str``, a star import: :func:`~lint_rules.analysis.names.means_builtin`).

    Two insertions around the expression (whose range excludes its own
    parentheses), so ``return(3)`` becomes ``return(str(3))`` and comments or
    line breaks inside the expression are untouched. Wrapping a whole
    expression in a call never changes its precedence.
    """
    if not means_builtin(module, expr, "str"):
        return None
    return FixSpec(
        title="Wrap in `str()`",
        applicability=Applicability.SAFE,
        edits=(EditSpec(expr, "str(", "before"), EditSpec(expr, ")", "after")),
    )


def wrap_in_json_dumps(expr: cst.BaseExpression, module: ParsedModule) -> FixSpec | None:
    """``x`` → ``json.dumps(x)`` (unsafe: ``json.dumps`` raises on values it cannot
    encode, where the original failed otherwise); offered only where ``json`` at
    ``expr`` is the module of the file's own ``import json`` and nothing else binds
    it: it never adds an import."""
    if not means_module(module, expr, "json"):
        return None
    return FixSpec(
        title="Wrap in `json.dumps()`",
        applicability=Applicability.UNSAFE,
        edits=(EditSpec(expr, "json.dumps(", "before"), EditSpec(expr, ")", "after")),
    )


def replace_string_literal(node: cst.BaseExpression, new_value: str, title: str) -> FixSpec | None:
    """Replace a simple string literal's text, keeping its prefix and quote style."""
    if not isinstance(node, cst.SimpleString):
        return None
    prefix, quote = node.prefix, node.quote
    if "\\" in new_value or quote in new_value:
        return None
    return FixSpec(
        title=title,
        applicability=Applicability.UNSAFE,
        edits=(EditSpec(node, f"{prefix}{quote}{new_value}{quote}"),),
    )
