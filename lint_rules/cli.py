"""The ``toolret`` command: ``check``, ``fix``, ``rule``, ``rules``, ``lsp`` (``server``),
``version``, ``clean``.

Thin by design: flags become :class:`~lint_rules.config.Settings` overrides,
the runner checks, :mod:`lint_rules.fixes` fixes (``check --fix``, ``fix``,
``--diff``), a format renders. Exit codes are ruff's: 0 clean (or everything
fixed), 1 diagnostics remain (TRV001/TRV002/TRV003 included - a missing or
unreadable path is a ``TRV003``, as ruff's ``E902``; with
``--exit-non-zero-on-fix`` also when something was fixed; with ``--diff``
when something would be fixed), 2 the run itself failed (usage,
configuration, a fixed file that could not be written).
Nothing ever prompts: the commands run unattended under pre-commit and CI.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from lint_rules import __version__
from lint_rules.config import OUTPUT_FORMATS, ConfigError, Settings, SettingsResolver
from lint_rules.discovery import DiscoveryError
from lint_rules.model import Diagnostic

if TYPE_CHECKING:
    from lint_rules.analysis.project import Project
    from lint_rules.fixes import FileFix
    from lint_rules.formats import FixableApplicability
    from lint_rules.runner import FileResult, RunResult

EXIT_CLEAN = 0
EXIT_DIAGNOSTICS = 1
EXIT_ERROR = 2

CHECK_FORMATS = OUTPUT_FORMATS
"""``--output-format`` values (ruff's); equal to ``formats.FORMATS`` (tested), listed in
``config`` so that building the command line does not import the formats."""


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


_SHARED_OPTIONS = (
    click.argument("paths", nargs=-1, type=click.Path(path_type=Path)),
    click.option(
        "--select", multiple=True, help="Rule codes or prefixes to enable (replaces the config's)."
    ),
    click.option(
        "--extend-select", multiple=True, help="Rule codes or prefixes to enable in addition."
    ),
    click.option("--ignore", multiple=True, help="Rule codes or prefixes to disable."),
    click.option(
        "--fixable",
        multiple=True,
        metavar="<RULE_CODE>",
        help="List of rule codes to treat as eligible for fix. Only applicable when fix itself "
        "is enabled (e.g., via `--fix`).",
    ),
    click.option(
        "--unfixable",
        multiple=True,
        metavar="<RULE_CODE>",
        help="List of rule codes to treat as ineligible for fix. Only applicable when fix "
        "itself is enabled (e.g., via `--fix`).",
    ),
    click.option(
        "--extend-fixable",
        multiple=True,
        metavar="<RULE_CODE>",
        help="Like --fixable, but adds additional rule codes on top of those already specified.",
    ),
    click.option(
        "--per-file-ignores",
        multiple=True,
        metavar="<PER_FILE_IGNORES>",
        help="List of mappings from file pattern to code to exclude.",
    ),
    click.option(
        "--extend-per-file-ignores",
        multiple=True,
        metavar="<EXTEND_PER_FILE_IGNORES>",
        help="Like `--per-file-ignores`, but adds additional ignores on top of those already "
        "specified.",
    ),
    click.option(
        "--output-format",
        type=click.Choice(CHECK_FORMATS),
        default=None,
        envvar="TOOLRET_OUTPUT_FORMAT",
        help="Output format (ruff's names and shapes). Default: full.",
    ),
    click.option(
        "--output-file",
        "-o",
        type=click.Path(path_type=Path, dir_okay=False),
        envvar="TOOLRET_OUTPUT_FILE",
        help="Write the report to this file instead of stdout.",
    ),
    click.option(
        "--config",
        "config_options",
        multiple=True,
        metavar="<CONFIG_OPTION>",
        help="Either a path to a TOML configuration file (`pyproject.toml` or `toolret.toml`), "
        "or a TOML `<KEY> = <VALUE>` pair (such as you might find in a `toolret.toml` "
        "configuration file) overriding a specific configuration option (e.g., "
        "`--config \"lint.select = ['TRV1']\"` or `--config \"exclude = ['gen']\"`). "
        "Overrides of individual settings using this option always take precedence over all "
        "configuration files, including configuration files that were also specified using "
        "`--config`.",
    ),
    click.option(
        "--exit-zero",
        "-e",
        is_flag=True,
        help='Exit with status code "0", even upon detecting lint violations.',
    ),
    click.option("--statistics", is_flag=True, help="Show counts per rule instead of diagnostics."),
    click.option(
        "--no-cache",
        "-n",
        is_flag=True,
        envvar="TOOLRET_NO_CACHE",
        help="Disable cache reads (and writes).",
    ),
    click.option(
        "--cache-dir",
        type=click.Path(path_type=Path, file_okay=False),
        envvar="TOOLRET_CACHE_DIR",
        help="Where the cache lives (default: .toolret_cache in the working directory).",
    ),
    click.option(
        "--unsafe-fixes/--no-unsafe-fixes",
        default=None,
        help="Apply (and count as fixable) unsafe fixes too.",
    ),
    click.option(
        "--diff",
        is_flag=True,
        help="Print the fixes as a unified diff instead of writing them; exit 1 if any.",
    ),
    click.option(
        "--exit-non-zero-on-fix",
        is_flag=True,
        help="Exit 1 when a fix was applied, even if nothing remains.",
    ),
    click.option(
        "--stdin-filename",
        type=click.Path(path_type=Path),
        help="The name of the file when passing it through stdin (`-` is then optional).",
    ),
    click.option(
        "--force-exclude", is_flag=True, help="Apply excludes to paths given explicitly too."
    ),
    click.option(
        "--respect-gitignore/--no-respect-gitignore", default=None, help="Honour .gitignore files."
    ),
    click.option(
        "--exclude", multiple=True, help="Glob patterns to exclude (replaces the config's)."
    ),
    click.option("--extend-exclude", multiple=True, help="Glob patterns to exclude in addition."),
    click.option(
        "--extension",
        multiple=True,
        metavar="<EXTENSION>",
        help="List of mappings from file extension to language (one of `python`, `ipynb`, "
        "`pyi`). Add a comma-separated list to override multiple, e.g. "
        "`--extension=ipy:python,nb:ipynb`.",
    ),
    click.option(
        "--target-version",
        metavar="<TARGET_VERSION>",
        default=None,
        help="The minimum Python version that should be supported (ruff's values: "
        "py37, py38, py39, py310, py311, py312, py313, py314, py315); TRV005 reports "
        "syntax newer than it.",
    ),
    click.option(
        "--show-fixes/--no-show-fixes",
        default=None,
        help="Show an enumeration of all fixed lint violations. Use `--no-show-fixes` to disable.",
    ),
    click.option("--ignore-noqa", is_flag=True, help="Ignore any `# noqa` comments."),
    click.option(
        "--preview/--no-preview",
        default=False,
        help="Accepted for ruff compatibility: toolret has no preview rules or fixes, so it "
        "changes nothing.",
    ),
    click.option("--isolated", is_flag=True, help="Ignore all configuration files."),
    click.option(
        "--watch",
        "-w",
        is_flag=True,
        help="Run in watch mode by re-running whenever files change.",
    ),
    click.option(
        "--color",
        type=click.Choice(["auto", "always", "never"]),
        default="auto",
        help="Control when colored output is used (auto: on a terminal, unless "
        "NO_COLOR is set; FORCE_COLOR forces it).",
    ),
    click.option(
        "--verbose",
        "-v",
        is_flag=True,
        help="Enable verbose logging: which configuration file governs each path, and timings "
        "(on stderr).",
    ),
    click.option("--quiet", "-q", is_flag=True, help="Print diagnostics, but nothing else."),
    click.option(
        "--silent",
        "-s",
        is_flag=True,
        help='Disable all logging (but still exit with status code "1" upon detecting '
        "diagnostics).",
    ),
)


def _shared_options(command: Callable[..., None]) -> Callable[..., None]:
    """The options ``check`` and ``fix`` share (ruff's names)."""
    for option in reversed(_SHARED_OPTIONS):
        command = option(command)
    return command


class _CheckCommand(click.Command):
    """``check``: also accepts ruff's ``--add-noqa=REASON`` (the reason only after ``=``,
    so that ``--add-noqa src/`` still checks ``src/``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        rewritten: list[str] = []
        for index, arg in enumerate(args):
            if arg == "--":
                rewritten.extend(args[index:])
                break
            if arg.startswith("--add-noqa="):
                rewritten += ["--add-noqa", "--add-noqa-reason", arg.partition("=")[2]]
            else:
                rewritten.append(arg)
        return super().parse_args(ctx, rewritten)


@main.command(cls=_CheckCommand)
@_shared_options
@click.option("--fix/--no-fix", default=None, help="Apply the fixes, then report what remains.")
@click.option(
    "--fix-only/--no-fix-only",
    default=False,
    help="Apply fixes to resolve lint violations, but don't report on, or exit non-zero for, "
    "leftover violations. Implies `--fix`. Use `--no-fix-only` to disable or `--unsafe-fixes` "
    "to include unsafe fixes.",
)
@click.option(
    "--add-noqa",
    is_flag=True,
    help="Enable automatic additions of `noqa` directives to failing lines. Optionally provide "
    "a reason to append after the codes (`--add-noqa=REASON`).",
)
@click.option("--add-noqa-reason", default=None, hidden=True)
@click.option("--show-files", is_flag=True, help="List the files that would be checked, then exit.")
@click.option(
    "--show-settings",
    is_flag=True,
    help="See the settings toolret will use to lint a given Python file.",
)
@click.option(
    "--show-tool-functions", is_flag=True, help="List each recognised tool function and why."
)
def check(
    paths: tuple[Path, ...],
    select: tuple[str, ...],
    extend_select: tuple[str, ...],
    ignore: tuple[str, ...],
    fixable: tuple[str, ...],
    unfixable: tuple[str, ...],
    extend_fixable: tuple[str, ...],
    per_file_ignores: tuple[str, ...],
    extend_per_file_ignores: tuple[str, ...],
    output_format: str | None,
    output_file: Path | None,
    config_options: tuple[str, ...],
    exit_zero: bool,
    statistics: bool,
    no_cache: bool,
    cache_dir: Path | None,
    unsafe_fixes: bool | None,
    diff: bool,
    exit_non_zero_on_fix: bool,
    stdin_filename: Path | None,
    force_exclude: bool,
    respect_gitignore: bool | None,
    exclude: tuple[str, ...],
    extend_exclude: tuple[str, ...],
    extension: tuple[str, ...],
    target_version: str | None,
    show_fixes: bool | None,
    ignore_noqa: bool,
    preview: bool,
    isolated: bool,
    watch: bool,
    color: str,
    verbose: bool,
    quiet: bool,
    silent: bool,
    fix: bool | None,
    fix_only: bool,
    add_noqa: bool,
    add_noqa_reason: str | None,
    show_files: bool,
    show_settings: bool,
    show_tool_functions: bool,
) -> None:
    """Check PATHS (default: the current directory) for wrong tool return values.

    With --fix, apply the safe fixes first (--unsafe-fixes: the unsafe ones too);
    with --diff, print them as a diff and write nothing. Never prompts.
    """
    global _LOG_LEVEL, _COLOR, _VERBOSE
    _LOG_LEVEL = SILENT if silent else QUIET if quiet else DEFAULT
    _VERBOSE = verbose and not (quiet or silent)
    _COLOR = color
    del preview  # toolret has no preview rules: ruff's flag is accepted and changes nothing
    stdin = _reads_stdin(paths, stdin_filename)
    if watch:  # fail first: before any check runs
        if add_noqa or diff or stdin:
            raise click.UsageError(
                "the argument '--watch' cannot be used with '--add-noqa', '--diff' or stdin"
            )
        _need_watchfiles()
    if add_noqa:
        _check_add_noqa_conflicts(
            fix=bool(fix) and not fix_only,
            diff=diff,
            statistics=statistics,
            ignore_noqa=ignore_noqa,
            stdin=stdin,
        )
        if fix_only:
            _warn("--fix is incompatible with --add-noqa.")
        fix = fix_only = False
    if show_fixes and diff:
        raise click.UsageError("the argument '--show-fixes' cannot be used with '--diff'")
    config_file, config_overrides = _config_arguments(config_options)
    if isolated and config_file is not None:
        _fail(
            f"The argument `--config={config_file}` cannot be used with `--isolated`: "
            "`--isolated` ignores all configuration files"
        )
    if ignore_noqa:
        from lint_rules.analysis import noqa

        noqa.set_ignore_all(True)
    options = _RunOptions(
        paths=paths,
        select=_split_codes(select) or None,
        extend_select=_split_codes(extend_select),
        ignore=_split_codes(ignore),
        fixable=_split_codes(fixable) or None,
        unfixable=_split_codes(unfixable),
        extend_fixable=_split_codes(extend_fixable),
        per_file_ignores=_per_file_pairs("per-file-ignores", per_file_ignores) or None,
        extend_per_file_ignores=_per_file_pairs("extend-per-file-ignores", extend_per_file_ignores),
        output_format=output_format or "full",
        output_file=output_file,
        config_file=config_file,
        config_overrides=config_overrides,
        exit_zero=exit_zero,
        statistics=statistics,
        # The cache holds results with the noqa directives applied.
        no_cache=no_cache or ignore_noqa,
        cache_dir=cache_dir,
        unsafe_fixes=bool(unsafe_fixes),
        fix=bool(fix) or fix_only or diff,
        diff=diff,
        fix_only=fix_only,
        show_fixes=bool(show_fixes),
        isolated=isolated,
        add_noqa=add_noqa,
        add_noqa_reason=add_noqa_reason,
        exit_non_zero_on_fix=exit_non_zero_on_fix,
        stdin_filename=stdin_filename,
        stdin=stdin,
        force_exclude=force_exclude,
        respect_gitignore=respect_gitignore,
        exclude=exclude,
        extend_exclude=extend_exclude,
        extension=_extension_pairs(extension),
        target_version=target_version,
    )
    started = time.perf_counter()
    resolver = _resolver(options)
    options = _with_config_defaults(
        options,
        resolver,
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        show_fixes=show_fixes,
        output_format=output_format,
    )
    _debug_configuration(options, resolver)
    project = _project()
    if show_files or show_settings or show_tool_functions:
        targets = list(paths) or [Path(".")]
        try:
            if show_settings:
                _show_settings(targets, resolver, options)
            elif show_files:
                from lint_rules import runner

                for path in runner.iter_files(targets, resolver, force_exclude=force_exclude):
                    if not os.path.lexists(path):  # as in ruff: a warning, not listed
                        _warn(f"Failed to check {path}: No such file or directory")
                        continue
                    click.echo(_printable(str(Path(path).absolute())))
            else:
                _show_tool_functions(targets, resolver, project, force_exclude)
        except (ConfigError, DiscoveryError) as error:
            _fail(str(error))
        sys.exit(EXIT_CLEAN)
    if watch:
        sys.exit(_watch(options))
    try:
        code = _run(options, resolver, project)
        _debug(f"Finished in: {_elapsed(started)}")
        sys.exit(code)
    finally:
        if ignore_noqa:
            from lint_rules.analysis import noqa

            noqa.set_ignore_all(False)


def _reads_stdin(paths: Sequence[Path], stdin_filename: Path | None) -> bool:
    """ruff's rule: ``--stdin-filename`` always reads stdin (a path given besides is
    ignored, with a warning); otherwise only a lone ``-`` does."""
    if stdin_filename is not None:
        other = next((path for path in paths if path != Path("-")), None)
        if other is not None:
            _warn(f"Ignoring file {other} in favor of standard input.")
        return True
    return tuple(paths) == (Path("-"),)


def _need_watchfiles() -> None:
    """``--watch`` without the ``watch`` extra: exit 2 with the install hint, at once."""
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        _fail(_WATCH_HINT)


_WATCH_HINT = "--watch needs the file watcher: pip install -e 'path/to/toolret[watch]' (a clone)"


def _with_config_defaults(
    options: _RunOptions,
    resolver: SettingsResolver,
    *,
    fix: bool | None,
    unsafe_fixes: bool | None,
    show_fixes: bool | None,
    output_format: str | None,
) -> _RunOptions:
    """The run-wide keys (``fix``, ``unsafe-fixes``, ``show-fixes``, ``output-format``,
    ``cache-dir``) of the working directory's configuration (or ``--config``'s), ruff's
    "pyproject config", for the flags not given: the command line wins."""
    top = resolver(Path.cwd())
    changes: dict[str, Any] = {}
    if fix is None and top.fix:
        changes["fix"] = True
    if unsafe_fixes is None and top.unsafe_fixes is not None:
        changes["unsafe_fixes"] = top.unsafe_fixes
    if show_fixes is None and top.show_fixes is not None:
        changes["show_fixes"] = top.show_fixes and not options.diff
    if output_format is None and top.output_format is not None:
        changes["output_format"] = top.output_format
    if options.cache_dir is None and top.cache_dir is not None:
        changes["cache_dir"] = top.cache_path()
    return dataclasses.replace(options, **changes) if changes else options


_VERBOSE = False
"""``-v``: debug lines on stderr (ruff's ``[date][time][module][DEBUG] ...`` layout)."""


def _debug(message: str) -> None:
    if _VERBOSE:
        stamp = time.strftime("[%Y-%m-%d][%H:%M:%S]")
        click.echo(_printable(f"{stamp}[toolret][DEBUG] {message}"), err=True)


def _elapsed(started: float) -> str:
    return f"{(time.perf_counter() - started) * 1000:.1f}ms"


def _debug_configuration(options: _RunOptions, resolver: SettingsResolver) -> None:
    """``-v``: the configuration file of the working directory (ruff's first line)."""
    if not _VERBOSE:
        return
    if options.isolated:
        _debug("Ignoring all configuration files (--isolated)")
    elif options.config_file is not None:
        _debug(f"Using configuration file (--config) at: {Path(options.config_file).absolute()}")
    else:
        found = resolver.config_file_for(Path.cwd())
        if found is None:
            _debug("No configuration file found for the working directory; using the defaults")
        else:
            _debug(f"Using configuration file (via parent) at: {found}")


def _debug_files(options: _RunOptions, resolver: SettingsResolver) -> None:
    """``-v``: each file to check and the configuration file that governs it."""
    if not _VERBOSE:
        return
    from lint_rules import runner

    started = time.perf_counter()
    targets = list(options.paths) or [Path(".")]
    count = 0
    for path in runner.iter_files(targets, resolver, force_exclude=options.force_exclude):
        count += 1
        source = _settings_source(options, resolver, path)
        _debug(f"Checking: {Path(path).absolute()} (settings: {source})")
    _debug(f"Identified {count} files to check in: {_elapsed(started)}")


def _settings_source(options: _RunOptions, resolver: SettingsResolver, path: Path) -> str:
    if options.isolated:
        return "defaults, --isolated"
    if options.config_file is not None:
        return str(Path(options.config_file).absolute())
    found = resolver.config_file_for(path)
    return str(found) if found is not None else "defaults"


_COLOR = "auto"
"""``--color``: ``auto`` (a terminal, ``NO_COLOR``/``FORCE_COLOR`` as ruff reads them),
``always`` or ``never``."""


def _use_color(err: bool, to_file: bool) -> bool:
    """Whether to colour the report, as ruff decides (``--color``, then ``FORCE_COLOR``,
    then ``NO_COLOR``, then whether the stream is a terminal); never into a file."""
    if to_file or _COLOR == "never":
        return False
    if _COLOR == "always" or os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stderr if err else sys.stdout
    return stream.isatty()


DEFAULT, QUIET, SILENT = 0, 1, 2
_LOG_LEVEL = DEFAULT
"""ruff's log level: ``-q`` prints diagnostics but nothing else (no summary, no
warning), ``-s`` prints nothing (errors that end the run excepted)."""


def _check_add_noqa_conflicts(
    *, fix: bool, diff: bool, statistics: bool, ignore_noqa: bool, stdin: bool
) -> None:
    """ruff's argument conflicts of ``--add-noqa`` (a usage error, exit 2)."""
    for name, given in (
        ("--fix", fix),
        ("--diff", diff),
        ("--statistics", statistics),
        ("--ignore-noqa", ignore_noqa),
        ("--stdin-filename", stdin),
    ):
        if given:
            if name == "--stdin-filename":
                raise click.UsageError(
                    "the argument '--add-noqa' cannot be used on stdin (`-`, '--stdin-filename')"
                )
            raise click.UsageError(f"the argument '--add-noqa' cannot be used with '{name}'")


def _per_file_pairs(flag: str, values: Sequence[str]) -> dict[str, list[str]]:
    """ruff's ``--per-file-ignores PATTERN:CODE``: comma-separated pairs, each exactly one
    ``:`` (spaces around either part dropped); a pattern given twice collects its codes."""
    table: dict[str, list[str]] = {}
    for value in values:
        for item in value.split(","):
            parts = item.split(":")
            if len(parts) != 2:
                metavar = flag.upper().replace("-", "_")
                _fail(
                    f"toolret: error: invalid value {item!r} for '--{flag} <{metavar}>':"
                    " Expected <FilePattern>:<RuleCode> pattern\n\n"
                    "For more information, try '--help'."
                )
            pattern, code = (part.strip() for part in parts)
            table.setdefault(pattern, []).append(code)
    return table


def _extension_pairs(values: Sequence[str]) -> dict[str, str]:
    """ruff's ``--extension EXTENSION:LANGUAGE``: comma-separated pairs (the language is
    checked by the settings, with the flag named)."""
    table: dict[str, str] = {}
    for value in values:
        for item in value.split(","):
            parts = item.split(":")
            if len(parts) != 2:
                _fail(
                    f"toolret: error: invalid value {item!r} for '--extension <EXTENSION>':"
                    " Expected <Extension>:<Language> pattern\n\n"
                    "For more information, try '--help'."
                )
            name, language = (part.strip() for part in parts)
            table[name] = language
    return table


def _config_arguments(values: Sequence[str]) -> tuple[Path | None, dict[str, Any]]:
    """ruff's ``--config``: an existing file is the config file (one at most), anything
    else a TOML ``KEY = VALUE`` override; later overrides win. Exit 2 on a bad one."""
    from lint_rules.config import parse_config_override

    config_file: Path | None = None
    overrides: dict[str, Any] = {}
    for value in values:
        if os.path.isfile(value):
            if config_file is not None:
                _fail(
                    "toolret failed\n  Cause: You cannot specify more than one configuration "
                    "file on the command line.\n\n"
                    f"  tip: remove either `--config={config_file}` or `--config={value}`.\n"
                    "       For more information, try `--help`."
                )
            config_file = Path(value)
            continue
        try:
            overrides.update(parse_config_override(value))
        except ConfigError as error:
            _fail(str(error) + "\n\nFor more information, try '--help'.")
    return config_file, overrides


@main.command()
@_shared_options
@click.pass_context
def fix(ctx: click.Context, /, **_: object) -> None:
    """Apply the safe fixes in PATHS (default: the current directory), then report what remains.

    Same as `toolret check --fix`: --unsafe-fixes applies the unsafe fixes too,
    --diff prints a unified diff and writes nothing. Never prompts. Exit 0 when
    nothing remains, 1 when diagnostics remain (or, with --exit-non-zero-on-fix,
    when something was fixed), 2 on error.
    """
    ctx.forward(check, fix=True)


@dataclass(frozen=True)
class _RunOptions:
    paths: tuple[Path, ...]
    select: list[str] | None
    extend_select: list[str]
    ignore: list[str]
    fixable: list[str] | None
    unfixable: list[str]
    extend_fixable: list[str]
    per_file_ignores: dict[str, list[str]] | None
    extend_per_file_ignores: dict[str, list[str]]
    output_format: str
    output_file: Path | None
    config_file: Path | None
    exit_zero: bool
    statistics: bool
    no_cache: bool
    cache_dir: Path | None
    unsafe_fixes: bool
    fix: bool
    diff: bool
    exit_non_zero_on_fix: bool
    stdin_filename: Path | None
    force_exclude: bool
    respect_gitignore: bool | None
    exclude: tuple[str, ...]
    extend_exclude: tuple[str, ...]
    extension: dict[str, str] = dataclasses.field(default_factory=dict)
    target_version: str | None = None
    """``--target-version``: replaces the configuration's (and ``requires-python``'s)."""
    fix_only: bool = False
    """Report only what was fixed (``--fix-only``; ``--diff`` implies it)."""
    show_fixes: bool = False
    isolated: bool = False
    add_noqa: bool = False
    add_noqa_reason: str | None = None
    stdin: bool = False
    """Read the file to check from stdin (``-``, or ``--stdin-filename`` given)."""
    config_overrides: Mapping[str, Any] = field(default_factory=dict)
    """``--config "KEY = VALUE"``: ``Settings`` fields replaced in every config's settings."""
    warned: set[str] = field(default_factory=set)
    """Warnings already printed (a ``fix`` runs the check more than once)."""

    @property
    def applicability(self) -> FixableApplicability:
        return "unsafe" if self.unsafe_fixes else "safe"


def _resolver(options: _RunOptions) -> SettingsResolver:

    def overrides(settings: Settings) -> Settings:
        if options.config_overrides:
            settings = dataclasses.replace(settings, **options.config_overrides)
        return settings.with_overrides(
            select=options.select,
            extend_select=options.extend_select,
            ignore=options.ignore,
            per_file_ignores=options.per_file_ignores,
            extend_per_file_ignores=options.extend_per_file_ignores,
            fixable=options.fixable,
            unfixable=options.unfixable,
            extend_fixable=options.extend_fixable,
            exclude=list(options.exclude) if options.exclude else None,
            extend_exclude=list(options.extend_exclude),
            respect_gitignore=options.respect_gitignore,
            force_exclude=True if options.force_exclude else None,
            extension=options.extension or None,
            target_version=options.target_version,
        )

    try:
        if options.isolated:
            resolver: SettingsResolver = _IsolatedResolver(overrides)
        else:
            resolver = SettingsResolver(config_file=options.config_file, overrides=overrides)
        resolver(Path.cwd())  # a bad config (an unknown selector too) stops here, exit 2
    except ConfigError as error:
        _fail(str(error))
    return resolver


class _IsolatedResolver(SettingsResolver):
    """``--isolated``: every path gets the defaults and the command line, no config file."""

    def __init__(self, overrides: Callable[[Settings], Settings]) -> None:
        super().__init__(overrides=overrides)
        self._isolated = overrides(Settings())

    def settings_for(self, path: Path) -> Settings:
        return self._isolated

    def config_file_for(self, path: Path) -> Path | None:
        return None


def _project() -> Project:
    from lint_rules.analysis.project import Project
    from lint_rules.analysis.summaries import SummaryStore

    return Project(revalidate=False, summaries=SummaryStore())


def _watch(options: _RunOptions) -> int:
    """``--watch``: check, then check again whenever a file under the paths changes, until
    interrupted. Each run builds its settings and project facts afresh (a config file may
    have changed) and, unless ``--no-cache``, answers unchanged files from the cache, so a
    re-run parses only what changed. An error that ends a normal run (a bad config) is
    printed and the watch goes on."""
    _need_watchfiles()
    targets = list(options.paths) or [Path(".")]

    def once() -> None:
        with contextlib.suppress(SystemExit):  # printed already; keep watching
            _run(options, _resolver(options), _project())
        click.echo(_stamped("Watching for file changes."))

    click.echo(_stamped("Starting linter in watch mode..."))
    try:
        once()
        for _changes in _watch_changes(targets, options.cache_dir):
            click.echo(_stamped("File change detected..."))
            once()
    except KeyboardInterrupt:  # Ctrl-C while a run is under way: the watch is over
        pass
    return EXIT_CLEAN


def _stamped(message: str) -> str:
    return f"[{time.strftime('%H:%M:%S')}] {message}"


def _watch_changes(targets: list[Path], cache_dir: Path | None) -> Iterator[object]:
    """The sets of changes under ``targets`` (``watchfiles``, the ``watch`` extra), ending
    on Ctrl-C; the cache, VCS and bytecode directories are not watched."""
    try:
        import watchfiles
    except ImportError:
        _fail(_WATCH_HINT)
    ignore = (*watchfiles.DefaultFilter.ignore_dirs, ".toolret_cache")
    if cache_dir is not None:
        ignore = (*ignore, cache_dir.name)
    watch_filter = watchfiles.DefaultFilter(ignore_dirs=ignore)
    yield from watchfiles.watch(*targets, watch_filter=watch_filter, raise_interrupt=False)


def _run(options: _RunOptions, resolver: SettingsResolver, project: Project) -> int:
    """Check (and with ``fix``, fix) the paths; print the result; return the exit code."""
    from lint_rules import runner

    if options.stdin:
        data = sys.stdin.buffer.read()
        if options.stdin_filename is not None and _stdin_excluded(options, resolver):
            return _excluded_stdin(options, data)
        if _VERBOSE:
            named = options.stdin_filename or Path.cwd()
            source = _settings_source(options, resolver, named)
            _debug(f"Checking: stdin as {options.stdin_filename or '-'} (settings: {source})")
        stdin_name = str(options.stdin_filename) if options.stdin_filename else None
        try:
            file_result = runner.check_stdin(data, stdin_name, resolver, project)
        except ConfigError as error:
            _fail(str(error))
        _drop_unfixable(resolver, [file_result])
        if options.fix:
            return _fix_stdin(options, resolver, project, data, file_result)
        result = runner.RunResult(files=[file_result] if file_result.diagnostics else [], checked=1)
    else:
        result = _check_paths(options, resolver, project)
    if options.add_noqa:
        return _add_noqa(options, result)
    if not options.fix:
        _report(options, result.diagnostics, result.sources)
        return EXIT_CLEAN if options.exit_zero or not result.diagnostics else EXIT_DIAGNOSTICS
    return _fix_paths(options, resolver, project, result)


def _stdin_excluded(options: _RunOptions, resolver: SettingsResolver) -> bool:
    """Whether ``--stdin-filename`` names a path the excludes drop: with ``--force-exclude``
    (or ``force-exclude = true``), as for a path named on the command line."""
    from lint_rules import runner

    assert options.stdin_filename is not None
    try:
        found = runner.iter_files(
            [options.stdin_filename], resolver, force_exclude=options.force_exclude
        )
        return next(iter(found), None) is None
    except (ConfigError, DiscoveryError) as error:
        _fail(str(error))


def _excluded_stdin(options: _RunOptions, data: bytes) -> int:
    """An excluded ``--stdin-filename``, as ruff treats one: no diagnostics, exit 0; with
    ``--fix`` the input back on stdout unchanged, with ``--diff`` nothing."""
    _debug(f"Ignoring stdin: {options.stdin_filename} is excluded")
    if options.diff:
        return EXIT_CLEAN
    if options.fix:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return EXIT_CLEAN
    _report(options, [], {})
    return EXIT_CLEAN


def _add_noqa(options: _RunOptions, result: RunResult) -> int:
    """``--add-noqa``: a directive for every diagnostic; ``Added N noqa directives.`` on
    stderr, as ruff (nothing when none was added); exit 0 unless a file could not be
    written (2)."""
    from lint_rules.add_noqa import add_noqa_to_files

    outcomes = add_noqa_to_files(
        ((f.path, f.diagnostics, f.text()) for f in result.files),
        reason=options.add_noqa_reason or None,
    )
    cwd = Path.cwd()
    added = 0
    failed = False
    for outcome in outcomes:
        shown = _relative(Path(outcome.path), cwd)
        for problem in outcome.problems:
            click.echo(_printable(f"error: {problem.describe(shown)}"), err=True)
        for row in outcome.skipped:
            _warn(f"{shown}:{row}: no noqa directive added: the line cannot take a comment")
        added += outcome.added
        failed = failed or outcome.write_error
    if added and _LOG_LEVEL == DEFAULT:
        directives = "directive" if added == 1 else "directives"
        click.echo(f"Added {added} noqa {directives}.", err=True)
    return EXIT_ERROR if failed else EXIT_CLEAN


def _check_paths(options: _RunOptions, resolver: SettingsResolver, project: Project) -> RunResult:
    from lint_rules import runner

    cache = None
    if not options.no_cache:
        from lint_rules.cache import CACHE_DIR_NAME, ResultCache

        cache = ResultCache(options.cache_dir or Path.cwd() / CACHE_DIR_NAME)
    _debug_files(options, resolver)
    started = time.perf_counter()
    try:
        result = runner.run(
            list(options.paths) or [Path(".")],
            resolver,
            force_exclude=options.force_exclude,
            project=project,
            cache=cache,
            progress=_ProgressBar() if _stderr_is_terminal() else None,
        )
    except (ConfigError, DiscoveryError) as error:
        _fail(str(error))
    _debug(f"Checked {result.checked} files in: {_elapsed(started)}")
    _drop_unfixable(resolver, result.files)
    for warning in result.warnings:
        if warning not in options.warned:
            options.warned.add(warning)
            _warn(warning)
    return result


def _warn(message: str) -> None:
    if _LOG_LEVEL == DEFAULT:
        click.echo(_printable(f"warning: {message}"), err=True)


_SURROGATES = re.compile("[\ud800-\udfff]")
_NOT_ESCAPES = re.compile("[\ud800-\udc7f\udd00-\udfff]")


def _printable(text: str) -> str:
    """``text`` as valid UTF-8 can carry it: what a non-UTF-8 file name decoded to
    (``os.fsdecode``'s escapes) becomes U+FFFD, one per invalid sequence - what
    ruff prints for such a name in every format, JSON included."""
    if _SURROGATES.search(text) is None:
        return text
    text = _NOT_ESCAPES.sub("\ufffd", text)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


# A bar only when parsing will take a while and someone is watching stderr.
PROGRESS_MIN_FILES = 50


def _stderr_is_terminal() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


class _ProgressBar:
    """``runner.Progress`` drawn on stderr with click's progress bar."""

    def track(self, results: Iterable[FileResult], total: int) -> Iterator[FileResult]:
        if total < PROGRESS_MIN_FILES:
            yield from results
            return
        with click.progressbar(
            results, length=total, label="Checking", file=sys.stderr, show_pos=True
        ) as bar:
            yield from bar


def _report(
    options: _RunOptions,
    diagnostics: list[Diagnostic],
    sources: Mapping[str, str],
    *,
    fixed: int = 0,
    fixed_table: Mapping[str, Mapping[tuple[str, str], int]] | None = None,
    err: bool = False,
) -> None:
    """Print the diagnostics (or statistics) and the summary, as ruff does.

    ``--fix-only``: no diagnostics, only what was fixed. ``--show-fixes``: the table
    of what was fixed (``fixed_table``) before the summary, in the formats that have
    one. ``-q``: no summary; ``-s``: nothing but ``--statistics``' table (as ruff).
    """
    from lint_rules import formats

    fmt = options.output_format
    applicability = options.applicability
    if options.fix_only:
        summary = ""
        if formats.has_summary(fmt):
            summary = formats.fix_only_summary(
                diagnostics, fixed=fixed, fixable_applicability=applicability
            )
    else:
        summary = formats.summary(
            fmt, diagnostics, fixable_applicability=applicability, fixed=fixed
        )
    table = ""
    if options.show_fixes and fixed_table and formats.has_summary(fmt):
        table = formats.render_fix_table(fixed_table, cwd=Path.cwd())
    if _LOG_LEVEL != DEFAULT:
        summary = ""
    if options.statistics:
        try:
            body = formats.render_statistics(
                diagnostics, fmt=fmt, fixable_applicability=applicability
            )
        except formats.UnsupportedStatisticsFormat as error:
            _fail(str(error))
        summary = summary if body else ""  # as in ruff, an empty table has no summary
        if options.fix_only and not body:
            summary = ""
    elif options.fix_only or _LOG_LEVEL == SILENT:
        body = ""
    else:
        body = formats.render(
            fmt,
            diagnostics,
            sources=sources,
            cwd=Path.cwd(),
            fixable_applicability=applicability,
            show_fix_hint=not options.fix,
            color=_use_color(err, options.output_file is not None),
        )
    if options.statistics or _LOG_LEVEL == SILENT:
        table = ""
    text = _printable(body + table + summary)
    if options.output_file is not None and not err:
        try:
            options.output_file.parent.mkdir(parents=True, exist_ok=True)
            options.output_file.write_text(text, encoding="utf-8")
        except OSError as error:
            _fail(f"cannot write {options.output_file}: {error.strerror or error}")
        return
    click.echo(text, nl=False, err=err, color=_use_color(err, False) or None)


def _checker(
    resolver: SettingsResolver, project: Project
) -> Callable[[str, str], list[Diagnostic]]:
    """``check(path, text)`` for the fix loop: the engine with the path's own settings."""
    from lint_rules.engine import check_source

    def check_text(path: str, text: str) -> list[Diagnostic]:
        settings = _settings_of(resolver, path)
        return _fixable_only(settings, check_source(text, path, settings, project))

    return check_text


def _settings_of(resolver: SettingsResolver, path: str) -> Settings:
    return resolver(Path(path) if path not in ("", "-") else Path.cwd())


def _fixable_only(settings: Settings, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    from lint_rules.fixes import without_unfixable

    return without_unfixable(settings, diagnostics)


def _drop_unfixable(resolver: SettingsResolver, files: Iterable[FileResult]) -> None:
    for file_result in files:
        settings = _settings_of(resolver, file_result.path)
        file_result.diagnostics = _fixable_only(settings, file_result.diagnostics)


FIX_ROUNDS = 3
"""Whole runs of check → fix at most. A fix can change the facts another file is
checked with (a renamed ``tool_use_behavior=`` keyword makes an ``Agent(...)``
name a behaviour function in another module): after such a fix the project is
checked again, so that fixing twice equals fixing once."""

CROSS_FILE_FRAMEWORKS = frozenset({"openai_agents", "openai_chat"})
"""Frameworks whose fixes can change Python cross-file facts. PolyAI's cross-file
facts are its prompts and YAML, which no fix edits; browser-use has none."""


def _fix_paths(
    options: _RunOptions, resolver: SettingsResolver, project: Project, result: RunResult
) -> int:
    from lint_rules import fixes, formats

    fixed = 0
    write_failed = False
    reported: set[str] = set()
    changed: dict[str, FileFix] = {}
    fixed_table: dict[str, dict[tuple[str, str], int]] = {}
    for round_number in range(1, FIX_ROUNDS + 1):
        candidates = [fixes.Candidate(f.path, f.diagnostics, f.text()) for f in result.files]
        outcomes = fixes.fix_files(
            candidates,
            _checker(resolver, project),
            unsafe=options.unsafe_fixes,
            write=not options.diff,
        )
        remaining_by_path = {f.path: f.diagnostics for f in result.files}
        sources = dict(result.sources)
        for outcome in outcomes:
            shown = _relative(Path(outcome.path), Path.cwd())
            for problem in outcome.problems:
                line = f"error: {problem.describe(shown)}"
                if line not in reported:  # a later round meets the same problem again
                    reported.add(line)
                    click.echo(_printable(line), err=True)
            write_failed = write_failed or outcome.write_error
            if outcome.result is None:
                continue
            remaining_by_path[outcome.path] = outcome.result.remaining
            sources[outcome.path] = outcome.result.source
            if outcome.changed:
                fixed += len(outcome.result.fixed)
                changed[outcome.path] = outcome
                table = fixed_table.setdefault(outcome.path, {})
                for diagnostic in outcome.result.fixed:
                    key = (diagnostic.code, diagnostic.name)
                    table[key] = table.get(key, 0) + 1
        remaining = sorted(
            (d for diagnostics in remaining_by_path.values() for d in diagnostics),
            key=Diagnostic.sort_key,
        )
        if options.diff or round_number == FIX_ROUNDS or not _may_change_facts(outcomes):
            break
        project = _project()  # facts from the files as they are now
        result = _check_paths(options, resolver, project)

    if options.diff:
        if _LOG_LEVEL != SILENT:
            _print_diffs(list(changed.values()))
        if _LOG_LEVEL == DEFAULT:
            summary = formats.fix_only_summary(
                remaining, fixed=fixed, fixable_applicability=options.applicability, dry_run=True
            )
            click.echo(summary, nl=False)
        if write_failed:
            return EXIT_ERROR
        return EXIT_DIAGNOSTICS if changed and not options.exit_zero else EXIT_CLEAN

    _report(options, remaining, sources, fixed=fixed, fixed_table=fixed_table)
    return _fix_exit_code(options, fixed=fixed, remaining=remaining, failed=write_failed)


def _may_change_facts(outcomes: Sequence[FileFix]) -> bool:
    """Whether a written fix belongs to a framework with Python cross-file facts."""
    from lint_rules.rules import get_rule

    for outcome in outcomes:
        if outcome.written and outcome.result is not None:
            for diagnostic in outcome.result.fixed:
                rule = get_rule(diagnostic.code)
                if rule is not None and rule.framework in CROSS_FILE_FRAMEWORKS:
                    return True
    return False


def _fix_exit_code(
    options: _RunOptions, *, fixed: int, remaining: Sequence[Diagnostic], failed: bool
) -> int:
    if failed:
        return EXIT_ERROR
    if options.exit_zero:
        return EXIT_CLEAN
    if options.exit_non_zero_on_fix and fixed:
        return EXIT_DIAGNOSTICS
    if options.fix_only:  # leftover diagnostics do not count
        return EXIT_CLEAN
    return EXIT_DIAGNOSTICS if remaining else EXIT_CLEAN


def _fix_stdin(
    options: _RunOptions,
    resolver: SettingsResolver,
    project: Project,
    data: bytes,
    file_result: FileResult,
) -> int:
    """``check --fix -``: the fixed code to stdout, the diagnostics and summary to stderr
    (ruff's split); with ``--diff``, the diff to stdout."""
    from lint_rules import fixes, formats

    check_text = _checker(resolver, project)
    outcome = fixes.fix_file(
        file_result.path,
        data,
        lambda text: check_text(file_result.path, text),
        unsafe=options.unsafe_fixes,
        known_source=file_result.source,
        known_diagnostics=file_result.diagnostics,
    )
    shown = str(options.stdin_filename) if options.stdin_filename else "-"
    fixed_table: dict[str, dict[tuple[str, str], int]] = {}
    if outcome.changed and outcome.result is not None:
        for diagnostic in outcome.result.fixed:
            table = fixed_table.setdefault(shown, {})
            key = (diagnostic.code, diagnostic.name)
            table[key] = table.get(key, 0) + 1
    for problem in outcome.problems:
        click.echo(f"error: {problem.describe(shown)}", err=True)
    result = outcome.result
    remaining = result.remaining if result is not None else file_result.diagnostics
    fixed = len(result.fixed) if result is not None and outcome.changed else 0
    if options.diff:
        if _LOG_LEVEL != SILENT:
            _print_diffs([outcome] if outcome.changed else [], stdin_name=options.stdin_filename)
        if _LOG_LEVEL == DEFAULT:
            summary = formats.fix_only_summary(
                remaining, fixed=fixed, fixable_applicability=options.applicability, dry_run=True
            )
            click.echo(summary, nl=False)
        return EXIT_DIAGNOSTICS if outcome.changed and not options.exit_zero else EXIT_CLEAN
    sys.stdout.buffer.write(outcome.fixed_bytes if outcome.fixed_bytes is not None else data)
    sys.stdout.buffer.flush()
    sources = {file_result.path: result.source} if result is not None else {}
    _report(options, remaining, sources, fixed=fixed, fixed_table=fixed_table, err=True)
    return _fix_exit_code(options, fixed=fixed, remaining=remaining, failed=False)


def _print_diffs(outcomes: Sequence[FileFix], *, stdin_name: Path | None = None) -> None:
    """ruff's ``--diff``: one unified diff per file (``--- path`` / ``+++ path``), each
    followed by a blank line."""
    from lint_rules.fixes import unified_diff
    from lint_rules.notebook import NotebookText

    cwd = Path.cwd()
    for outcome in sorted(outcomes, key=lambda o: o.path):
        result = outcome.result
        assert result is not None
        if outcome.path == "-":
            label = str(stdin_name) if stdin_name else "-"
        else:
            label = _relative(Path(outcome.path), cwd)
        if isinstance(result.original, NotebookText) and isinstance(result.source, NotebookText):
            # ruff's notebook diff: one per changed cell, labelled `path:cell N`
            for cell in result.original.notebook.cells:
                after = result.source.cell_source(cell.number)
                if after is not None and after != cell.source:
                    diff = unified_diff(cell.source, after, f"{label}:cell {cell.number}")
                    click.echo(_printable(diff), nl=False)
            click.echo("")
            continue
        click.echo(_printable(unified_diff(result.original, result.source, label)), nl=False)
        click.echo("")


def _show_settings(targets: list[Path], resolver: SettingsResolver, options: _RunOptions) -> None:
    """ruff's ``--show-settings``: the settings that govern the first file checked (the
    first path when none is), where they came from, and the rules they enable and fix."""
    from lint_rules import runner
    from lint_rules.cache import CACHE_DIR_NAME
    from lint_rules.catalog import DEFAULT_ENABLED

    first = next(
        iter(runner.iter_files(targets, resolver, force_exclude=options.force_exclude)), None
    )
    path = Path(first if first is not None else targets[0]).absolute()
    settings = resolver(path)
    config = (
        options.config_file if options.config_file is not None else resolver.config_file_for(path)
    )
    lines = [f"Resolved settings for: {_quoted(path)}"]
    if config is not None and not options.isolated:
        lines.append(f"Settings path: {_quoted(Path(config).absolute())}")
    cache_dir = options.cache_dir or Path.cwd() / CACHE_DIR_NAME
    root = settings.root if settings.root is not None else Path.cwd()
    lines += [
        "",
        "# General Settings",
        f"cache_dir = {_quoted(cache_dir.absolute())}",
        f"fix = {_toml(options.fix)}",
        f"fix_only = {_toml(options.fix_only)}",
        f"output_format = {options.output_format}",
        f"show_fixes = {_toml(options.show_fixes)}",
        f"unsafe_fixes = {_toml(options.unsafe_fixes)}",
        "",
        "# File Resolver Settings",
    ]
    for name in ("exclude", "extend_exclude", "force_exclude", "respect_gitignore"):
        lines.append(f"file_resolver.{name} = {_toml(getattr(settings, name))}")
    lines.append(f"file_resolver.project_root = {_quoted(root.absolute())}")
    lines += ["", "# Linter Settings"]
    lines.append(f"linter.target_version = {_toml(settings.target_version)}")
    for name in ("select", "extend_select", "ignore", "fixable", "unfixable", "extend_fixable"):
        lines.append(f"linter.{name} = {_toml(getattr(settings, name))}")
    for label, layers in (
        ("command_line_selection", settings.cli_selections),
        ("command_line_fixable", settings.cli_fixable),
    ):
        shown = [
            {"select": layer.select, "extend_select": layer.extend_select, "ignore": layer.ignore}
            for layer in layers
        ]
        lines.append(f"linter.{label} = {_toml(shown)}")
    enabled = settings.enabled_codes(DEFAULT_ENABLED)
    lines.append(f"linter.rules.enabled = {_rule_list(enabled)}")
    lines.append(f"linter.rules.should_fix = {_rule_list(settings.fixable_codes(DEFAULT_ENABLED))}")
    for name in ("per_file_ignores", "extend_per_file_ignores"):
        lines.append(f"linter.{name} = {_toml(getattr(settings, name))}")
    lines += ["", "# Linter Plugins"]
    for table in ("polyai", "browser_use", "openai_agents", "openai_chat"):
        values = getattr(settings, table)
        for item in dataclasses.fields(values):
            lines.append(f"linter.{table}.{item.name} = {_toml(getattr(values, item.name))}")
    click.echo(_printable("\n".join(lines)))


def _quoted(path: Path) -> str:
    return json.dumps(str(path), ensure_ascii=False)


def _toml(value: object, indent: str = "") -> str:
    """A settings value as ruff's ``--show-settings`` prints one: one item a line."""
    inner = indent + "\t"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, Path)):
        return json.dumps(str(value), ensure_ascii=False)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(str(k))} = {_toml(v, inner)}," for k, v in value.items()]
        return "{\n" + "\n".join(items) + f"\n{indent}}}"
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        return "[\n" + "\n".join(f"{inner}{_toml(v, inner)}," for v in value) + f"\n{indent}]"
    return str(value)


