"""The ``toolret`` command: ``check``, ``rule``, ``rules``.

Thin by design: flags become :class:`~lint_rules.config.Settings` overrides,
the runner checks, a format renders. Exit codes are ruff's: 0 clean, 1
diagnostics remain (TRV001/TRV002 included), 2 the run itself failed (usage,
configuration, a missing path).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

import click

from lint_rules import __version__
from lint_rules.config import ConfigError, Settings, SettingsResolver
from lint_rules.discovery import DiscoveryError

EXIT_CLEAN = 0
EXIT_DIAGNOSTICS = 1
EXIT_ERROR = 2

CHECK_FORMATS = ("full", "concise", "json", "json-lines")


def _split_codes(values: Sequence[str]) -> list[str]:
    codes: list[str] = []
    for value in values:
        codes.extend(part.strip() for part in value.split(",") if part.strip())
    return codes


def _fail(message: str) -> NoReturn:
    click.echo(message if message.startswith("toolret") else f"toolret: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="toolret")
def main() -> None:
    """toolret: a linter for the return values of LLM tool functions."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--select", multiple=True, help="Rule codes or prefixes to enable (replaces the config's)."
)
@click.option(
    "--extend-select", multiple=True, help="Rule codes or prefixes to enable in addition."
)
@click.option("--ignore", multiple=True, help="Rule codes or prefixes to disable.")
@click.option(
    "--output-format",
    type=click.Choice(CHECK_FORMATS),
    default=None,
    envvar="TOOLRET_OUTPUT_FORMAT",
    help="Output format (ruff's names and shapes). Default: full.",
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Use this config file for every path.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when diagnostics are reported.")
@click.option("--statistics", is_flag=True, help="Show counts per rule instead of diagnostics.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the cache.")
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path, file_okay=False),
    envvar="TOOLRET_CACHE_DIR",
    help="Where the cache lives (default: .toolret_cache in the working directory).",
)
@click.option(
    "--unsafe-fixes/--no-unsafe-fixes", default=False, help="Count unsafe fixes as fixable."
)
@click.option(
    "--stdin-filename",
    type=click.Path(path_type=Path),
    help="The name of the file read from stdin (`-`).",
)
@click.option("--force-exclude", is_flag=True, help="Apply excludes to paths given explicitly too.")
@click.option(
    "--respect-gitignore/--no-respect-gitignore", default=None, help="Honour .gitignore files."
)
@click.option("--exclude", multiple=True, help="Glob patterns to exclude (replaces the config's).")
@click.option("--extend-exclude", multiple=True, help="Glob patterns to exclude in addition.")
@click.option("--show-files", is_flag=True, help="List the files that would be checked, then exit.")
@click.option(
    "--show-tool-functions", is_flag=True, help="List each recognised tool function and why."
)
def check(
    paths: tuple[Path, ...],
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    output_format: str | None,
    config_file: Path | None,
    exit_zero: bool,
    statistics: bool,
    no_cache: bool,
    cache_dir: Path | None,
    unsafe_fixes: bool,
    stdin_filename: Path | None,
    force_exclude: bool,
    respect_gitignore: bool | None,
    exclude: tuple[str, ...],
    extend_exclude: tuple[str, ...],
    show_files: bool,
    show_tool_functions: bool,
) -> None:
    """Check PATHS (default: the current directory) for wrong tool return values."""
    from lint_rules import formats, runner
    from lint_rules.analysis.project import Project
    from lint_rules.catalog import DEFAULT_ENABLED
    from lint_rules.formats import FixableApplicability

    fmt = output_format or "full"
    select_codes = _split_codes(select) or None
    extend_codes = _split_codes(extend_select)
    ignore_codes = _split_codes(ignore)

    def overrides(settings: Settings) -> Settings:
        return settings.with_overrides(
            select=select_codes,
            extend_select=extend_codes,
            ignore=ignore_codes,
            exclude=list(exclude) if exclude else None,
            extend_exclude=list(extend_exclude),
            respect_gitignore=respect_gitignore,
            force_exclude=True if force_exclude else None,
        )

    try:
        resolver = SettingsResolver(config_file=config_file, overrides=overrides)
        unknown = resolver(Path.cwd()).unknown_selectors(DEFAULT_ENABLED)
    except ConfigError as error:
        _fail(str(error))
    for selector in unknown:
        click.echo(f"warning: `{selector}` selects no rule", err=True)

    project = Project(revalidate=False)
    reading_stdin = paths == (Path("-"),)
    try:
        if reading_stdin:
            data = sys.stdin.buffer.read()
            file_result = runner.check_stdin(
                data, str(stdin_filename) if stdin_filename else None, resolver, project
            )
            result = runner.RunResult(
                files=[file_result] if file_result.diagnostics else [], checked=1
            )
        else:
            targets = list(paths) or [Path(".")]
            if show_files:
                for path in runner.iter_files(targets, resolver, force_exclude=force_exclude):
                    click.echo(str(Path(path).absolute()))
                sys.exit(EXIT_CLEAN)
            if show_tool_functions:
                _show_tool_functions(targets, resolver, project, force_exclude)
                sys.exit(EXIT_CLEAN)
            cache = None
            if not no_cache:
                from lint_rules.cache import CACHE_DIR_NAME, ResultCache

                cache = ResultCache(cache_dir or Path.cwd() / CACHE_DIR_NAME)
            result = runner.run(
                targets, resolver, force_exclude=force_exclude, project=project, cache=cache
            )
    except (ConfigError, DiscoveryError) as error:
        _fail(str(error))

    diagnostics = result.diagnostics
    applicability: FixableApplicability = "unsafe" if unsafe_fixes else "safe"
    cwd = Path.cwd()
    if statistics:
        text = formats.render_statistics(diagnostics, fmt=fmt, fixable_applicability=applicability)
        click.echo(text, nl=False)
    else:
        body = formats.render(
            fmt, diagnostics, sources=result.sources, cwd=cwd, fixable_applicability=applicability
        )
        click.echo(body, nl=False)
        summary = formats.summary(fmt, diagnostics, fixable_applicability=applicability)
        if summary:
            click.echo(summary, nl=False)
    sys.exit(EXIT_CLEAN if exit_zero or not diagnostics else EXIT_DIAGNOSTICS)


