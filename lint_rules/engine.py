"""The core every front end calls: source in, diagnostics out.

``check_source`` parses once, lets each framework with an enabled rule and a
signal in the file find its contexts (tool functions, agents, …), runs the
rules, converts findings to positioned diagnostics and drops what ``# noqa``
suppresses. It never prints, exits or reads files; facts from other files come
in through ``project``.

A file without any framework signal is never reported on — TRV001 included —
so that the runner's byte prefilter, which skips such files unparsed, changes
nothing.
"""

from __future__ import annotations

import ast
import codecs
import io
import re
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import libcst as cst

from lint_rules import prefilter
from lint_rules.analysis.module import (
    TOO_DEEP,
    ParsedModule,
    UnparsableSource,
    parse_module,
    source_line,
)
from lint_rules.analysis.noqa import UNUSED_FIX_TITLE, NoqaDirectives, UsageKey, ignores_all
from lint_rules.analysis.project import Project
from lint_rules.analysis.screen import (
    enabled_by_default,
    needed_by_any,
    python_tree_as_written,
    view_of,
)
from lint_rules.analysis.stack import call_deep
from lint_rules.catalog import DEFAULT_ENABLED, frameworks_enabled
from lint_rules.config import Settings
from lint_rules.frameworks import FRAMEWORK_PACKAGES
from lint_rules.model import Applicability, Diagnostic, Edit, Fix, Location
from lint_rules.notebook import Notebook, NotebookError, NotebookText, is_notebook
from lint_rules.prefilter import ANY_FRAMEWORK
from lint_rules.rules import (
    UNSUPPRESSIBLE,
    Finding,
    InternalError,
    ParseError,
    Rule,
    UnusedNoqa,
    VersionSyntax,
)

if TYPE_CHECKING:
    from lint_rules.frameworks.tool_function import ToolFunction


@dataclass(frozen=True)
class ToolFunctionReport:
    """One line of ``--show-tool-functions``: a function and why it is (not) a tool."""

    framework: str
    name: str
    row: int
    is_tool: bool
    reason: str


class Framework(Protocol):
    key: str
    title: str

    def has_signal(self, source: str, path: str, settings: Settings | None = None) -> bool: ...

    def contexts(self, module: ParsedModule, project: Project | None) -> Sequence[Any]: ...

    def describe(
        self, module: ParsedModule, project: Project | None
    ) -> Iterable[ToolFunctionReport]: ...

    def tool_functions(
        self, module: ParsedModule, project: Project | None
    ) -> Sequence[ToolFunction]:
        """The functions this framework calls as tools in the file (the TRV9xx rules check
        them); a family whose framework has none returns ``[]``."""
        ...


def frameworks() -> tuple[Framework, ...]:
    from lint_rules.frameworks import framework_modules

    return tuple(module.FRAMEWORK for module in framework_modules())


def framework(key: str) -> Framework:
    """Family ``key``'s framework object (its package imported on first use)."""
    from lint_rules.frameworks import framework_module

    return framework_module(key).FRAMEWORK  # type: ignore[no-any-return]


def _signal(key: str, source: str, path: str, settings: Settings | None) -> bool:
    """Family ``key``'s own signal in a file: the prefilter's, which every family's
    ``has_signal`` is (``tests/test_engine.py`` keeps them equal), so a family is imported
    only for the files it is signalled in."""
    extra = prefilter.extra_imports_of(key, settings)
    return prefilter.has_signal(key, source, path, extra_imports=extra)


def signalled_keys(
    keys: Iterable[str],
    source: str,
    path: str,
    project: Project | None,
    settings: Settings | None = None,
) -> list[str]:
    """The families of ``keys`` with a signal in the file, or a fact of another file that
    names it (whole-project mode)."""
    return [
        key
        for key in keys
        if _signal(key, source, path, settings)
        or (project is not None and project.names_file(key, path))
    ]


