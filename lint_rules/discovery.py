"""Which files ``toolret check PATHS`` looks at: ruff's rules, without calling git.

* Directories are walked for ``*.py``, ``*.pyi`` and ``*.ipynb`` files (ruff's ``include``
  and ``extend-include`` change which: ``Settings.walks``), entries in name
  order, so output and cache are the same from run to run: paths come out
  sorted by their components (``a/b.py`` before ``a.py``). Each file once.
* ``exclude`` / ``extend-exclude`` of the settings that govern a directory
  (the closest config file) prune its entries; an excluded directory is not
  entered, so nothing under it is read.
* With ``respect-gitignore`` (the default), ``.gitignore`` files and
  ``.git/info/exclude`` prune entries as git would. A small matcher does it
  here: running ``git`` would need git installed and a subprocess per run,
  and ``pathspec`` would be a dependency for what fits in a page.
* Paths named on the command line are always checked, whatever their
  extension, excludes or ``.gitignore`` - the user asked for them - unless
  ``force_exclude`` is set: pre-commit passes every changed file explicitly,
  so there excludes must apply to explicit paths too (ruff's
  ``--force-exclude``). Then a path is dropped if it, or a directory between
  it and the project root, is excluded. ``.gitignore`` is not applied to
  explicit paths even then, as in ruff.

The gitignore semantics implemented: blank lines and ``#`` comments; ``\\``
escapes; trailing spaces trimmed; ``!`` re-includes; a trailing ``/`` matches
directories only; a pattern with a ``/`` before its end is anchored to its
``.gitignore``'s directory, one without matches at any depth; ``*`` and ``?``
stop at ``/``; ``**/``, ``/**/`` and ``/**`` span directories; ``[...]``
classes. The last matching line wins, a deeper ``.gitignore`` beats a
shallower one, and ``.git/info/exclude`` comes below every ``.gitignore``. As
in git, a file inside an ignored directory cannot be re-included (the
directory is never entered). The hierarchy starts at the repository root
(the nearest directory holding ``.git``; a nested repository starts its own).
Outside any repository, where git itself reads none, the ``.gitignore``
files of every parent directory apply, as with ripgrep's ``--no-require-git``:
a project unpacked from an archive is still filtered. Not read: the global ``core.excludesFile``.

Symbolic links to directories are not followed (no cycles, no escaping the
tree); links to files are checked like files.

What cannot be read is the runner's to report (``TRV003 io-error``, ruff's
``E902``), never a reason to stop: a path given on the command line that does
not exist is yielded like any other and fails when it is read, and so is a
``*.py`` entry of a walked directory that is neither a file nor a directory
(a dangling or looping symbolic link, a named pipe, a device) - ruff reports
those too. Ignore files are read only when they are regular files of sane size
(a ``.gitignore`` that is a FIFO would block the walk forever): one that cannot
be read is passed to ``on_error`` and the walk goes on as if it were absent.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from lint_rules.config import Settings
from lint_rules.fileio import TEXT_FILE_LIMIT, read_regular
from lint_rules.globs import Directories, GlobSet, Token, parse_gitignore_glob

__all__ = ["PYTHON_SUFFIXES", "DiscoveryError", "GitignoreFile", "discover", "is_gitignored"]

PYTHON_SUFFIXES = (".py", ".pyi", ".ipynb")
"""What a directory walk checks: Python sources and stubs, and Jupyter notebooks (as ruff
does by default since 0.6)."""


class DiscoveryError(Exception):
    """Kept for callers that catch it: ``discover`` no longer raises it. A path that
    does not exist is yielded and reported when read (``TRV003``), as ruff does."""


ErrorSink = Callable[[Path, OSError], None]
"""Told of each ignore file that exists but cannot be read (the walk goes on)."""


def _ignore_error(path: Path, error: OSError) -> None:
    """The default sink: an unreadable ignore file counts as absent."""


# ---------------------------------------------------------------------------
# .gitignore matching


@dataclass(frozen=True)
class _IgnorePattern:
    tokens: tuple[Token, ...]
    negated: bool
    directory_only: bool


def _parse_gitignore_line(line: str) -> _IgnorePattern | None:
    if not line or line.startswith("#"):
        return None
    while line.endswith(" ") and not line.endswith("\\ "):
        line = line[:-1]
    negated = line.startswith("!")
    if negated:
        line = line[1:]
    directory_only = line.endswith("/")
    if directory_only:
        line = line[:-1]
    if not line:
        return None
    anchored = "/" in line
    tokens = parse_gitignore_glob(line.removeprefix("/"))
    if not anchored:
        tokens = (Directories(), *tokens)  # matches at any depth
    return _IgnorePattern(tokens, negated, directory_only)


class GitignoreFile:
    """The patterns of one ``.gitignore`` (or ``info/exclude``), relative to ``base``.

    The lines are compiled into two automata (``globs.GlobSet``), one with every line
    for directories and one without the directory-only lines for files: a path is
    tested once, in time linear in its length, however many lines the file has.
    """

    __slots__ = ("_for_directories", "_for_files", "_patterns", "base")

    def __init__(self, base: Path, lines: Sequence[str]) -> None:
        self.base = base
        parsed = (_parse_gitignore_line(line) for line in lines)
        self._patterns = tuple(pattern for pattern in parsed if pattern is not None)
        self._for_directories = GlobSet([pattern.tokens for pattern in self._patterns])
        files = [pattern for pattern in self._patterns if not pattern.directory_only]
        self._for_files = (tuple(files), GlobSet([pattern.tokens for pattern in files]))

    @classmethod
    def read(
        cls, path: Path, base: Path, on_error: ErrorSink = _ignore_error
    ) -> GitignoreFile | None:
        """Load ``path``; ``None`` when it is missing, unreadable or has no patterns.

        Only a regular file is read (a FIFO named ``.gitignore`` would block);
        ``on_error`` hears of one that exists but cannot be read.
        """
        try:
            data = read_regular(path, limit=TEXT_FILE_LIMIT)
        except FileNotFoundError:
            return None
        except OSError as error:
            on_error(path, error)
            return None
        text = data.decode("utf-8", errors="surrogateescape")
        loaded = cls(base, text.splitlines())
        return loaded if loaded._patterns else None

    def match(self, relative: str, is_dir: bool) -> bool | None:
        """``True`` ignored, ``False`` re-included by ``!``, ``None`` no line matches.

        ``relative`` is the ``/``-separated path from ``base``; the last matching line wins.
        """
        if is_dir:
            patterns, automaton = self._patterns, self._for_directories
        else:
            patterns, automaton = self._for_files
        last = automaton.last_match(relative)
        return None if last < 0 else not patterns[last].negated


class _IgnoreStack:
    """The ignore files in force in one directory, lowest precedence first."""

    __slots__ = ("_files", "_on_error")

    def __init__(
        self, files: tuple[GitignoreFile, ...], on_error: ErrorSink = _ignore_error
    ) -> None:
        self._files = files
        self._on_error = on_error

    @classmethod
    def for_directory(cls, directory: Path, on_error: ErrorSink = _ignore_error) -> _IgnoreStack:
        """Everything that applies inside ``directory``, read from its ancestors."""
        chain = [directory, *directory.parents]
        repository = next((path for path in chain if (path / ".git").exists()), None)
        top = chain.index(repository) if repository is not None else len(chain) - 1
        files: list[GitignoreFile] = []
        if repository is not None:
            files.extend(_info_exclude(repository, on_error))
        for path in reversed(chain[: top + 1]):
            loaded = GitignoreFile.read(path / ".gitignore", path, on_error)
            if loaded is not None:
                files.append(loaded)
        return cls(tuple(files), on_error)

    def enter(self, directory: Path, names: set[str]) -> _IgnoreStack:
        """The stack inside child ``directory``, whose entries are ``names``."""
        # In a nested repository the outer one's patterns stop at its border.
        files = tuple(_info_exclude(directory, self._on_error)) if ".git" in names else self._files
        if ".gitignore" in names:
            loaded = GitignoreFile.read(directory / ".gitignore", directory, self._on_error)
            if loaded is not None:
                files = (*files, loaded)
        return _IgnoreStack(files, self._on_error) if files is not self._files else self

    def is_ignored(self, path: Path, is_dir: bool) -> bool:
        posix = path.as_posix()
        for ignore_file in reversed(self._files):
            base = ignore_file.base.as_posix().rstrip("/") + "/"
            if not posix.startswith(base):
                continue
            verdict = ignore_file.match(posix[len(base) :], is_dir)
            if verdict is not None:
                return verdict
        return False


def _info_exclude(repository: Path, on_error: ErrorSink = _ignore_error) -> list[GitignoreFile]:
    git = repository / ".git"
    git_dir = git
    if git.is_file():
        # A worktree or submodule: ``.git`` is a file that names the real git directory.
        try:
            first = _read_small(git).splitlines()[0]
        except (OSError, IndexError, UnicodeDecodeError):
            return []
        if not first.startswith("gitdir:"):
            return []
        git_dir = (repository / first.removeprefix("gitdir:").strip()).resolve()
        try:
            common = _read_small(git_dir / "commondir").strip()
        except (OSError, UnicodeDecodeError):
            common = ""
        if common:
            git_dir = (git_dir / common).resolve()
    loaded = GitignoreFile.read(git_dir / "info" / "exclude", repository, on_error)
    return [loaded] if loaded is not None else []


def _read_small(path: Path) -> str:
    """A small git metadata file as text (only a regular file is read)."""
    return read_regular(path, limit=TEXT_FILE_LIMIT).decode("utf-8")


# ---------------------------------------------------------------------------
# The walk


def discover(
    paths: Sequence[Path],
    *,
    settings_for: Callable[[Path], Settings],
    force_exclude: bool = False,
    on_error: ErrorSink = _ignore_error,
) -> Iterator[Path]:
    """The files to check for ``paths``, in a deterministic order, each once.

    ``settings_for`` maps a path to the settings that govern it (a
    ``config.SettingsResolver``). ``force_exclude`` (the CLI flag) or the
    governing ``force-exclude`` setting applies excludes to explicit paths.
    Yielded paths keep the form they were given in (relative stays relative).
    A path that does not exist is yielded too (ruff lints it and reports
    ``E902``); ``on_error`` hears of ignore files that cannot be read.
    """
    return _discover(list(paths), settings_for, force_exclude, on_error)


def _discover(
    paths: list[Path],
    settings_for: Callable[[Path], Settings],
    force_exclude: bool,
    on_error: ErrorSink,
) -> Iterator[Path]:
    seen: set[Path] = set()
    for given in paths:
        absolute = Path(os.path.abspath(given))
        forced = force_exclude or settings_for(absolute).force_exclude
        if forced and _is_excluded_with_parents(absolute, settings_for):
            continue
        if absolute.is_dir():
            outer = (
                _IgnoreStack.for_directory(absolute.parent, on_error)
                if absolute.parent != absolute
                else _IgnoreStack((), on_error)
            )
            yield from _walk(given, absolute, settings_for, outer, seen)
        elif absolute not in seen:
            seen.add(absolute)
            yield given


def is_gitignored(path: Path, on_error: ErrorSink = _ignore_error) -> bool:
    """Whether a walk of the repository holding ``path`` skips it by its ignore files
    (``.gitignore`` of every directory on the way, ``.git/info/exclude``): the file, or
    a directory above it, is ignored. What ``toolret check DIR`` leaves out under
    ``respect-gitignore``, for a caller handed one file of a walk it did not make (the
    LibCST codemod). Outside a repository nothing is ignored."""
    absolute = Path(os.path.abspath(path))
    repository = next((p for p in absolute.parents if (p / ".git").exists()), None)
    if repository is None:
        return False
    below = [absolute, *absolute.parents[: absolute.parents.index(repository)]]
    for candidate in reversed(below):  # from the top: an ignored directory hides all in it
        stack = _IgnoreStack.for_directory(candidate.parent, on_error)
        if stack.is_ignored(candidate, is_dir=candidate is not absolute):
            return True
    return False


def _is_excluded_with_parents(path: Path, settings_for: Callable[[Path], Settings]) -> bool:
    """Whether ``path`` or a directory between it and the project root is excluded.

    The project root (the config's directory, or the working directory) and
    what lies above it are not tested: a checkout that happens to live in a
    directory called ``build`` is not excluded from itself.
    """
    root_setting = settings_for(path).root
    root = Path(os.path.abspath(root_setting if root_setting is not None else Path.cwd()))
    candidate = path
    while candidate != root:
        if settings_for(candidate.parent).is_excluded(candidate):
            return True
        if root not in candidate.parents:
            return False  # outside the project: only the path itself is tested
        candidate = candidate.parent
    return False


def _walk(
    shown: Path,
    directory: Path,
    settings_for: Callable[[Path], Settings],
    outer: _IgnoreStack,
    seen: set[Path],
) -> Iterator[Path]:
    """Yield the Python files under ``directory``; ``outer`` is its parent's ignore stack."""
    try:
        with os.scandir(directory) as scanner:
            entries = sorted(scanner, key=lambda entry: entry.name)
    except OSError:
        return  # unreadable: nothing to check, as ruff's walker does
    ignores = outer.enter(directory, {entry.name for entry in entries})
    settings = settings_for(directory)
    prefix = directory.as_posix().rstrip("/") + "/"
    for entry in entries:
        name = entry.name
        posix = prefix + name
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
            # Only included files (``include``, ``extension``) and directories matter.
            if not is_dir and not (settings.walks(posix, name) and _is_python_file(entry)):
                continue
        except OSError:
            continue
        if settings.is_excluded_posix(posix):
            continue
        path = directory / name
        if settings.respect_gitignore and ignores.is_ignored(path, is_dir):
            continue
        if is_dir:
            yield from _walk(shown / name, path, settings_for, ignores, seen)
        elif path not in seen:
            seen.add(path)
            yield shown / name


def _is_python_file(entry: os.DirEntry[str]) -> bool:
    """Whether a ``*.py`` entry is checked: a file, or something that only looks like one
    (a dangling or looping link, a FIFO, a device) - reading it reports ``TRV003``, as
    ruff's ``E902``. A link to a directory is not followed."""
    try:
        if entry.is_file():
            return True
        return not entry.is_dir()
    except OSError:  # a link that loops
        return True