def _rule_list(codes: Iterable[str]) -> str:
    from lint_rules.rules import get_rule

    shown = []
    for code in sorted(codes):
        rule = get_rule(code)
        shown.append(f"\t{rule.name if rule is not None else code} ({code}),")
    return "[\n" + "\n".join(shown) + "\n]" if shown else "[]"


def _show_tool_functions(
    targets: list[Path], resolver: SettingsResolver, project: object, force_exclude: bool
) -> None:
    from lint_rules import runner
    from lint_rules.analysis.project import Project
    from lint_rules.engine import decode_source, describe_tool_functions
    from lint_rules.fileio import read_regular

    assert isinstance(project, Project)
    project.index = runner.index_project(targets, resolver, project)
    cwd = Path.cwd()
    for path in runner.iter_files(targets, resolver, force_exclude=force_exclude):
        try:
            source = decode_source(read_regular(path))
        except OSError as error:
            _warn(f"Failed to check {path}: {error.strerror or error}")
            continue
        except (SyntaxError, UnicodeDecodeError, LookupError):
            continue
        absolute = path.absolute()
        for report in describe_tool_functions(source, str(absolute), resolver(path), project):
            shown = _relative(absolute, cwd)
            status = "tool" if report.is_tool else "not a tool"
            label = f"{report.name} [{report.framework}, {status}]"
            click.echo(_printable(f"{shown}:{report.row}: {label} {report.reason}"))


