"""Settings, read the way ruff reads its own, so a ruff user has nothing to relearn.

Where settings come from
------------------------
``pyproject.toml`` with a ``[tool.toolret]`` table, or ``toolret.toml`` /
``.toolret.toml`` with the same keys at top level. The closest config file to
a checked file wins (parent directories are searched upwards); within one
directory ``.toolret.toml`` beats ``toolret.toml`` beats ``pyproject.toml``,
ruff's order. A ``pyproject.toml`` without the table is not a config file,
so a package's own pyproject does not hide the repository's settings.
Nothing merges across files unless a file names a base with ``extend`` (ruff's
key: the base is read first and the file merged over it, ``_combine``); otherwise
the closest file is the whole story. Glob patterns in a file are relative to its
directory (``Settings.root``; a base's stay relative to the base's). ruff's run-wide
keys (``output-format``, ``fix``, ``unsafe-fixes``, ``show-fixes``, ``cache-dir``) are
read here and applied by the CLI from the working directory's file; ``include`` /
``extend-include`` choose what a walk checks; ``required-version`` is checked on read.

Keys are ruff's, with ruff's meaning: ``select`` / ``extend-select`` / ``ignore``,
``per-file-ignores`` / ``extend-per-file-ignores``, ``exclude`` (replaces the default
list) / ``extend-exclude``, ``respect-gitignore``, ``force-exclude``, ``target-version``
(the Python syntax ``TRV005`` checks against; without it the lower bound of ``[project]
requires-python`` of the ``pyproject.toml`` that holds the settings, as ruff infers it,
or, where that is absent, of Poetry's ``[tool.poetry.dependencies] python``, which ruff
does not read: a Poetry project that declares ``python = "^3.13"`` is not told its 3.12
syntax fails on 3.11); the frameworks have tables of their own. The rule selection keys
and the framework tables may also sit in a ``lint`` sub-table (``[tool.toolret.lint]``),
ruff's current layout; a key set both there and at the top level is an error. A typo is
an error: an unknown key, a value of the wrong type, or a rule selector that selects no
rule (``TRV110``) - a misspelt ``selct`` or code silently doing nothing is worse than a
failed run. Errors give the file, line and column with the source line and a caret, as
ruff's do (``toml_positions`` finds them), and the closest valid key or code.

Rule selection
--------------
ruff's algorithm, layer by layer (the config file, then each set of CLI
flags). The base set is the rules that are on by default; ``info`` rules (and
``TRV005``) are off until a selector names them (a code, a prefix such as ``TRV1``, or
``ALL``). Within one layer selectors apply from least to most specific
(``ALL`` < ``TRV`` < ``TRV1`` < ``TRV10`` < ``TRV101``), and at equal
specificity ``ignore`` wins. A layer with ``select`` starts from scratch, so
``--select`` on the command line also drops the config's ``ignore`` - ruff
documents the same. ``per-file-ignores`` then removes codes for matching
files, whatever their specificity.
"""

from __future__ import annotations

import codecs
import dataclasses
import difflib
import functools
import hashlib
import json
import keyword
import os
import re
import sys
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

from lint_rules.catalog import CODE_PREFIXES
from lint_rules.fileio import TEXT_FILE_LIMIT, read_regular
from lint_rules.globs import GlobSet, Token, parse_ruff_glob

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, TypeAdapter, ValidationError
    from pydantic_core import CoreSchema

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "CONFIG_FILENAMES",
    "DEFAULT_EXCLUDE",
    "DEFAULT_TARGET_VERSION",
    "TARGET_VERSIONS",
    "BrowserUseSettings",
    "ConfigError",
    "OpenAIAgentsSettings",
    "OpenAIChatSettings",
    "PolyAISettings",
    "RuleSelection",
    "Settings",
    "SettingsResolver",
    "find_config_file",
    "load_settings",
    "requires_python_target",
]

CONFIG_FILENAMES: Final = (".toolret.toml", "toolret.toml", "pyproject.toml")
"""Config file names in order of precedence within one directory (ruff's order)."""

DEFAULT_EXCLUDE: Final = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
    ".toolret_cache",
)
"""ruff's default ``exclude`` plus toolret's own cache directory."""

_SELECTOR = re.compile(r"ALL|TR[A-Z][0-9]{0,3}", re.ASCII)
"""What a selector looks like (``ALL``, or a code's letters and up to three digits);
``_known_selectors`` says whether it selects a rule."""

TARGET_VERSIONS: Final = (
    "py37",
    "py38",
    "py39",
    "py310",
    "py311",
    "py312",
    "py313",
    "py314",
    "py315",
)
"""ruff's ``target-version`` values (ruff 0.17.6)."""

DEFAULT_TARGET_VERSION: Final = "py311"
"""ruff's default ``target-version`` (ruff 0.17.6: ``ruff config target-version``)."""