def _signalled(
    framework: Framework,
    source: str,
    path: str,
    project: Project | None,
    settings: Settings | None = None,
) -> bool:
    """The file's own signal, or a fact of another file that names it (whole-project mode)."""
    return bool(signalled_keys((framework.key,), source, path, project, settings))


def has_any_signal(source: str, path: str) -> bool:
    return _signal(ANY_FRAMEWORK, source, path, None)


def enabled_codes(settings: Settings, path: str) -> frozenset[str]:
    return settings.enabled_codes_for(Path(path), DEFAULT_ENABLED)


def _active(codes: frozenset[str]) -> list[str]:
    """The families with an enabled rule (every one with TRV005 on), in the order their
    rules run (``FRAMEWORK_PACKAGES``)."""
    enabled = set(frameworks_enabled(codes))
    return [key for key in FRAMEWORK_PACKAGES if key in enabled]


def check_source(
    source: str,
    path: str,
    settings: Settings | None = None,
    project: Project | None = None,
    *,
    parsed: ParsedModule | None = None,
    apply_noqa: bool = True,
    screen: bool | None = None,
    tree: ast.Module | None = None,
) -> list[Diagnostic]:
    """Check one file's text. ``path`` decides layout-based recognition and config.

    ``parsed``: the module already parsed from this very text (the runner parses
    once for the index facts and the check). ``apply_noqa=False``: every diagnostic,
    whatever ``# noqa`` comments say, and no TRV004 (the flake8 plugin: flake8
    applies its own ``# noqa``). ``screen``: whether a module no signalled family needs
    (``analysis.screen``, decided on CPython's tree) is left unparsed, with no
    diagnostics; ``None``: the default (on, unless ``TOOLRET_SCREEN=0``). ``tree``:
    ``ast.parse(source)``, when the caller built it already.
    """
    settings = settings if settings is not None else Settings()
    codes = enabled_codes(settings, path)
    # TRV005 reads the syntax of every file a framework signals (``catalog``).
    keys = signalled_keys(_active(codes), source, path, project, settings)
    if not keys:
        return []
    signalled = [framework(key) for key in keys]
    if parsed is not None and (parsed.source != source or parsed.path != path):
        parsed = None
    if parsed is None and (SCREEN if screen is None else screen) and _screened(source, codes):
        if tree is None:
            tree = python_tree_as_written(source)
        if tree is not None and not _needed(tree, source, path, settings, project, signalled):
            return []
    try:
        return _check(
            source, path, settings, project, parsed, codes, signalled, False, apply_noqa, tree
        )
    except RecursionError:
        # Deep-but-valid code: the whole check again, from a fresh parse, with room for
        # deep recursion (``analysis.stack``). Normal code never gets here.
        try:
            return call_deep(
                _check,
                source,
                path,
                settings,
                project,
                None,
                codes,
                signalled,
                True,
                apply_noqa,
                tree,
            )
        except RecursionError as error:
            if InternalError.code not in codes:
                return []
            return [_internal_error(path, "the analysis (nesting too deep)", error)]