def _show_tool_functions(
    targets: list[Path], resolver: SettingsResolver, project: object, force_exclude: bool
) -> None:
    from lint_rules import runner
    from lint_rules.analysis.project import Project
    from lint_rules.engine import decode_source, describe_tool_functions

    assert isinstance(project, Project)
    cwd = Path.cwd()
    for path in runner.iter_files(targets, resolver, force_exclude=force_exclude):
        try:
            source = decode_source(path.read_bytes())
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            continue
        absolute = path.absolute()
        for report in describe_tool_functions(source, str(absolute), resolver(path), project):
            shown = _relative(absolute, cwd)
            status = "tool" if report.is_tool else "not a tool"
            label = f"{report.name} [{report.framework}, {status}]"
            click.echo(f"{shown}:{report.row}: {label} {report.reason}")


def _relative(path: Path, cwd: Path) -> str:
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)


@main.command()
@click.argument("code")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
def rule(code: str, output_format: str) -> None:
    """Show the documentation of a rule (by code or name)."""
    from lint_rules.docs import rule_page
    from lint_rules.rules import get_rule

    found = get_rule(code)
    if found is None:
        _fail(f"unknown rule `{code}`")
    if output_format == "json":
        click.echo(json.dumps(_rule_json(found), indent=2))
    else:
        click.echo(rule_page(found), nl=False)


@main.command()
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
def rules(output_format: str) -> None:
    """List every rule."""
    from lint_rules.rules import all_rules

    if output_format == "json":
        click.echo(json.dumps([_rule_json(r) for r in all_rules()], indent=2))
        return
    for r in all_rules():
        fix = " [*]" if r.fix_applicability is not None else ""
        default = "" if r.default_enabled() else " (off by default)"
        click.echo(f"{r.code} {r.name}{fix}: {r.message}{default}")


def _rule_json(r: type[object]) -> dict[str, object]:
    from lint_rules.docs import FRAMEWORK_TITLES, rule_page
    from lint_rules.model import rule_url
    from lint_rules.rules import Rule

    assert isinstance(r, type) and issubclass(r, Rule)
    return {
        "code": r.code,
        "name": r.name,
        "linter": FRAMEWORK_TITLES.get(r.framework, r.framework),
        "summary": r.message,
        "severity": r.severity.value,
        "fix": r.fix_applicability.value if r.fix_applicability else None,
        "preview": False,
        "default": r.default_enabled(),
        "url": rule_url(r.code),
        "explanation": rule_page(r),
    }