class ConfigError(Exception):
    """Invalid configuration: a front end prints ``str(error)`` and exits 2.

    ``summary`` is the same on one line, without the source excerpts (for
    front ends that show one line, such as flake8's TRV002).
    """

    def __init__(self, message: str, *, summary: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.summary = summary if summary is not None else message


def _check_glob(pattern: str) -> str:
    """A ruff-style glob (``globs.parse_ruff_glob`` documents the syntax)."""
    if not pattern:
        raise ValueError("empty glob pattern")
    parse_ruff_glob(pattern)
    return pattern


EXTENSION_LANGUAGES = ("python", "pyi", "ipynb")
"""What a custom file extension can be checked as (ruff's ``extension`` values)."""


def _check_extension(extension: str) -> str:
    """A file extension without its dot (``ipy``, ``pyw``)."""
    if not extension or extension.startswith(".") or "/" in extension or "\\" in extension:
        raise ValueError(f"`{extension}` is not a file extension (give it without the dot)")
    return extension


def _check_language(language: str) -> str:
    if language not in EXTENSION_LANGUAGES:
        raise ValueError(
            f"unknown language `{language}` (expected one of "
            + ", ".join(f"`{name}`" for name in EXTENSION_LANGUAGES)
            + ")"
        )
    return language


def _check_selector(selector: str) -> str:
    """A selector must select a rule: a typo such as ``TRV110`` would silently disable a check."""
    if selector == "ALL" or selector in _known_selectors():
        return selector
    if _SELECTOR.fullmatch(selector) is None and selector.upper() not in _known_selectors():
        raise ValueError(
            f"Unknown rule selector: `{selector}` (expected `ALL` or a code prefix ("
            + ", ".join(f"`{prefix}`" for prefix in CODE_PREFIXES)
            + ") followed by up to three digits, e.g. `TRV1`, `TRV101`)"
        )
    raise ValueError(f"Unknown rule selector: `{selector}`{_selector_hint(selector)}")


@functools.cache
def _known_selectors() -> frozenset[str]:
    """Every code and every prefix that selects at least one rule (``TRV``, ``TRV1``, ...)."""
    from lint_rules.catalog import DEFAULT_ENABLED

    return frozenset(code[:length] for code in DEFAULT_ENABLED for length in range(3, 7))


def _selector_hint(selector: str) -> str:
    """``" (did you mean `TRV101`?)"`` when a full code is a typo away from one (one digit
    changed, or two neighbours swapped; ties go to the lowest), or only the case is wrong.
    A short prefix is a typo away from almost every other: no guess for those."""
    upper = selector.upper()
    if upper in _known_selectors():
        return f" (did you mean `{upper}`?)"
    if len(upper) < 6:
        return ""
    close = [
        known
        for known in sorted(_known_selectors())
        if len(known) == len(upper) and _one_typo(known, upper)
    ]
    return f" (did you mean `{close[0]}`?)" if close else ""


def _one_typo(known: str, written: str) -> bool:
    differ = [index for index, (a, b) in enumerate(zip(known, written, strict=True)) if a != b]
    if len(differ) == 1:
        return True
    first, *rest = differ or [0]
    return (
        rest == [first + 1]
        and known[first] == written[first + 1]
        and known[first + 1] == written[first]
    )


def _check_target_version(value: str) -> str:
    """One of ruff's ``target-version`` values (``py311``), with a guess for ``3.11``."""
    if value in TARGET_VERSIONS:
        return value
    expected = ", ".join(f"`{name}`" for name in TARGET_VERSIONS)
    digits = re.sub(r"^(?:python|py)", "", value.strip().lower()).replace(".", "")
    guess = f"py{digits}"
    hint = f" (did you mean `{guess}`?)" if guess in TARGET_VERSIONS else ""
    raise ValueError(f"unknown target version `{value}`{hint}; expected one of {expected}")


OUTPUT_FORMATS: Final = (
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
"""``output-format`` / ``--output-format`` values (ruff's); equal to ``formats.FORMATS``
(tested), listed here so that reading a config file does not import the formats."""

DEFAULT_INCLUDE: Final = ("*.py", "*.pyi", "*.ipynb")
"""ruff's default ``include`` without ``**/pyproject.toml`` (toolret checks no TOML)."""

_DEFAULT_SUFFIXES: Final = (".py", ".pyi", ".ipynb")


def _check_output_format(value: str) -> str:
    if value in OUTPUT_FORMATS:
        return value
    close = difflib.get_close_matches(value, OUTPUT_FORMATS, n=1)
    hint = f" (did you mean `{close[0]}`?)" if close else ""
    expected = ", ".join(f"`{name}`" for name in OUTPUT_FORMATS)
    raise ValueError(f"unknown output format `{value}`{hint}; expected one of {expected}")


_PEP440 = re.compile(
    r"v?(?:(?P<epoch>[0-9]+)!)?(?P<release>[0-9]+(?:\.[0-9]+)*)"
    r"(?:[-_.]?(?P<pre>a|b|c|rc|alpha|beta|pre|preview)[-_.]?(?P<pre_n>[0-9]+)?)?"
    r"(?P<post>-(?P<post_implicit>[0-9]+)|[-_.]?(?:post|rev|r)[-_.]?(?P<post_n>[0-9]+)?)?"
    r"(?:[-_.]?(?P<dev>dev)[-_.]?(?P<dev_n>[0-9]+)?)?"
    r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?",
    re.ASCII | re.IGNORECASE,
)
_PRE_ORDER: Final = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}
_OPERATORS: Final = ("~=", "===", "==", "!=", "<=", ">=", "<", ">")

_VersionKey = tuple[int, tuple[int, ...], tuple[float, int], tuple[float, int], tuple[float, int]]


def _version_key(text: str) -> _VersionKey | None:
    """PEP 440's ordering of a version (the local part left out), ``None`` if not one."""
    match = _PEP440.fullmatch(text.strip())
    if match is None:
        return None
    release = tuple(int(part) for part in match["release"].split("."))
    while len(release) > 1 and release[-1] == 0:
        release = release[:-1]
    post_number = match["post_implicit"] or match["post_n"]
    has_post = match["post"] is not None
    inf = float("inf")
    pre: tuple[float, int] = (
        (_PRE_ORDER[match["pre"].lower()], int(match["pre_n"] or 0)) if match["pre"] else (inf, 0)
    )
    post: tuple[float, int] = (1, int(post_number or 0)) if has_post else (-1, 0)
    dev: tuple[float, int] = (0, int(match["dev_n"] or 0)) if match["dev"] else (inf, 0)
    if match["dev"] and not match["pre"] and not has_post:
        pre = (-inf, 0)  # 1.0.dev1 sorts before 1.0a1
    return (int(match["epoch"] or 0), release, pre, post, dev)


def _specifier_clauses(value: str) -> list[tuple[str, str]]:
    """``(operator, version)`` per clause of a PEP 440 specifier; a bare version is ``==``.
    Raises ``ValueError`` with ruff's wording."""
    clauses: list[tuple[str, str]] = []
    for raw in value.split(","):
        clause = raw.strip()
        operator = next((op for op in _OPERATORS if clause.startswith(op)), None)
        version = clause[len(operator) :].strip() if operator else clause
        if operator is None and len(value.split(",")) > 1:
            raise ValueError(
                f"Failed to parse version: expected an operator such as `>=` in `{clause}`"
            )
        wildcard = version.endswith(".*") and operator in ("==", "!=")
        checked = version[:-2] if wildcard else version
        if not checked or (operator != "===" and _version_key(checked) is None):
            raise ValueError(f"Failed to parse version: `{clause}` is not a PEP 440 specifier")
        if operator == "~=" and "." not in checked.split("+")[0]:
            raise ValueError(f"Failed to parse version: `~=` needs two release parts: `{clause}`")
        clauses.append((operator or "==", version))
    return clauses


def _clause_holds(operator: str, version: str, running: str) -> bool:
    if operator == "===":
        return running.strip().lower() == version.strip().lower()
    have = _version_key(running)
    if have is None:
        return False
    if operator in ("==", "!=") and version.endswith(".*"):
        prefix = _version_key(version[:-2])
        assert prefix is not None
        wanted = prefix[1]
        padded = have[1] + (0,) * max(0, len(wanted) - len(have[1]))
        equal = have[0] == prefix[0] and padded[: len(wanted)] == wanted
        return equal if operator == "==" else not equal
    want = _version_key(version)
    assert want is not None
    if operator == "~=":  # ``~=2.2.1``: ``>=2.2.1`` and ``==2.2.*``
        written = _PEP440.fullmatch(version.strip())
        assert written is not None
        stem = tuple(int(part) for part in written["release"].split("."))[:-1]
        padded = have[1] + (0,) * max(0, len(stem) - len(have[1]))
        return have >= want and have[0] == want[0] and padded[: len(stem)] == stem
    return {
        "==": have == want,
        "!=": have != want,
        "<=": have <= want,
        ">=": have >= want,
        "<": have < want,
        ">": have > want,
    }[operator]


def version_matches(specifier: str, running: str) -> bool:
    """Whether ``running`` satisfies the PEP 440 ``specifier`` (a bare version is ``==``)."""
    return all(_clause_holds(op, version, running) for op, version in _specifier_clauses(specifier))


def _check_required_version(value: str) -> str:
    """ruff's ``required-version``: a PEP 440 specifier (a bare version means ``==``) that
    the running toolret must satisfy."""
    from lint_rules import __version__

    clauses = _specifier_clauses(value)
    if not version_matches(value, __version__):
        shown = ", ".join(f"{op}{version}" for op, version in clauses)
        raise ValueError(
            f"Required version `{shown}` does not match the running version `{__version__}`"
        )
    return value


def _check_cache_dir(value: str) -> str:
    if not value.strip():
        raise ValueError("empty path")
    return value


_SPECIFIER = re.compile(r"\s*(~=|===|==|!=|<=|>=|<|>)\s*(\S+?)\s*")
_VERSION = re.compile(
    r"v?(\d+)(?:\.(\d+))?(?:\.\d+)*(?:\.\*)?"
    r"(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?\d*)?"
    r"(?:[-_.]?(?:post|rev|r)[-_.]?\d*)?(?:[-_.]?dev[-_.]?\d*)?(?:\+[a-z0-9._]+)?",
    re.ASCII | re.IGNORECASE,
)


def requires_python_target(specifier: object) -> str | None:
    """The ``target-version`` ruff infers from ``[project] requires-python``: the lower
    bound of the specifier, as a minor version (``">=3.10"`` → ``py310``, ``"~=3.11"`` →
    ``py311``, ``">=3.9,<4"`` → ``py39``). ``None`` - nothing inferred - when the
    specifier has no lower bound, cannot be read, or bounds it below or above ruff's
    versions (``">=3.6"``), as in ruff."""
    if not isinstance(specifier, str):
        return None
    lower: tuple[int, int] | None = None
    for clause in specifier.split(","):
        written = _SPECIFIER.fullmatch(clause)
        if written is None:
            return None
        operator, version = written.groups()
        parts = _VERSION.fullmatch(version)
        if parts is None:
            return None
        if operator in (">=", ">", "==", "===", "~="):
            bound = (int(parts.group(1)), int(parts.group(2) or 0))
            lower = bound if lower is None else max(lower, bound)
    if lower is None:
        return None
    name = f"py{lower[0]}{lower[1]}"
    return name if name in TARGET_VERSIONS else None


def project_python_target(data: Mapping[str, object]) -> str | None:
    """The ``target-version`` a parsed ``pyproject.toml`` gives: its ``[project]
    requires-python`` (``requires_python_target``), or else the lower bound of Poetry's
    ``[tool.poetry.dependencies] python`` constraint (``"^3.13.0"``, ``"~3.11"``,
    ``">=3.10,<4"``, ``"^3.10 || ^3.11"`` → its lowest alternative)."""
    project = data.get("project")
    if isinstance(project, dict) and "requires-python" in project:
        return requires_python_target(project.get("requires-python"))
    tool = data.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    dependencies = poetry.get("dependencies") if isinstance(poetry, dict) else None
    constraint = dependencies.get("python") if isinstance(dependencies, dict) else None
    if not isinstance(constraint, str):
        return None
    found: list[str] = []
    for alternative in constraint.split("||"):
        clauses = []
        for clause in alternative.replace(" ", "").split(","):
            if clause[:1] in ("^", "~") and clause[1:2] != "=":
                clause = ">=" + clause[1:]
            elif clause[:1].isdigit():
                clause = "==" + clause
            clauses.append(clause)
        target = requires_python_target(",".join(clauses))
        if target is None:
            return None
        found.append(target)
    return min(found, key=lambda t: TARGET_VERSIONS.index(t)) if found else None


_CODE_PREFIX = re.compile(r"[A-Z]+[0-9]*", re.ASCII)


def _check_code_prefix(prefix: str) -> str:
    """An ``external`` entry: another tool's rule code or code prefix (``E501``, ``PLR``)."""
    if _CODE_PREFIX.fullmatch(prefix) is None:
        raise ValueError(
            f"`{prefix}` is not a rule code or code prefix (uppercase letters, then "
            "digits: `E501`, `F`, `PLR09`)"
        )
    return prefix


def _check_name(name: str) -> str:
    if not name.strip():
        raise ValueError("empty name")
    return name


def _check_identifier(name: str) -> str:
    """A keyword argument's name: anything else could never be written in a call."""
    _check_name(name)
    if keyword.iskeyword(name):
        raise ValueError(f"`{name}` is a Python keyword, never a keyword argument's name")
    if not name.isidentifier():
        raise ValueError(f"`{name}` is not a Python identifier (a keyword argument's name)")
    return name


def _specificity(selector: str) -> int:
    """ruff's ordering: ``ALL`` < ``TRV`` < ``TRV1`` < ``TRV10`` < ``TRV101``."""
    return -1 if selector == "ALL" else len(selector) - 3


def _selects(selector: str, code: str) -> bool:
    return selector == "ALL" or code.startswith(selector)


def _absolute(path: Path) -> Path:
    """Absolute and normalised (``..`` folded), without resolving symlinks, as ruff does."""
    return Path(os.path.abspath(path))


# ---------------------------------------------------------------------------
# The models
#
# Plain frozen dataclasses: importing pydantic costs more than checking a small
# tree, so only reading a config file does (``_adapter``). The ``Annotated``
# metadata and ``__pydantic_config__`` below are what pydantic then reads;
# nothing else looks at them.


class _After:
    """``Annotated`` metadata: ``check`` runs after pydantic's own validation of the type."""

    __slots__ = ("check",)

    def __init__(self, check: Callable[[Any], Any]) -> None:
        self.check = check

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic_core import core_schema

        return core_schema.no_info_after_validator_function(self.check, handler(source))


class _StrictBool:
    """``Annotated`` metadata: a strict boolean (``"yes"`` or ``1`` is none)."""

    __slots__ = ()

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        from pydantic_core import core_schema

        return core_schema.bool_schema(strict=True)


Selector = Annotated[str, _After(_check_selector)]
Glob = Annotated[str, _After(_check_glob)]
Extension = Annotated[str, _After(_check_extension)]
Language = Annotated[str, _After(_check_language)]
Name = Annotated[str, _After(_check_name)]
CodePrefix = Annotated[str, _After(_check_code_prefix)]
Identifier = Annotated[str, _After(_check_identifier)]
TargetVersion = Annotated[str, _After(_check_target_version)]
StrictBool = Annotated[bool, _StrictBool()]
OutputFormat = Annotated[str, _After(_check_output_format)]
RequiredVersion = Annotated[str, _After(_check_required_version)]
CacheDir = Annotated[str, _After(_check_cache_dir)]
ConfigPath = Annotated[str, _After(_check_name)]


def _kebab(name: str) -> str:
    return name.replace("_", "-")


_TABLE_CONFIG: Final[dict[str, Any]] = {
    "extra": "forbid",
    "populate_by_name": True,
    "alias_generator": _kebab,
}
"""pydantic's config for every table: kebab-case keys (Python names in code), no others."""


@dataclass(frozen=True, slots=True)
class PolyAISettings:
    """``[tool.toolret.polyai]``."""

    __pydantic_config__ = _TABLE_CONFIG

    extra_return_keys: tuple[Name, ...] = ()
    """Return-dict keys accepted besides PolyAI's documented ones (TRV105)."""


@dataclass(frozen=True, slots=True)
class BrowserUseSettings:
    """``[tool.toolret.browser-use]``."""

    __pydantic_config__ = _TABLE_CONFIG

    extra_action_result_fields: tuple[Identifier, ...] = ()
    """``ActionResult`` keywords accepted besides the known fields (TRV204)."""


@dataclass(frozen=True, slots=True)
class OpenAIAgentsSettings:
    """``[tool.toolret.openai-agents]``."""

    __pydantic_config__ = _TABLE_CONFIG

    extra_agent_arguments: tuple[Name, ...] = ()
    """``Agent(...)`` keywords accepted besides the dataclass fields (TRV310)."""


@dataclass(frozen=True, slots=True)
class OpenAIChatSettings:
    """``[tool.toolret.openai-chat]``."""

    __pydantic_config__ = _TABLE_CONFIG

    extra_clients: tuple[Name, ...] = ()
    """Modules besides ``openai`` whose Chat Completions clients count (``groq``, ``litellm``)."""


@dataclass(frozen=True, slots=True)
class RuleSelection:
    """One layer of rule selection: the config file's, or one set of CLI flags."""

    __pydantic_config__ = _TABLE_CONFIG

    select: tuple[Selector, ...] | None = None
    extend_select: tuple[Selector, ...] = ()
    ignore: tuple[Selector, ...] = ()


class _PathMatcher:
    """Patterns matched like ruff: a path matches one if its basename or its absolute path does.

    The patterns are compiled into one automaton per form (``globs``: linear in the path,
    whatever the pattern), so testing a path costs a pass over its basename and one over
    its path below the root, however long the ``exclude`` list is. A relative pattern is
    matched against the path below ``root``; an absolute one against the whole path.
    """

    __slots__ = ("_absolute", "_basename", "_prefix", "_relative")

    def __init__(self, root: str, patterns: Iterable[str]) -> None:
        self._prefix = root.rstrip("/") + "/"
        basename: list[tuple[Token, ...]] = []
        relative: list[tuple[Token, ...]] = []
        absolute: list[tuple[Token, ...]] = []
        for pattern in patterns:
            pattern = pattern.rstrip("/") or pattern
            basename.append(parse_ruff_glob(pattern))
            if os.path.isabs(pattern):
                absolute.append(parse_ruff_glob(Path(pattern).as_posix()))
            else:
                below = pattern
                while below.startswith("./"):
                    below = below[2:]
                relative.append(parse_ruff_glob(below))
        self._basename = GlobSet(basename)
        self._relative = GlobSet(relative)
        self._absolute = GlobSet(absolute) if absolute else None

    def matches(self, absolute: str, basename: str) -> bool:
        if self._basename.matches(basename):
            return True
        if absolute.startswith(self._prefix) and self._relative.matches(
            absolute[len(self._prefix) :]
        ):
            return True
        return self._absolute is not None and self._absolute.matches(absolute)


@functools.lru_cache(maxsize=256)
def _exclusion_matcher(root: str, patterns: tuple[str, ...]) -> _PathMatcher:
    return _PathMatcher(root, patterns)


@functools.lru_cache(maxsize=256)
def _per_file_matchers(
    root: str, patterns: tuple[str, ...]
) -> tuple[tuple[_PathMatcher, bool], ...]:
    """One matcher per ``per-file-ignores`` pattern, with whether it is negated (``!``)."""
    return tuple(
        (_PathMatcher(root, [pattern.removeprefix("!")]), pattern.startswith("!"))
        for pattern in patterns
    )


@functools.lru_cache(maxsize=256)
def _resolve_selection(
    layers: tuple[RuleSelection, ...], rules: tuple[tuple[str, bool], ...]
) -> frozenset[str]:
    codes = [code for code, _ in rules]
    enabled = {code for code, default in rules if default}
    carried: tuple[str, ...] = ()
    for layer in layers:
        updates: dict[str, bool] = {}
        ignores = layer.ignore + carried
        carried = ()
        for level in range(-1, 4):
            for selector in chain(layer.select or (), layer.extend_select):
                if _specificity(selector) == level:
                    updates.update((code, True) for code in codes if _selects(selector, code))
            for selector in ignores:
                if _specificity(selector) == level:
                    updates.update((code, False) for code in codes if _selects(selector, code))
        if layer.select is not None:
            enabled = {code for code, on in updates.items() if on}
            # As in ruff: ``select = []`` with only ``ignore`` hands its ignores to the next layer.
            if not layer.select and not layer.extend_select and layer.ignore:
                carried = layer.ignore
        else:
            for code, on in updates.items():
                if on:
                    enabled.add(code)
                else:
                    enabled.discard(code)
    return frozenset(enabled)


@dataclass(frozen=True)
class Settings:
    """The settings that govern one file: a config file's, or the defaults.

    ``Settings()`` is the default configuration. Instances are immutable and
    hashable; ``fingerprint()`` is a stable digest for cache keys. The
    constructor trusts its (typed) arguments; ``from_mapping`` validates.
    Copy with ``dataclasses.replace``: derived values (``functools.cached_property``,
    kept in the instance's ``__dict__``) are computed afresh for the copy.
    """

    __pydantic_config__ = _TABLE_CONFIG

    select: tuple[Selector, ...] | None = None
    extend_select: tuple[Selector, ...] = ()
    ignore: tuple[Selector, ...] = ()
    fixable: tuple[Selector, ...] | None = None
    """Rules whose fixes ``--fix`` applies (``None``: ruff's default, ``["ALL"]``)."""
    unfixable: tuple[Selector, ...] = ()
    extend_fixable: tuple[Selector, ...] = ()
    per_file_ignores: dict[Glob, tuple[Selector, ...]] = field(default_factory=dict)
    extend_per_file_ignores: dict[Glob, tuple[Selector, ...]] = field(default_factory=dict)
    external: tuple[CodePrefix, ...] = ()
    """ruff's ``lint.external``: code prefixes of other tools that ``TRV004`` (unused-noqa)
    must neither report as unused nor as unknown in a ``# noqa``."""
    exclude: tuple[Glob, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[Glob, ...] = ()
    respect_gitignore: StrictBool = True
    force_exclude: StrictBool = False
    extension: dict[Extension, Language] = field(default_factory=dict)
    """Custom file extensions and what they are checked as (ruff's ``extension``):
    ``{"ipy" = "python", "nb" = "ipynb"}``; walked like ``*.py`` and ``*.ipynb``."""
    target_version: TargetVersion | None = None
    """ruff's ``target-version`` (``py37`` … ``py315``): the oldest Python the project
    supports, whose syntax ``TRV005`` checks. ``None``: not set (nor inferred from
    ``requires-python``), ruff's default ``DEFAULT_TARGET_VERSION`` applies."""
    include: tuple[Glob, ...] = DEFAULT_INCLUDE
    """The files a directory's walk checks (ruff's ``include``; replaces the default)."""
    extend_include: tuple[Glob, ...] = ()
    """Files a walk checks in addition to ``include`` (ruff's ``extend-include``)."""
    extend: ConfigPath | None = None
    """ruff's ``extend``: the path of a configuration file (``~`` and ``$VARS`` expanded,
    relative to this file's directory) whose settings this file's are merged over."""
    required_version: RequiredVersion | None = None
    """ruff's ``required-version``: a PEP 440 specifier the running toolret must satisfy
    (a bare version means ``==``); checked when the file is read."""
    output_format: OutputFormat | None = None
    """``--output-format``'s default (ruff's key; the flag wins)."""
    fix: StrictBool | None = None
    """``--fix``'s default (ruff's key; ``--no-fix`` wins)."""
    unsafe_fixes: StrictBool | None = None
    """``--unsafe-fixes``'s default (ruff's key; ``--no-unsafe-fixes`` wins)."""
    show_fixes: StrictBool | None = None
    """``--show-fixes``'s default (ruff's key; ``--no-show-fixes`` wins)."""
    cache_dir: CacheDir | None = None
    """``--cache-dir``'s default, relative to the config file's directory (ruff's key)."""
    polyai: PolyAISettings = PolyAISettings()
    browser_use: BrowserUseSettings = BrowserUseSettings()
    openai_agents: OpenAIAgentsSettings = OpenAIAgentsSettings()
    openai_chat: OpenAIChatSettings = OpenAIChatSettings()
    root: Path | None = None
    """The config file's directory: globs are relative to it. ``None``: the working directory."""
    cli_selections: tuple[RuleSelection, ...] = ()
    """Rule-selection layers from command-line flags, applied after the file's."""
    cli_fixable: tuple[RuleSelection, ...] = ()
    """``--fixable``/``--extend-fixable``/``--unfixable`` layers (as ``select``/
    ``extend_select``/``ignore``), applied after the file's."""
    base_selections: tuple[RuleSelection, ...] = ()
    """Rule-selection layers of the files ``extend`` named, applied before the file's."""
    base_fixable: tuple[RuleSelection, ...] = ()
    """``fixable`` layers of the files ``extend`` named, applied before the file's."""

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Settings:
        """Validated settings from field names (Python or kebab-case) to plain values
        (lists for tuples, dicts for tables). Raises pydantic's ``ValidationError``,
        a ``ValueError``."""
        settings: Settings = _adapter().validate_python(data)
        return settings

    # -- identity -----------------------------------------------------------

    def fingerprint(self) -> str:
        """sha256 of the settings as canonical JSON: equal settings, equal fingerprint."""
        return self._fingerprint

    @functools.cached_property
    def _fingerprint(self) -> str:
        payload = json.dumps(
            dataclasses.asdict(self), sort_keys=True, separators=(",", ":"), default=str
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()

    def __hash__(self) -> int:
        # Equality is the generated one, on the fields alone (not the cached values).
        return hash(self._fingerprint)

    @property
    def python_version(self) -> tuple[int, int]:
        """The target Python as ``(3, 11)``: ``target_version``, or ruff's default."""
        name = self.target_version or DEFAULT_TARGET_VERSION
        return (int(name[2]), int(name[3:]))

    # -- overrides ----------------------------------------------------------

    def with_overrides(
        self,
        *,
        select: Sequence[str] | None = None,
        extend_select: Sequence[str] = (),
        ignore: Sequence[str] = (),
        per_file_ignores: Mapping[str, Sequence[str]] | None = None,
        extend_per_file_ignores: Mapping[str, Sequence[str]] | None = None,
        exclude: Sequence[str] | None = None,
        extend_exclude: Sequence[str] = (),
        respect_gitignore: bool | None = None,
        force_exclude: bool | None = None,
        fixable: Sequence[str] | None = None,
        unfixable: Sequence[str] = (),
        extend_fixable: Sequence[str] = (),
        extension: Mapping[str, str] | None = None,
        target_version: str | None = None,
    ) -> Settings:
        """These settings with command-line flags applied, as ruff applies them.

        ``select`` replaces the rule selection (config ``ignore`` included);
        ``extend_select`` and ``ignore`` adjust it. ``per_file_ignores`` and
        ``exclude`` replace the config's lists, the ``extend_`` ones add to them;
        ``target_version`` replaces the config's (and what ``requires-python`` gave).
        Patterns stay relative to ``root``. Raises ``ConfigError`` naming the flag.
        """
        problems: list[str] = []

        def checked(
            flag: str, check: Callable[[str], str], values: Iterable[str]
        ) -> tuple[str, ...]:
            items = tuple(values)
            if flag.endswith("per-file-ignores"):  # ruff's metavar for these
                shown = f"--{flag} <{flag.upper().replace('-', '_')}>"
            elif check is _check_selector:
                shown = f"--{flag} <RULE_CODE>"
            elif check is _check_target_version:
                shown = f"--{flag} <TARGET_VERSION>"
            else:
                shown = f"--{flag}"
            for value in items:
                try:
                    check(value)
                except ValueError as error:  # clap's wording, as ruff prints it
                    problems.append(f"invalid value {value!r} for {shown!r}: {error}")
            return items

        def table(flag: str, entries: Mapping[str, Iterable[str]]) -> dict[str, tuple[str, ...]]:
            result = {}
            for pattern, codes in entries.items():
                checked(flag, _check_glob, (pattern,))
                result[pattern] = checked(flag, _check_selector, codes)
            return result

        # In field order, as pydantic reported them (the CLI layers are the last field).
        changes: dict[str, Any] = {}
        if per_file_ignores is not None:
            changes["per_file_ignores"] = table("per-file-ignores", per_file_ignores)
        if extend_per_file_ignores:
            merged = {key: list(value) for key, value in self.extend_per_file_ignores.items()}
            for pattern, selectors in extend_per_file_ignores.items():
                merged.setdefault(pattern, []).extend(selectors)
            changes["extend_per_file_ignores"] = table("extend-per-file-ignores", merged)
        if exclude is not None:
            changes["exclude"] = checked("exclude", _check_glob, exclude)
        if extend_exclude:
            added = checked("extend-exclude", _check_glob, extend_exclude)
            changes["extend_exclude"] = self.extend_exclude + added
        if respect_gitignore is not None:
            changes["respect_gitignore"] = respect_gitignore
        if force_exclude is not None:
            changes["force_exclude"] = force_exclude
        if extension:
            mapping = dict(self.extension)
            for name, language in extension.items():
                checked("extension", _check_extension, (name,))
                checked("extension", _check_language, (language,))
                mapping[name] = language
            changes["extension"] = mapping
        if target_version is not None:
            checked("target-version", _check_target_version, (target_version,))
            changes["target_version"] = target_version

        def layer(
            names: tuple[str, str, str],
            chosen: Sequence[str] | None,
            extend: Sequence[str],
            dropped: Sequence[str],
        ) -> RuleSelection:
            """A command-line selection layer (``--select`` or ``--fixable`` and kin)."""
            return RuleSelection(
                select=None if chosen is None else checked(names[0], _check_selector, chosen),
                extend_select=checked(names[1], _check_selector, extend),
                ignore=checked(names[2], _check_selector, dropped),
            )

        if select is not None or extend_select or ignore:
            names = ("select", "extend-select", "ignore")
            selection = layer(names, select, extend_select, ignore)
            changes["cli_selections"] = (*self.cli_selections, selection)
        if fixable is not None or unfixable or extend_fixable:
            names = ("fixable", "extend-fixable", "unfixable")
            selection = layer(names, fixable, extend_fixable, unfixable)
            changes["cli_fixable"] = (*self.cli_fixable, selection)
        if problems:
            raise ConfigError(
                "\n".join(f"toolret: error: {problem}" for problem in problems),
                summary="; ".join(problems),
            )
        return dataclasses.replace(self, **changes) if changes else self

    # -- rule selection -----------------------------------------------------

    def _layers(self) -> tuple[RuleSelection, ...]:
        return self._selection_layers

    @functools.cached_property
    def _selection_layers(self) -> tuple[RuleSelection, ...]:
        own = RuleSelection(
            select=self.select, extend_select=self.extend_select, ignore=self.ignore
        )
        return (*self.base_selections, own, *self.cli_selections)

    def enabled_codes(self, all_rules: Mapping[str, bool]) -> frozenset[str]:
        """The codes enabled for any file, given every code and whether it is on by default."""
        return _resolve_selection(self._layers(), tuple(sorted(all_rules.items())))

    def fixable_codes(self, all_codes: Iterable[str]) -> frozenset[str]:
        """The codes whose fixes apply: ruff's ``fixable`` (default ``ALL``) /
        ``extend-fixable`` / ``unfixable``, resolved as ``select`` / ``extend-select`` /
        ``ignore`` are (by specificity, layer by layer, the command line last) but
        starting from every rule."""
        own = RuleSelection(
            select=self.fixable, extend_select=self.extend_fixable, ignore=self.unfixable
        )
        rules = tuple(sorted((code, True) for code in all_codes))
        return _resolve_selection((*self.base_fixable, own, *self.cli_fixable), rules)

    def ignored_for_file(self, path: Path) -> frozenset[str]:
        """The ``per-file-ignores`` selectors (codes, prefixes or ``ALL``) that match ``path``."""
        absolute = self._absolute_posix(path)
        basename = absolute.rsplit("/", 1)[-1]
        found: set[str] = set()
        for table in (self.per_file_ignores, self.extend_per_file_ignores):
            if not table:
                continue
            patterns = tuple(table)
            matchers = _per_file_matchers(self._root_posix(), patterns)
            for pattern, (matcher, negated) in zip(patterns, matchers, strict=True):
                if matcher.matches(absolute, basename) != negated:
                    found.update(table[pattern])
        return frozenset(found)

    def enabled_codes_for(self, path: Path, all_rules: Mapping[str, bool]) -> frozenset[str]:
        """``enabled_codes`` minus what ``per-file-ignores`` removes for ``path``."""
        enabled = self.enabled_codes(all_rules)
        ignored = self.ignored_for_file(path)
        if not ignored:
            return enabled
        return frozenset(
            code for code in enabled if not any(_selects(selector, code) for selector in ignored)
        )

    def unknown_selectors(self, all_rules: Iterable[str]) -> tuple[str, ...]:
        """Selectors (in any selection or per-file list) that match none of ``all_rules``.

        Validation (``from_mapping``, ``with_overrides``) already refuses a selector that
        selects no rule of the catalog; this is for settings built directly in code.
        """
        codes = tuple(all_rules)
        selectors = chain(
            *(
                chain(layer.select or (), layer.extend_select, layer.ignore)
                for layer in self._layers()
            ),
            *self.per_file_ignores.values(),
            *self.extend_per_file_ignores.values(),
        )
        unknown = {
            selector
            for selector in selectors
            if not any(_selects(selector, code) for code in codes)
        }
        return tuple(sorted(unknown))

    # -- file selection -----------------------------------------------------

    def is_excluded(self, path: Path) -> bool:
        """Whether ``exclude`` / ``extend-exclude`` match ``path`` itself (not its parents).

        A pattern matches the basename (``build`` excludes every ``build``) or
        the path relative to ``root`` (``src/generated/*.py``), ruff's rule.
        As in ruff, a leading ``!`` is literal here, not a negation.
        """
        return self.is_excluded_posix(self._absolute_posix(path))

    @functools.cached_property
    def extension_suffixes(self) -> tuple[str, ...]:
        """``.ext`` of every custom extension: walked like ``*.py``."""
        return tuple(f".{name}" for name in self.extension)

    @functools.cached_property
    def notebook_suffixes(self) -> tuple[str, ...]:
        """``.ext`` of the custom extensions checked as notebooks."""
        return tuple(f".{name}" for name, language in self.extension.items() if language == "ipynb")

    def is_excluded_posix(self, absolute: str) -> bool:
        """``is_excluded`` for an absolute, normalised POSIX path string (the walk's hot path)."""
        return self._excluder.matches(absolute, absolute.rsplit("/", 1)[-1])

    def walks(self, absolute: str, basename: str) -> bool:
        """Whether a directory's walk checks the file at ``absolute`` (a normalised POSIX
        path): it matches ``include`` or ``extend-include`` (as ``exclude`` matches, by
        basename or path below ``root``), or has a custom ``extension``. Paths named on
        the command line are checked whatever these say, as in ruff."""
        if self.extension and basename.endswith(self.extension_suffixes):
            return True
        if self.include == DEFAULT_INCLUDE and not self.extend_include:
            return basename.endswith(_DEFAULT_SUFFIXES)
        return self._includer.matches(absolute, basename)

    @functools.cached_property
    def _includer(self) -> _PathMatcher:
        return _exclusion_matcher(self._root_posix(), self.include + self.extend_include)

    def cache_path(self) -> Path | None:
        """``cache-dir`` as an absolute path (``~`` and ``$VARS`` expanded, relative to
        ``root``); ``None`` when not set."""
        if self.cache_dir is None:
            return None
        expanded = Path(os.path.expandvars(os.path.expanduser(self.cache_dir)))
        return _absolute((self.root if self.root is not None else Path.cwd()) / expanded)

    @functools.cached_property
    def _excluder(self) -> _PathMatcher:
        return _exclusion_matcher(self._root_posix(), self.exclude + self.extend_exclude)

    def _root_posix(self) -> str:
        return _absolute(self.root if self.root is not None else Path.cwd()).as_posix()

    def _absolute_posix(self, path: Path) -> str:
        if not path.is_absolute():
            path = (self.root if self.root is not None else Path.cwd()) / path
        return _absolute(path).as_posix()


# ---------------------------------------------------------------------------
# Reading config files


@functools.cache
def _adapter() -> TypeAdapter[Settings]:
    """pydantic's validator for ``Settings``, built (and pydantic imported) on first use."""
    from pydantic import TypeAdapter

    return TypeAdapter(Settings)


def _allowed_keys(model: type[Any]) -> dict[str, str]:
    """TOML key -> field name; ``root`` and the CLI layers cannot be written in a file."""
    return {
        _kebab(item.name): item.name
        for item in dataclasses.fields(model)
        if item.name not in _INTERNAL_FIELDS
    }


_INTERNAL_FIELDS: Final = frozenset(
    {"root", "cli_selections", "cli_fixable", "base_selections", "base_fixable"}
)
"""``Settings`` fields no file can set."""


_SELECTION_KEYS: Final = (
    "select",
    "extend-select",
    "ignore",
    "fixable",
    "unfixable",
    "extend-fixable",
    "per-file-ignores",
    "extend-per-file-ignores",
)
"""The keys whose lists hold rule selectors."""
_LINT_KEYS: Final = (
    *_SELECTION_KEYS,
    "external",
    "polyai",
    "browser-use",
    "openai-agents",
    "openai-chat",
)
"""What ``[tool.toolret.lint]`` may hold (ruff's current layout): rule selection, rule settings."""

KeyPath = tuple[str | int, ...]


class _Problems:
    """Config errors of one file, each with its position in the text when it can be found."""

    def __init__(self, path: Path, text: str, base: KeyPath) -> None:
        self.path = path
        self.text = text
        self.base = base
        self.lint_keys: frozenset[str] = frozenset()
        self._positions: Any = None

    def key_path(self, key: str) -> KeyPath:
        """The TOML path of a settings key, under ``lint`` if it was written there."""
        return (*self.base, "lint", key) if key in self.lint_keys else (*self.base, key)

    def _order(self, item: tuple[KeyPath, bool, str]) -> int:
        """Sort key: the offset of an item's value, so errors are listed in file order."""
        found = self._positions.find(item[0], minimum=max(1, len(self.base)))
        return -1 if found is None else int(found[0].value)

    def error(self, items: Sequence[tuple[KeyPath, bool, str]]) -> ConfigError:
        """``items``: (TOML path, point at the key rather than the value, message)."""
        from lint_rules.toml_positions import TomlPositions

        if self._positions is None:
            self._positions = TomlPositions(self.text)
        shown = _shown_path(self.path)
        blocks: list[str] = []
        lines: list[str] = []
        for where, at_key, message in sorted(items, key=self._order):
            found = self._positions.find(where, minimum=max(1, len(self.base)))
            if found is None:
                line = f"{shown}: `{_dotted(where)}`: {message}"
                blocks.append(line)
            else:
                span, exact = found
                offset = span.key if at_key and exact else span.value
                end = offset + 1 if at_key and exact else span.value_end
                row, column = self._positions.line_column(offset)
                line = f"{shown}:{row}:{column}: {message}"
                if not exact:
                    line += f" (in `{_dotted(where)}`)"
                blocks.append(f"{line}\n{self._positions.snippet(offset, end)}")
            lines.append(line)
        return ConfigError(
            f"toolret: invalid configuration in {shown}\n" + "\n".join(blocks),
            summary="; ".join(lines),
        )


def _shown_path(path: Path) -> str:
    """The path relative to the working directory when it is below it, as ruff shows paths."""
    try:
        return str(path.relative_to(_absolute(Path.cwd())))
    except ValueError:
        return str(path)


def _dotted(where: KeyPath) -> str:
    dotted = ""
    for part in where:
        if isinstance(part, int):
            dotted += f"[{part}]"
        else:
            dotted = f"{dotted}.{_toml_key(part)}" if dotted else _toml_key(part)
    return dotted


def _unknown_key(where: KeyPath, key: str, allowed: Iterable[str]) -> tuple[KeyPath, bool, str]:
    close = difflib.get_close_matches(key, list(allowed), n=1)
    hint = f" (did you mean `{close[0]}`?)" if close else ""
    return where, True, f"unknown key `{_dotted(where)}`{hint}"


def _check_keys(
    table: Mapping[str, Any], model: type[Any], problems: _Problems, parent: KeyPath | None
) -> None:
    """Unknown keys and non-tables where a table belongs; ``parent`` ``None``: the top level."""
    allowed = _allowed_keys(model)
    hints = typing.get_type_hints(model)
    for key, value in table.items():
        where = problems.key_path(key) if parent is None else (*parent, key)
        if key not in allowed:
            raise problems.error([_unknown_key(where, key, allowed)])
        annotation = hints[allowed[key]]
        if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
            if not isinstance(value, dict):
                raise problems.error([(where, False, f"expected a table, got {_kind(value)}")])
            _check_keys(value, annotation, problems, where)


def _merge_lint(table: Mapping[str, Any], problems: _Problems) -> dict[str, Any]:
    """The table with ``lint``'s keys moved to the top level (where ``Settings`` has them)."""
    values = dict(table)
    if "lint" not in values:
        return values
    lint = values.pop("lint")
    where = (*problems.base, "lint")
    if not isinstance(lint, dict):
        raise problems.error([(where, False, f"expected a table, got {_kind(lint)}")])
    for key in lint:
        if key in _LINT_KEYS:
            continue
        if key in _allowed_keys(Settings):
            top = f"`[{_dotted(problems.base)}]`" if problems.base else "the top level"
            message = f"`{key}` cannot be set in `[{_dotted(where)}]`; set it at {top}"
            raise problems.error([((*where, key), True, message)])
        raise problems.error([_unknown_key((*where, key), key, _LINT_KEYS)])
    both = [key for key in lint if key in values]
    if both:
        top = f"`[{_dotted(problems.base)}]`" if problems.base else "the top level"
        raise problems.error(
            [
                (
                    (*where, key),
                    True,
                    f"`{key}` is set both in `[{_dotted(where)}]` and at {top}; keep one "
                    "(the `lint` table is ruff's current layout)",
                )
                for key in both
            ]
        )
    problems.lint_keys = frozenset(lint)
    values.update(lint)
    return values


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _invalid(path: Path, detail: str) -> str:
    return f"toolret: invalid configuration in {_shown_path(path)}: {detail}"


def _kind(value: object) -> str:
    """A TOML value's type in plain words."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def _items_of(loc: Sequence[int | str]) -> str:
    """What a list at ``loc`` holds, in plain words."""
    head = loc[0] if loc else ""
    if head in _SELECTION_KEYS:
        return "rule selectors"
    if head in ("exclude", "extend-exclude"):
        return "glob patterns"
    if head == "external":
        return "rule code prefixes"
    return "names"


def _plain(error: Mapping[str, Any]) -> str:
    """pydantic's error in the words of the config file."""
    kind = error["type"]
    got = _kind(error.get("input"))
    if kind == "value_error":
        return str(error["ctx"]["error"])
    if kind in ("tuple_type", "list_type", "iterable_type"):
        return f"expected an array of {_items_of(error['loc'])}, got {got}"
    if kind == "string_type":
        return f"expected a string, got {got}"
    if kind in ("bool_type", "bool_parsing"):
        return f"expected `true` or `false`, got {got}"
    if kind in ("dict_type", "dataclass_type", "dataclass_exact_type"):
        return f"expected a table, got {got}"
    return str(error["msg"])


def _value_problems(error: ValidationError, problems: _Problems) -> list[tuple[KeyPath, bool, str]]:
    items: list[tuple[KeyPath, bool, str]] = []
    for item in error.errors():
        loc = tuple(item["loc"])
        at_key = bool(loc) and loc[-1] == "[key]"
        parts = tuple(part for part in loc if part != "[key]")
        where = problems.key_path(str(parts[0])) + parts[1:] if parts else problems.base
        items.append((where, at_key, _plain(item)))
    return items


def _read_text(path: Path) -> str:
    """A config file's text; a UTF-8 byte order mark (Windows editors write one) is dropped,
    so positions count from what an editor shows."""
    try:
        data = read_regular(path, limit=TEXT_FILE_LIMIT)
    except OSError as error:
        raise ConfigError(
            f"toolret: cannot read configuration file {path}: {error.strerror}"
        ) from None
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        # Everything before the first bad byte is UTF-8: that gives its line and column.
        before = data[: error.start].decode("utf-8")
        text = data.decode("utf-8", errors="replace")
        detail = f"not UTF-8: {error.reason} (byte 0x{data[error.start]:02x})"
        raise _error_at(path, text, len(before), len(before) + 1, detail) from None


def _parse_toml(path: Path, text: str) -> dict[str, Any]:
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _syntax_error(path, text, str(error)) from None
    except RecursionError:  # the TOML reader recurses per nested array or inline table
        raise _nesting_error(path, text) from None
    return data


def _nesting_error(path: Path, text: str) -> ConfigError:
    """Too deep for tomllib: the error points at the value that nests deepest."""
    from lint_rules.toml_positions import deepest_nesting

    found = deepest_nesting(text)
    if found is None:  # tomllib's own frames ran out (called from deep down): no culprit
        return ConfigError(_invalid(path, "TOML parse error: nested too deeply"))
    offset, depth = found
    message = (
        f"TOML parse error: nested too deeply ({depth} arrays or inline tables inside one another)"
    )
    return _error_at(path, text, offset, offset + 1, message)


def _syntax_error(path: Path, text: str, message: str) -> ConfigError:
    """tomllib's error with its position shown as ruff shows it."""
    match = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", message, re.DOTALL)
    if match is None:
        return ConfigError(_invalid(path, f"TOML parse error: {message}"))
    row, column = int(match.group(2)), int(match.group(3))
    offset = sum(len(line) + 1 for line in text.split("\n")[: row - 1]) + column - 1
    return _error_at(path, text, offset, offset + 1, f"TOML parse error: {match.group(1)}")


def _error_at(path: Path, text: str, offset: int, end: int, message: str) -> ConfigError:
    """An error at ``offset`` of ``text``: FILE:LINE:COL, the source line, carets to ``end``."""
    from lint_rules.toml_positions import TomlPositions

    positions = TomlPositions(text, scan=False)
    row, column = positions.line_column(offset)
    shown = _shown_path(path)
    line = f"{shown}:{row}:{column}: {message}"
    snippet = positions.snippet(offset, end)
    return ConfigError(
        f"toolret: invalid configuration in {shown}\n{line}\n{snippet}", summary=line
    )


def _pyproject_table_error(path: Path, text: str) -> ConfigError:
    """A ``toolret.toml`` that kept pyproject's ``[tool.toolret]``: its keys would all be
    unknown, so say what to change, at the first header or key under ``tool.toolret``."""
    from lint_rules.toml_positions import TomlPositions

    prefix = ("tool", "toolret")
    under = [
        (span.key, where)
        for where, span in TomlPositions(text).spans.items()
        if where[:2] == prefix
    ]
    intro = (
        f"`{path.name}` has its settings at the top level; `[tool.toolret]` is the table "
        "of `pyproject.toml`"
    )
    if not under:
        return ConfigError(_invalid(path, f"{intro}: drop the `tool.toolret` prefix"))
    offset, where = min(under)
    end = offset + 1
    if text[offset] == "[":  # a table header: underline it, and name the one to write
        line_end = text.find("\n", offset)
        close = text.find("]", offset, len(text) if line_end < 0 else line_end)
        if close > 0:
            end = close + (2 if text.startswith("[[", offset) else 1)
        fix = (
            "drop the `[tool.toolret]` header"
            if where == prefix
            else f"write `[{_dotted(where[2:])}]` for `[{_dotted(where)}]`"
        )
    else:
        fix = f"drop the `tool.toolret.` prefix of `{_dotted(where)}`"
    return _error_at(path, text, offset, end, f"{intro}: {fix}")


def _read_toml(path: Path) -> dict[str, Any]:
    return _parse_toml(path, _read_text(path))


def _toolret_table(data: Mapping[str, Any]) -> object:
    tool = data.get("tool")
    return tool.get("toolret") if isinstance(tool, dict) else None


@dataclass(frozen=True)
class _Loaded:
    """One config file's settings, before ``extend`` merges a base under them."""

    settings: Settings
    keys: frozenset[str]
    """The ``Settings`` fields the file sets."""
    table_keys: Mapping[str, frozenset[str]]
    """Per framework table (field name), the fields it sets."""
    inferred: str | None
    """The ``target-version`` its ``requires-python`` gives (a ``pyproject.toml``)."""
    problems: _Problems | None
    """For errors at its keys (``None``: a ``pyproject.toml`` without the table)."""


def load_settings(path: Path) -> Settings:
    """Read one config file; ``root`` is its directory. Raises ``ConfigError``.

    A ``pyproject.toml`` without ``[tool.toolret]`` gives the default settings.
    Errors give the file, line and column of the offending key or value. Without a
    ``target-version``, a ``pyproject.toml``'s ``[project] requires-python`` gives it
    (``requires_python_target``; silently nothing when it cannot be read), as in ruff.
    ``extend`` names a base file (itself possibly extending another) read first, this
    file's keys merged over it as ruff merges them (``_combine``); a cycle is an error
    at the ``extend`` that closes it.
    """
    path = _absolute(path)
    chain = [_load_one(path)]
    seen = [path]
    while (named := chain[-1].settings.extend) is not None:
        current = chain[-1]
        assert current.problems is not None and current.settings.root is not None
        target = _absolute(current.settings.root / os.path.expandvars(os.path.expanduser(named)))
        where = current.problems.key_path("extend")
        if target in seen:
            cycle = " extends ".join(f"`{_shown_path(item)}`" for item in (*seen, target))
            raise current.problems.error([(where, False, f"circular configuration: {cycle}")])
        if not target.is_file():
            problem = "no such file" if not target.exists() else "not a file"
            message = f"cannot extend `{named}`: {problem} ({_shown_path(target)})"
            raise current.problems.error([(where, False, message)])
        seen.append(target)
        chain.append(_load_one(target))
    merged = chain[-1]
    for child in reversed(chain[:-1]):
        merged = _combine(child, merged)
    settings = merged.settings
    if settings.target_version is None:
        inferred = next((item.inferred for item in chain if item.inferred is not None), None)
        if inferred is not None:
            settings = dataclasses.replace(settings, target_version=inferred)
    return settings


def _load_one(path: Path) -> _Loaded:
    """``load_settings`` for one file, ``extend`` not followed."""
    text = _read_text(path)
    data = _parse_toml(path, text)
    base: KeyPath = ()
    table: object = data
    inferred: str | None = None
    if path.name == "pyproject.toml":
        base = ("tool", "toolret")
        table = _toolret_table(data)
        inferred = project_python_target(data)
        if table is None:
            return _Loaded(Settings(root=path.parent), frozenset(), {}, inferred, None)
    elif _toolret_table(data) is not None:
        raise _pyproject_table_error(path, text)
    problems = _Problems(path, text, base)
    if not isinstance(table, dict):
        raise problems.error([(base, False, f"expected a table, got {_kind(table)}")])
    values = _merge_lint(table, problems)
    _check_keys(values, Settings, problems, None)
    from pydantic import ValidationError

    try:
        settings = Settings.from_mapping({**values, "root": path.parent})
    except ValidationError as error:
        raise problems.error(_value_problems(error, problems)) from None
    names = _allowed_keys(Settings)
    tables = {
        names[key]: frozenset(names_of(value))
        for key, value in values.items()
        if isinstance(value, dict) and names[key] in _FRAMEWORK_TABLES
    }
    return _Loaded(settings, frozenset(names[key] for key in values), tables, inferred, problems)


def names_of(table: Mapping[str, Any]) -> Iterable[str]:
    """The Python names of a table's kebab-case keys."""
    return (key.replace("-", "_") for key in table)


_FRAMEWORK_TABLES: Final = ("polyai", "browser_use", "openai_agents", "openai_chat")

_CONCATENATED: Final = ("extend_exclude", "extend_include")
"""Lists a file adds to its base's (ruff's ``extend-*`` lists chain)."""

_PATTERN_LISTS: Final = ("exclude", "extend_exclude", "include", "extend_include")

_OWN_LAYER: Final = frozenset(
    {"select", "extend_select", "ignore", "fixable", "extend_fixable", "unfixable"}
)
"""Rule selection: a base's becomes a layer below the file's, as in ruff."""


def _combine(child: _Loaded, base: _Loaded) -> _Loaded:
    """``child``'s settings merged over ``base``'s, as ruff's ``Configuration::combine``:
    a key the child sets wins; ``extend-exclude``, ``extend-include`` and
    ``extend-per-file-ignores`` add up; rule selection (``select`` … ``unfixable``) is
    layered, the base's first; a framework table merges key by key. The base's relative
    globs and ``cache-dir`` stay relative to the base's directory."""
    mine, theirs = child.settings, _rebased(base.settings, child.settings.root)
    changes: dict[str, Any] = {}
    for item in dataclasses.fields(Settings):
        name = item.name
        if name in _INTERNAL_FIELDS or name in _OWN_LAYER or name == "extend":
            continue
        if name in _CONCATENATED:
            changes[name] = getattr(theirs, name) + getattr(mine, name)
        elif name == "extend_per_file_ignores":
            merged = {key: tuple(value) for key, value in theirs.extend_per_file_ignores.items()}
            for key, codes in mine.extend_per_file_ignores.items():
                merged[key] = merged.get(key, ()) + tuple(codes)
            changes[name] = merged
        elif name in _FRAMEWORK_TABLES:
            own = child.table_keys.get(name, frozenset())
            table = getattr(mine, name)
            changes[name] = dataclasses.replace(
                getattr(theirs, name), **{key: getattr(table, key) for key in own}
            )
        elif name not in child.keys:
            changes[name] = getattr(theirs, name)
    changes["base_selections"] = (
        *theirs.base_selections,
        RuleSelection(
            select=theirs.select, extend_select=theirs.extend_select, ignore=theirs.ignore
        ),
    )
    changes["base_fixable"] = (
        *theirs.base_fixable,
        RuleSelection(
            select=theirs.fixable,
            extend_select=theirs.extend_fixable,
            ignore=theirs.unfixable,
        ),
    )
    tables = {
        name: child.table_keys.get(name, frozenset()) | base.table_keys.get(name, frozenset())
        for name in {*child.table_keys, *base.table_keys}
    }
    return _Loaded(
        dataclasses.replace(mine, **changes),
        child.keys | base.keys,
        tables,
        child.inferred,
        child.problems,
    )


def _rebased(settings: Settings, root: Path | None) -> Settings:
    """``settings`` with their relative globs and ``cache-dir`` made absolute (from their
    ``root``), for settings whose patterns are to be matched under another ``root``. A
    pattern without a ``/`` also keeps matching by basename anywhere, as ruff's do."""
    if settings.root is None or settings.root == root:
        return settings
    prefix = _glob_escape(settings.root.as_posix().rstrip("/")) + "/"

    def rebase(pattern: str, *, negatable: bool) -> list[str]:
        negated = negatable and pattern.startswith("!")
        body = pattern[1:] if negated else pattern
        if os.path.isabs(body):
            return [pattern]
        below = body
        while below.startswith("./"):
            below = below[2:]
        absolute = ("!" if negated else "") + prefix + below
        if negated or "/" in body.rstrip("/"):
            return [absolute]
        return [pattern, absolute]

    changes: dict[str, Any] = {}
    for name in _PATTERN_LISTS:
        patterns = getattr(settings, name)
        changes[name] = tuple(chain(*(rebase(p, negatable=False) for p in patterns)))
    for name in ("per_file_ignores", "extend_per_file_ignores"):
        table: dict[str, tuple[str, ...]] = {}
        for pattern, codes in getattr(settings, name).items():
            for rebased in rebase(pattern, negatable=True):
                table[rebased] = table.get(rebased, ()) + tuple(codes)
        changes[name] = table
    cache = settings.cache_path()
    if cache is not None:
        changes["cache_dir"] = str(cache)
    return dataclasses.replace(settings, **changes)


def _glob_escape(text: str) -> str:
    """``text`` matched literally by a ruff glob."""
    return re.sub(r"([*?\[\]{}\\])", r"\\\1", text)


OVERRIDE_TIP = (
    "  tip: A `--config` flag must either be a path to a `.toml` configuration file\n"
    "       or a TOML `<KEY> = <VALUE>` pair overriding a specific configuration\n"
    "       option"
)
"""ruff's tip for a ``--config`` value that is neither a file nor a valid override."""


def config_override_error(value: str, detail: str | None = None) -> ConfigError:
    """ruff's error for a bad ``--config`` value (clap's wording), ``detail`` after the tip."""
    message = f"toolret: error: invalid value {value!r} for '--config <CONFIG_OPTION>'\n\n"
    message += OVERRIDE_TIP
    if detail:
        message += f"\n\n{detail}"
    summary = f"invalid value {value!r} for '--config <CONFIG_OPTION>'"
    return ConfigError(message, summary=summary + (f": {detail}" if detail else ""))


def parse_config_override(value: str) -> dict[str, Any]:
    """ruff's inline ``--config "KEY = VALUE"``: ``[tool.toolret]`` keys, ``lint.``-prefixed
    selection keys too. Returns the ``Settings`` field names it sets, with validated values.

    Raises ``ConfigError`` (ruff's wording): not TOML, an unknown key, a bad value or
    selector - the same checks as a config file's, positions in the argument.
    """
    try:
        data = tomllib.loads(value)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        detail = None
        if value.endswith(".toml") or ("=" not in value and os.sep in value):
            detail = (
                "It looks like you were trying to pass a path to a configuration file.\n"
                f"The path `{value}` does not point to a configuration file"
            )
        elif "=" in value:
            detail = f"TOML parse error: {error}"
        raise config_override_error(value, detail) from None
    problems = _Problems(Path("--config"), value, ())
    try:
        values = _merge_lint(data, problems)
        _check_keys(values, Settings, problems, None)
        from pydantic import ValidationError

        try:
            validated = Settings.from_mapping(values)
        except ValidationError as error:
            raise problems.error(_value_problems(error, problems)) from None
    except ConfigError as error:
        detail = error.message.partition("\n")[2]
        raise config_override_error(
            value,
            "Could not parse the supplied argument as a `[tool.toolret]` configuration "
            f"option:\n\n{detail}",
        ) from None
    names = _allowed_keys(Settings)
    return {names[key]: getattr(validated, names[key]) for key in values}


def _is_config_file(candidate: Path) -> bool:
    if not candidate.is_file():
        return False
    if candidate.name != "pyproject.toml":
        return True
    try:
        raw = read_regular(candidate, limit=TEXT_FILE_LIMIT)
    except OSError:
        return False
    # Most pyprojects never mention toolret: skip parsing them.
    if b"toolret" not in raw:
        return False
    return _toolret_table(_read_toml(candidate)) is not None


def _inferred_target(pyproject: Path) -> str | None:
    """The ``target-version`` a ``pyproject.toml``'s ``requires-python`` gives; nothing
    when it cannot be read (as ruff, silently)."""
    try:
        raw = read_regular(pyproject, limit=TEXT_FILE_LIMIT)
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return project_python_target(data)


def _config_in(directory: Path) -> Path | None:
    for name in CONFIG_FILENAMES:
        candidate = directory / name
        if _is_config_file(candidate):
            return candidate
    return None


def find_config_file(start: Path) -> Path | None:
    """The closest config file to ``start`` (a file or a directory), searching upwards.

    Raises ``ConfigError`` if a ``pyproject.toml`` that mentions toolret on
    the way is not valid TOML.
    """
    directory = _absolute(start)
    if not directory.is_dir():
        directory = directory.parent
    for candidate_dir in (directory, *directory.parents):
        found = _config_in(candidate_dir)
        if found is not None:
            return found
    return None


class SettingsResolver:
    """Maps each path to the settings that govern it; pass it as ``settings_for``.

    Config lookups are cached per directory and each config file is read once,
    so walking a tree costs a few stats per directory. ``config_file`` (the
    CLI's ``--config``) makes one file govern every path, as in ruff.
    ``overrides`` applies CLI flags to whichever settings were found, e.g.
    ``lambda s: s.with_overrides(select=["TRV1"])``.
    """

    def __init__(
        self,
        *,
        config_file: Path | None = None,
        overrides: Callable[[Settings], Settings] | None = None,
    ) -> None:
        self._overrides = overrides
        self._directories: dict[Path, Path | None] = {}
        self._pyprojects: dict[Path, Path | None] = {}
        self._loaded: dict[Path | None, Settings] = {}
        self._fixed: Settings | None = None
        if config_file is not None:
            self._fixed = self._apply(load_settings(config_file))

    def __call__(self, path: Path) -> Settings:
        return self.settings_for(path)

    def settings_for(self, path: Path) -> Settings:
        if self._fixed is not None:
            return self._fixed
        absolute = _absolute(path)
        directory = absolute if absolute.is_dir() else absolute.parent
        config = self._config_for(directory)
        # no config file: the defaults, with the target version of the closest
        # ``pyproject.toml``'s ``requires-python`` (ruff's fallback)
        key = config if config is not None else self._pyproject_for(directory)
        settings = self._loaded.get(key)
        if settings is None:
            if config is not None:
                settings = load_settings(config)
            else:
                settings = Settings()
                inferred = _inferred_target(key) if key is not None else None
                if inferred is not None:
                    settings = dataclasses.replace(settings, target_version=inferred)
            settings = self._apply(settings)
            self._loaded[key] = settings
        return settings

    def _pyproject_for(self, directory: Path) -> Path | None:
        """The closest ``pyproject.toml`` at or above ``directory`` (cached per directory)."""
        if directory in self._pyprojects:
            return self._pyprojects[directory]
        candidate = directory / "pyproject.toml"
        found: Path | None = candidate if candidate.is_file() else None
        if found is None and directory.parent != directory:
            found = self._pyproject_for(directory.parent)
        self._pyprojects[directory] = found
        return found

    def config_file_for(self, path: Path) -> Path | None:
        """The config file that governs ``path`` (``None``: defaults, or ``--config``)."""
        if self._fixed is not None:
            return None
        absolute = _absolute(path)
        return self._config_for(absolute if absolute.is_dir() else absolute.parent)

    def _config_for(self, directory: Path) -> Path | None:
        if directory in self._directories:
            return self._directories[directory]
        found = _config_in(directory)
        if found is None and directory.parent != directory:
            found = self._config_for(directory.parent)
        self._directories[directory] = found
        return found

    def _apply(self, settings: Settings) -> Settings:
        return self._overrides(settings) if self._overrides is not None else settings