def _check(
    source: str,
    path: str,
    settings: Settings,
    project: Project | None,
    parsed: ParsedModule | None,
    codes: frozenset[str],
    signalled: list[Framework],
    deep: bool,
    apply_noqa: bool = True,
    tree: ast.Module | None = None,
) -> list[Diagnostic]:
    """``check_source`` proper. Not ``deep``: a ``RecursionError`` anywhere is raised for
    the caller to run the check again with a deep stack; ``deep``: it is one TRV002.
    ``tree``: CPython's tree of ``source``, when the screen built it."""
    # A file that does not parse gets no TRV004: nothing in it was judged.
    screen = _filter_noqa if apply_noqa else _unfiltered
    try:
        module = parsed if parsed is not None else parse_module(source, path, python=tree)
    except UnparsableSource as error:
        if error.message == TOO_DEEP and not deep:
            raise RecursionError(TOO_DEEP) from None
        if ParseError.code not in codes:
            return []
        row, column = max(error.raw_line, 1), error.raw_column + 1
        return screen([_engine_diagnostic(ParseError, path, row, column, error.message)], source)
    except cst.ParserSyntaxError as error:
        if ParseError.code not in codes:
            return []
        return screen([_parse_error(source, path, error)], source)
    except Exception as error:  # parse_module raises nothing else; if it does, go on
        if InternalError.code not in codes:
            return []
        return [_internal_error(path, "parsing", error)]

    store = project.summaries if project is not None else None
    failures: list[BaseException] = []
    if store is None:
        diagnostics = _run_rules(module, path, settings, project, codes, signalled, deep, failures)
    else:
        module.use_summaries(store)
        with store.asking_for(path):
            diagnostics = _run_rules(
                module, path, settings, project, codes, signalled, deep, failures
            )
    if VersionSyntax.code in codes:
        diagnostics.extend(_version_syntax(module, settings, codes, deep, failures))
    diagnostics = _dedupe(diagnostics)
    if not apply_noqa:
        return sorted(_unfiltered(diagnostics, source), key=Diagnostic.sort_key)
    judge = UnusedNoqa.code in codes and not failures
    if not diagnostics and not judge:
        return diagnostics
    directives = NoqaDirectives.from_source(source)
    used: dict[UsageKey, set[str]] = {}
    kept = _filter_noqa(diagnostics, source, directives, used)
    if judge:
        kept.extend(_unused_noqa(directives, used, path, settings, codes))
    return sorted(kept, key=Diagnostic.sort_key)


SCREEN: bool = enabled_by_default()
"""Whether ``check_source`` screens modules by default (``TOOLRET_SCREEN=0``: never)."""


def _screened(source: str, codes: frozenset[str]) -> bool:
    """Whether a module may be left unparsed when no family needs it: never when a rule
    reports on any signalled module's text (TRV005, newer syntax), nor with TRV004 on a
    text holding a ``noqa`` comment (which may then be unused)."""
    if VersionSyntax.code in codes:
        return False
    return UnusedNoqa.code not in codes or "noqa" not in source.lower()


def _needed(
    tree: ast.Module,
    source: str,
    path: str,
    settings: Settings,
    project: Project | None,
    signalled: list[Framework],
) -> bool:
    """Whether a family of the module needs it parsed (``analysis.screen``).

    The families asked are the signalled ones, and — when the TRV9xx family is among
    them, whose rules check every family's tool functions — every family with a signal
    in the file, enabled or not. A family made relevant by a fact of another file
    (``Project.names_file``) always needs it: what that fact points at is not in the
    module's names."""
    if project is not None and any(project.names_file(key, path) for key in FRAMEWORK_PACKAGES):
        return True
    asked = [f for f in signalled if f.key != ANY_FRAMEWORK]
    if len(asked) < len(signalled):
        keys = {f.key for f in asked}
        asked += [
            framework(key)
            for key in FRAMEWORK_PACKAGES
            if key != ANY_FRAMEWORK and key not in keys and _signal(key, source, path, settings)
        ]
    return needed_by_any(view_of(tree, path), asked)


def _run_rules(
    module: ParsedModule,
    path: str,
    settings: Settings,
    project: Project | None,
    codes: frozenset[str],
    signalled: list[Framework],
    deep: bool,
    failures: list[BaseException],
) -> list[Diagnostic]:
    """Every signalled family's contexts, and its enabled rules' findings on them;
    ``failures`` gets each crash, reported as a TRV002 or not."""
    diagnostics: list[Diagnostic] = []
    for family in signalled:
        rules = [r for r in _rules_of(family.key) if r.code in codes]
        if not rules:  # signalled for TRV005 alone: no contexts to find
            continue
        try:
            contexts = family.contexts(module, project)
        except Exception as error:  # a recognition bug must not stop the run
            _shallow_recursion(error, deep)
            failures.append(error)
            diagnostics.append(_internal_error(path, f"{family.title} recognition", error))
            continue
        for rule_class in rules:
            rule = rule_class()
            try:
                findings = [f for context in contexts for f in rule.check(context, settings)]
            except Exception as error:
                _shallow_recursion(error, deep)
                failures.append(error)
                if InternalError.code in codes:
                    diagnostics.append(_internal_error(path, f"{rule.code} ({rule.name})", error))
                continue
            diagnostics.extend(_positioned(rule, findings, module, codes, deep, failures))
    return diagnostics