def _relative(path: Path, cwd: Path) -> str:
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)


@main.command()
@click.argument("code", required=False, metavar="<RULE|--all>")
@click.option("--all", "show_all", is_flag=True, help="Explain all rules.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
def rule(code: str | None, show_all: bool, output_format: str) -> None:
    """Explain a rule (by code or name), or all rules (`--all`), as `ruff rule` does."""
    from lint_rules.docs import rule_page
    from lint_rules.rules import all_rules, get_rule

    if show_all and code is not None:
        raise click.UsageError("the argument '--all' cannot be used with '<RULE>'")
    if show_all:
        every = list(all_rules())
        if output_format == "json":
            click.echo(json.dumps([_rule_json(r) for r in every], indent=2))
        else:  # ruff's layout: the pages one after the other, a blank line between
            click.echo("\n".join(rule_page(r) for r in every), nl=False)
        return
    if code is None:
        raise click.UsageError("the following required arguments were not provided: <RULE|--all>")
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


@main.command()
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
def linter(output_format: str) -> None:
    """List the code prefixes and the families under them, as `ruff linter` does."""
    from lint_rules.catalog import CODE_PREFIXES, FRAMEWORK_CODE_PREFIXES
    from lint_rules.docs import FRAMEWORK_TITLES

    def title(prefix: str) -> str:
        key = next((k for k, p in FRAMEWORK_CODE_PREFIXES.items() if p == prefix), "engine")
        return FRAMEWORK_TITLES[key]

    linters: list[dict[str, Any]] = []
    for prefix in CODE_PREFIXES:
        # A prefix's categories are its families' own prefixes, where it has several.
        categories = [p for p in FRAMEWORK_CODE_PREFIXES.values() if p.startswith(prefix)]
        if prefix == "TRV":
            linters.append(
                {
                    "prefix": prefix,
                    "name": "toolret (the engine and the first nine families)",
                    "categories": [
                        {"prefix": "TRV0", "name": FRAMEWORK_TITLES["engine"]},
                        *({"prefix": p, "name": title(p)} for p in categories),
                    ],
                }
            )
        else:
            linters.append({"prefix": prefix, "name": title(prefix)})
    if output_format == "json":
        click.echo(json.dumps(linters, indent=2))
        return
    for found in linters:
        click.echo(f"{found['prefix']:>5} {found['name']}")
        for category in found.get("categories", ()):
            click.echo(f"{category['prefix']:>7} {category['name']}")


@main.command()
def lsp() -> None:
    """Run the language server over stdin/stdout (needs the `lsp` extra: `pip install -e
    'path/to/toolret[lsp]'` from a clone); `toolret server` is the same, under ruff's name."""
    try:
        from lint_rules.lsp import main as serve
    except ImportError as error:
        _fail(str(error))
    serve()


main.add_command(lsp, name="server")


@main.command()
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text")
def version(output_format: str) -> None:
    """Display toolret's version (`toolret --version` too), as `ruff version` does."""
    if output_format == "json":  # ruff's shape, without a newline after it
        click.echo(json.dumps({"version": __version__, "commit_info": None}, indent=2), nl=False)
    else:
        click.echo(f"toolret {__version__}")


@main.command()
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
@click.option("--silent", "-s", is_flag=True, help="Print nothing but errors.")
def clean(quiet: bool, silent: bool) -> None:
    """Clear any caches in the current directory and any subdirectories, as `ruff clean`
    does: every `.toolret_cache` directory, and the `cache-dir` of the working
    directory's configuration (or `TOOLRET_CACHE_DIR`) when it holds a toolret cache."""
    from lint_rules.cache import CACHE_DIR_NAME

    cwd = Path.cwd()
    found: list[Path] = []
    for directory, names, _files in os.walk(cwd):
        if CACHE_DIR_NAME in names:
            found.append(Path(directory) / CACHE_DIR_NAME)
        names[:] = [name for name in names if name != CACHE_DIR_NAME]
    configured: list[Path] = []
    from_env = os.environ.get("TOOLRET_CACHE_DIR")
    if from_env:
        configured.append(Path(from_env).absolute())
    try:
        settings = SettingsResolver()(cwd)
    except ConfigError as error:
        _fail(str(error))
    if settings.cache_dir is not None:
        configured.append(settings.cache_path() or cwd)
    found += [path for path in configured if _is_toolret_cache(path) and path not in found]
    failed = False
    for path in found:
        if not (quiet or silent):
            click.echo(f"Removing cache at: {_relative(path, cwd)}", err=True)
        try:
            if path.is_symlink() or not path.is_dir():
                path.unlink()
            else:
                shutil.rmtree(path)
        except OSError as error:
            click.echo(f"toolret: error: cannot remove {path}: {error.strerror or error}", err=True)
            failed = True
    sys.exit(EXIT_ERROR if failed else EXIT_CLEAN)


def _is_toolret_cache(path: Path) -> bool:
    """A directory toolret's cache made: its ``.gitignore`` says so (``cache.py``)."""
    try:
        head = (path / ".gitignore").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return path.is_dir() and head.startswith("# Automatically created by toolret.")


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