def _version_syntax(
    module: ParsedModule,
    settings: Settings,
    codes: frozenset[str],
    deep: bool,
    failures: list[BaseException],
) -> list[Diagnostic]:
    """TRV005: syntax newer than the target version (``analysis.versions``), beside the
    rules' findings (never instead of them); a failure is one TRV002, as a rule's."""
    from lint_rules.analysis.versions import newer_syntax

    try:
        found = newer_syntax(module, settings.python_version)
    except Exception as error:
        _shallow_recursion(error, deep)
        failures.append(error)
        if InternalError.code not in codes:
            return []
        return [_internal_error(module.path, f"{VersionSyntax.code} ({VersionSyntax.name})", error)]
    return [
        Diagnostic(
            code=VersionSyntax.code,
            name=VersionSyntax.name,
            message=item.message,
            severity=VersionSyntax.severity,
            filename=module.path,
            location=Location(row=item.row, column=item.column),
            end_location=Location(row=item.end_row, column=item.end_column),
        )
        for item in found
    ]


def check_bytes(
    data: bytes,
    path: str,
    settings: Settings | None = None,
    project: Project | None = None,
    *,
    screen: bool | None = None,
) -> list[Diagnostic]:
    """Decode a file as Python does (PEP 263, BOM) and check it; a Jupyter notebook
    (``*.ipynb``) is checked as the module of its code cells (``check_notebook``).
    ``screen``: as ``check_source``'s."""
    settings = settings if settings is not None else Settings()
    if is_notebook(path):
        return check_notebook(data, path, settings, project, screen=screen)
    try:
        source = decode_source(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        text = data.decode("latin-1")
        codes = enabled_codes(settings, path)
        if ParseError.code not in codes or not signalled_keys(
            _active(codes), text, path, project, settings
        ):
            return []
        reason = error.msg if isinstance(error, SyntaxError) else str(error)
        return [_engine_diagnostic(ParseError, path, 1, 1, f"Cannot decode file: {reason}")]
    return check_source(source, path, settings, project, screen=screen)


def check_notebook(
    data: bytes,
    path: str,
    settings: Settings | None = None,
    project: Project | None = None,
    *,
    parsed: ParsedModule | None = None,
    screen: bool | None = None,
    tree: ast.Module | None = None,
) -> list[Diagnostic]:
    """Check a notebook: the module of its code cells, with every diagnostic placed in
    its cell (``Diagnostic.cell``, rows relative to the cell). A notebook that cannot
    be read gets one TRV001 (when it has a framework's signal), a cell that does not
    parse one TRV001 at that cell; the other cells are checked. ``parsed``, ``screen``
    and ``tree`` are ``check_source``'s, for that module."""
    settings = settings if settings is not None else Settings()
    codes = enabled_codes(settings, path)
    try:
        notebook = Notebook.from_bytes(data)
    except NotebookError as error:
        text = data.decode("utf-8", "replace")
        if ParseError.code not in codes or not signalled_keys(
            _active(codes), text, path, project, settings
        ):
            return []
        return [_engine_diagnostic(ParseError, path, 1, 1, f"Cannot read notebook: {error}")]
    if not notebook.is_python:
        return []
    source = notebook.python_source
    found = [
        notebook.to_cells(d)
        for d in check_source(
            source, path, settings, project, parsed=parsed, screen=screen, tree=tree
        )
    ]
    broken = [c for c in notebook.skipped if c.reason == "syntax"]
    if broken and ParseError.code in codes:
        whole = "".join(c.source for c in notebook.cells) + "".join(
            _cell_text(notebook, c.number) for c in broken
        )
        if signalled_keys(_active(codes), whole, path, project, settings):
            for cell in broken:
                syntax = _engine_diagnostic(
                    ParseError, path, cell.line, cell.column, f"SyntaxError: {cell.message}"
                )
                found.append(replace(syntax, cell=cell.number))
    return sorted(found, key=Diagnostic.sort_key)


def _cell_text(notebook: Notebook, number: int) -> str:
    raw = notebook.data["cells"][number - 1].get("source", "")
    return raw if isinstance(raw, str) else "".join(raw)


def source_of(data: bytes, path: str) -> str:
    """The text a file's diagnostics and fixes refer to: the decoded source, or for a
    notebook the module of its code cells (a ``NotebookText``, which knows its cells).
    Raises what ``decode_source`` raises, and ``NotebookError``."""
    if is_notebook(path):
        return NotebookText(Notebook.from_bytes(data))
    return decode_source(data)


def decode_source(data: bytes) -> str:
    """Bytes → text the way CPython reads a source file; BOM removed, newlines kept."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    if encoding == "utf-8-sig" or data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :] if data.startswith(codecs.BOM_UTF8) else data
        encoding = "utf-8"
    text = data.decode(encoding)
    if encoding != "utf-8":  # a strict UTF-8 decode never yields a lone surrogate
        surrogate = _SURROGATE.search(text)
        if surrogate is not None:  # CPython: SyntaxError, the text cannot be UTF-8
            raise SyntaxError(
                f"encoding {encoding!r} decodes it to a lone surrogate "
                f"U+{ord(surrogate.group()):04X}, which is not text"
            )
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")


def describe_tool_functions(
    source: str, path: str, settings: Settings | None = None, project: Project | None = None
) -> list[ToolFunctionReport]:
    """Every recognised tool function (and PolyAI helper) of a file, for the CLI."""
    reports: list[ToolFunctionReport] = []
    keys = signalled_keys(FRAMEWORK_PACKAGES, source, path, project, settings)
    if not keys:
        return reports
    signalled = [framework(key) for key in keys]
    try:
        module = parse_module(source, path)
    except Exception:  # reported by the check (TRV001/TRV002)
        return reports
    if project is not None:
        project.attach(module)  # what the check would know of the other modules
    for family in signalled:
        try:
            reports.extend(family.describe(module, project))
        except Exception:  # a recognition that fails on this file: the check reports it
            continue
    return sorted(reports, key=lambda r: (r.row, r.name))


# ------------------------------------------------------------------ internals

_RULES_BY_FRAMEWORK: dict[str, tuple[type[Rule], ...]] = {}


def _rules_of(key: str) -> tuple[type[Rule], ...]:
    """Family ``key``'s rules, by code (its package alone is imported)."""
    rules = _RULES_BY_FRAMEWORK.get(key)
    if rules is None:
        from lint_rules.frameworks import framework_module

        rules = tuple(sorted(framework_module(key).RULES, key=lambda r: r.code))
        _RULES_BY_FRAMEWORK[key] = rules
    return rules


def _shallow_recursion(error: Exception, deep: bool) -> None:
    """Out of recursion on the ordinary stack: the whole check is done again, deep."""
    if isinstance(error, RecursionError) and not deep:
        raise error


def _positioned(
    rule: Rule,
    findings: list[Finding],
    module: ParsedModule,
    codes: frozenset[str],
    deep: bool,
    failures: list[BaseException],
) -> list[Diagnostic]:
    """The findings as diagnostics; one TRV002 for the rule's findings whose position
    (or fix) could not be computed, instead of the run's end."""
    diagnostics: list[Diagnostic] = []
    failure: Exception | None = None
    for finding in findings:
        try:
            diagnostics.append(_to_diagnostic(rule, finding, module))
        except Exception as error:
            _shallow_recursion(error, deep)
            failure = failure or error
    if failure is not None:
        failures.append(failure)
    if failure is not None and InternalError.code in codes:
        what = f"the positions of {rule.code} ({rule.name})"
        diagnostics.append(_internal_error(module.path, what, failure))
    return diagnostics


def _to_diagnostic(rule: Rule, finding: Finding, module: ParsedModule) -> Diagnostic:
    start, end = _span(module, finding.node)
    fix = None
    if finding.fix is not None and all(
        not isinstance(node, cst.BaseExpression) or module.stands_where_reported(node)
        for node in {id(spec.node): spec.node for spec in finding.fix.edits}.values()
    ):  # each edited node once (``str(`` before and ``)`` after one node are two edits)
        edits = []
        for spec in finding.fix.edits:
            edit_start, edit_end = _span(module, spec.node)
            if spec.mode == "before":
                edit_end = edit_start
            elif spec.mode == "after":
                edit_start = edit_end
            edits.append(Edit(content=spec.content, location=edit_start, end_location=edit_end))
        fix = Fix(
            message=finding.fix.title,
            applicability=finding.fix.applicability,
            edits=tuple(edits),
        )
    return Diagnostic(
        code=rule.code,
        name=rule.name,
        message=finding.message,
        severity=rule.severity,
        filename=module.path,
        location=start,
        end_location=end,
        fix=fix,
    )


def _span(module: ParsedModule, node: cst.CSTNode) -> tuple[Location, Location]:
    code_range = module.range_of(node)
    return (
        Location(row=code_range.start.line, column=code_range.start.column + 1),
        Location(row=code_range.end.line, column=code_range.end.column + 1),
    )


def _dedupe(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen: set[tuple[str, int, int, str]] = set()
    unique = []
    for diagnostic in diagnostics:
        key = (
            diagnostic.code,
            diagnostic.location.row,
            diagnostic.location.column,
            diagnostic.message,
        )
        if key not in seen:
            seen.add(key)
            unique.append(diagnostic)
    return unique


def _filter_noqa(
    diagnostics: list[Diagnostic],
    source: str,
    directives: NoqaDirectives | None = None,
    used: dict[UsageKey, set[str]] | None = None,
) -> list[Diagnostic]:
    """The diagnostics no ``# noqa`` silences, each with its ``noqa_line``; ``used`` gets
    the codes each directive silenced (``--ignore-noqa`` or not, as ruff's RUF100)."""
    if not diagnostics:
        return diagnostics
    if directives is None:
        directives = NoqaDirectives.from_source(source)
    ignore_all = ignores_all()
    kept = []
    for diagnostic in diagnostics:
        row = diagnostic.location.row
        # A rule's diagnostic starts where its node's first token does; a parse
        # error's position may be anywhere (inside an unterminated string), and so
        # may newer syntax's (a quote or a comment inside a multi-line f-string).
        token_start = diagnostic.code not in (ParseError.code, VersionSyntax.code)
        if diagnostic.code not in UNSUPPRESSIBLE:
            key = directives.suppressor(diagnostic.code, row, token_start=token_start)
            if key is not None:
                if used is not None:
                    used.setdefault(key, set()).add(diagnostic.code)
                if not ignore_all:
                    continue
        noqa_row = directives.noqa_row(row, token_start=token_start)
        if noqa_row != row:
            diagnostic = replace(diagnostic, noqa_line=noqa_row)
        kept.append(diagnostic)
    return kept


def _unfiltered(diagnostics: list[Diagnostic], source: str) -> list[Diagnostic]:
    """Every diagnostic, none silenced (flake8 applies its own ``# noqa``)."""
    del source
    return diagnostics


def _unused_noqa(
    directives: NoqaDirectives,
    used: dict[UsageKey, set[str]],
    path: str,
    settings: Settings,
    codes: frozenset[str],
) -> list[Diagnostic]:
    """TRV004: the directives (or codes of them) that silenced nothing (``NoqaDirectives
    .unused``), each with the safe fix that removes what is unused."""
    found = directives.unused(
        used,
        own_code=UnusedNoqa.code,
        is_enabled=lambda code: any(enabled.startswith(code) for enabled in codes),
        is_known=_KNOWN.__contains__,
        is_own=lambda code: _letters(code) in _OWN_LETTERS,
        external=settings.external,
    )
    return [
        Diagnostic(
            code=UnusedNoqa.code,
            name=UnusedNoqa.name,
            message=item.message,
            severity=UnusedNoqa.severity,
            filename=path,
            location=Location(row=item.row, column=item.column),
            end_location=Location(row=item.row, column=item.end_column),
            fix=Fix(
                message=UNUSED_FIX_TITLE,
                applicability=Applicability.SAFE,
                edits=(
                    Edit(
                        content=item.content,
                        location=Location(*item.edit_start),
                        end_location=Location(*item.edit_end),
                    ),
                ),
            ),
        )
        for item in found
    ]


def _letters(code: str) -> str:
    """A code's letters (``TRV`` of ``TRV101``): codes are letters, then digits."""
    return code.rstrip("0123456789")


_OWN_LETTERS = frozenset(_letters(code) for code in DEFAULT_ENABLED)
"""The letters of toolret's codes (``TRV``): a code written with them is toolret's."""

_KNOWN = frozenset(
    code[:length]
    for code in DEFAULT_ENABLED
    for length in range(len(_letters(code)), len(code) + 1)
)
"""Every code of the catalog and every prefix of one that keeps all its letters (``TRV``,
``TRV1``, ``TRV10``, ``TRV101``): what a directive may list of toolret's."""


def _engine_diagnostic(
    rule: type[Rule], path: str, row: int, column: int, message: str, end_column: int | None = None
) -> Diagnostic:
    return Diagnostic(
        code=rule.code,
        name=rule.name,
        message=message,
        severity=rule.severity,
        filename=path,
        location=Location(row=row, column=column),
        end_location=Location(row=row, column=end_column if end_column is not None else column),
    )


def _parse_error(source: str, path: str, error: cst.ParserSyntaxError) -> Diagnostic:
    """TRV001 where CPython's parser puts the error (LibCST is often off by a line)."""
    try:
        compile(source, path or "<unknown>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as python_error:
        row = python_error.lineno or 1
        column = _error_column(source, row, python_error.offset or 1)
        message = f"SyntaxError: {python_error.msg}"
        return _engine_diagnostic(ParseError, path, row, max(column, 1), message)
    except (ValueError, RecursionError, MemoryError):
        pass
    # CPython accepts what LibCST cannot parse (new syntax): use LibCST's position.
    row, column = error.raw_line, error.raw_column + 1
    return _engine_diagnostic(
        ParseError, path, max(row, 1), max(column, 1), f"SyntaxError: {error.message}"
    )


def _error_column(source: str, row: int, offset: int) -> int:
    """CPython's 1-based error column, inside the line (or just past its end). Some
    tokenizer errors (``unexpected EOF`` after a backslash) give a UTF-8 byte offset
    rather than a character one: past the line's characters, it is read as bytes."""
    text = source_line(source, row)
    if offset - 1 > len(text):
        encoded = text.encode("utf-8", "surrogatepass")
        offset = len(encoded[: offset - 1].decode("utf-8", "ignore")) + 1
    return max(1, min(offset, len(text) + 1))


def _internal_error(path: str, what: str, error: BaseException) -> Diagnostic:
    message = (
        f"Internal error in {what}: {type(error).__name__}: {error}. "
        "Please report it to toolret's maintainers with the file (or a reduced copy)"
    )
    return _engine_diagnostic(InternalError, path, 1, 1, message)
