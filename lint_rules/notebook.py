"""Jupyter notebooks as toolret sees them: one Python module made of the code cells.

As ruff does (``ruff_notebook``): the code cells of an nbformat 4 notebook with a
Python kernel are concatenated, in order, into one module; a cell that starts with
an automagic (``pip install x``) or holds a cell magic that is not Python
(``%%bash``, ``%%html``) is left out; IPython syntax on a line (``%magic``,
``!shell``, ``x = !ls``, ``obj?``) is replaced by a neutral placeholder of the
same indentation, so that the rest parses, and restored when fixes are written
back. A cell that still does not parse on its own is left out and reported
(TRV001 at that cell), and the others are checked.

Rows of the module map back to ``(cell, row in the cell)``: diagnostics carry the
cell's 1-based number among all the notebook's cells (markdown cells count, as
in ruff's ``cell`` field) and positions relative to it. Each cell is followed in
the module by a comment line of its own, so that the text a fix produced splits
back into cells whatever the fix did to line counts; only the cells whose text
changed get a new ``source`` in the JSON, written in the file's own layout, and
every other byte of the file stays as it was.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from lint_rules.analysis.syntax import python_tree
from lint_rules.model import Diagnostic, Edit, Fix, Location

SUFFIX = ".ipynb"
BOUNDARY = "# toolret:cell-boundary:7d1e5a"
"""The comment line after each cell in the module (never reported, never edited)."""
TRANSPARENT_CELL_MAGICS = frozenset(
    {"capture", "debug", "prun", "pypy", "python", "python3", "time", "timeit"}
)
"""Cell magics whose body is Python (ruff's list): the ``%%`` line is a placeholder."""
AUTOMAGICS = frozenset(
    [
        "alias",
        "alias_magic",
        "autoawait",
        "autocall",
        "automagic",
        "bookmark",
        "cd",
        "code_wrap",
        "colors",
        "conda",
        "config",
        "debug",
        "dhist",
        "dirs",
        "doctest_mode",
        "edit",
        "env",
        "gui",
        "history",
        "killbgscripts",
        "load",
        "load_ext",
        "loadpy",
        "logoff",
        "logon",
        "logstart",
        "logstate",
        "logstop",
        "lsmagic",
        "macro",
        "magic",
        "mamba",
        "matplotlib",
        "micromamba",
        "notebook",
        "page",
        "pastebin",
        "pdb",
        "pdef",
        "pdoc",
        "pfile",
        "pinfo",
        "pinfo2",
        "pip",
        "popd",
        "pprint",
        "precision",
        "prun",
        "psearch",
        "psource",
        "pushd",
        "pwd",
        "pycat",
        "pylab",
        "quickref",
        "recall",
        "rehashx",
        "reload_ext",
        "rerun",
        "reset",
        "reset_selective",
        "run",
        "save",
        "sc",
        "set_env",
        "sx",
        "system",
        "tb",
        "time",
        "timeit",
        "unalias",
        "unload_ext",
        "who",
        "who_ls",
        "whos",
        "xdel",
        "xmode",
    ]
)
"""A cell that starts with one of these words is IPython automagic (ruff's list): skipped."""

_ESCAPE = re.compile(r"[ \t]*(?:%|!|\?)")
_ASSIGNED_ESCAPE = re.compile(r"([ \t]*[\w.\[\]'\", ]+?[ \t]*=[ \t]*)[!%]")
_HELP = re.compile(r"[ \t]*\??[\w.]+\?{1,2}[ \t]*$")
# An automagic command on a later line of a cell that is not Python (``pip install x``
# after ``!pip install y``): the word, a space, then what no Python operand starts with
# a name followed by (an operator, ``=``, a bracket, a dot, a comma, a colon).
_AUTOMAGIC_LINE = re.compile(
    r"[ \t]*(?:" + "|".join(sorted(AUTOMAGICS)) + r")[ \t]+(?![=(\[.,:;+\-*/%<>!&|^@~]|if\b|else\b"
    r"|and\b|or\b|in\b|is\b|not\b|for\b|$)"
)


_EXTRA_SUFFIXES: tuple[str, ...] = ()
"""Custom extensions checked as notebooks (``extension = {"nb" = "ipynb"}``)."""


def register_suffixes(suffixes: tuple[str, ...]) -> None:
    """Check files with these suffixes as notebooks too, in this process (the runner
    registers what the run's settings map to ``ipynb``; its workers inherit it)."""
    global _EXTRA_SUFFIXES
    _EXTRA_SUFFIXES = tuple(dict.fromkeys((*_EXTRA_SUFFIXES, *suffixes)))


def is_notebook(path: str) -> bool:
    return path.endswith(SUFFIX) or (bool(_EXTRA_SUFFIXES) and path.endswith(_EXTRA_SUFFIXES))


class NotebookError(ValueError):
    """The file is not a notebook toolret can read (not JSON, not nbformat 4)."""


@dataclass
class Cell:
    """One code cell that is part of the module."""

    number: int
    """1-based among all the notebook's cells."""
    source: str
    """The cell's text as in the notebook (IPython syntax included)."""
    python: str
    """The text in the module: placeholders for IPython lines, ending with a newline."""
    restore: dict[str, str]
    """Placeholder line → the original line it stands for."""
    start_row: int = 0
    """The module row of the cell's first line."""
    rows: int = 0


@dataclass
class SkippedCell:
    number: int
    reason: str
    """``magic`` (a cell magic or automagic), ``syntax`` (does not parse: ``message``)."""
    message: str = ""
    line: int = 1
    column: int = 1


@dataclass
class Notebook:
    """A parsed notebook: its text, JSON, the cells in the module and the module."""

    text: str
    data: dict[str, Any]
    cells: list[Cell]
    skipped: list[SkippedCell]
    python_source: str
    is_python: bool
    spans: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Cell number → the character span of its ``"source"`` value in ``text``."""
    bom: bool = False

    # -- reading

    @classmethod
    def from_bytes(cls, data: bytes) -> Notebook:
        bom = data.startswith(b"\xef\xbb\xbf")
        try:
            text = data[3:].decode("utf-8") if bom else data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NotebookError(f"not UTF-8 ({error.reason} at byte {error.start})") from None
        return cls.from_text(text, bom=bom)

    @classmethod
    def from_text(cls, text: str, *, bom: bool = False) -> Notebook:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise NotebookError(
                f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
            ) from None
        except RecursionError:
            raise NotebookError("not valid JSON (nested too deeply to be read)") from None
        if not isinstance(data, dict):
            raise NotebookError("not a notebook (the JSON is not an object)")
        version = data.get("nbformat")
        if version != 4:
            raise NotebookError(f"not an nbformat 4 notebook (nbformat {version!r})")
        raw_cells = data.get("cells")
        if not isinstance(raw_cells, list):
            raise NotebookError("not a notebook (no list of cells)")
        cells: list[Cell] = []
        skipped: list[SkippedCell] = []
        for number, raw in enumerate(raw_cells, 1):
            # An entry that is not an object is no cell of the module, but it keeps its
            # place in the numbering (the writer's scan counts it too).
            if not isinstance(raw, dict) or raw.get("cell_type") != "code":
                continue
            source = _joined(raw.get("source", ""))
            if source is None:
                raise NotebookError(f"cell {number}: its source is not text")
            made = _python_of(number, source)
            if isinstance(made, SkippedCell):
                skipped.append(made)
            else:
                cells.append(made)
        notebook = cls(text, data, cells, skipped, "", _is_python(data), bom=bom)
        notebook._concatenate()
        return notebook

    def _concatenate(self) -> None:
        parts: list[str] = []
        row = 1
        for cell in self.cells:
            cell.start_row = row
            cell.rows = cell.python.count("\n")
            parts.append(cell.python)
            parts.append(BOUNDARY + "\n")
            row += cell.rows + 1
        self.python_source = "".join(parts)

    # -- positions

    def cell_at(self, row: int) -> Cell | None:
        """The cell holding a module row (``None``: a boundary line)."""
        low, high = 0, len(self.cells) - 1
        while low <= high:
            middle = (low + high) // 2
            cell = self.cells[middle]
            if row < cell.start_row:
                high = middle - 1
            elif row >= cell.start_row + cell.rows:
                low = middle + 1
            else:
                return cell
        return None

    def cell_numbered(self, number: int) -> Cell | None:
        for cell in self.cells:
            if cell.number == number:
                return cell
        return None

    def to_cells(self, diagnostic: Diagnostic) -> Diagnostic:
        """A diagnostic of the module with its cell and rows relative to the cell."""
        cell = self.cell_at(diagnostic.location.row)
        if cell is None:
            return diagnostic
        shift = cell.start_row - 1
        end = diagnostic.end_location
        if end.row >= cell.start_row + cell.rows:  # runs past the cell: clamp to its end
            last = cell.python.split("\n")[cell.rows - 1] if cell.rows else ""
            end = Location(cell.start_row + cell.rows - 1, len(last) + 1)
        fix = diagnostic.fix
        if fix is not None:
            fix = Fix(
                fix.message,
                fix.applicability,
                tuple(
                    Edit(
                        e.content,
                        Location(e.location.row - shift, e.location.column),
                        Location(e.end_location.row - shift, e.end_location.column),
                    )
                    for e in fix.edits
                ),
            )
        noqa = diagnostic.noqa_line
        return replace(
            diagnostic,
            location=Location(diagnostic.location.row - shift, diagnostic.location.column),
            end_location=Location(end.row - shift, end.column),
            fix=fix,
            noqa_line=None if noqa is None else noqa - shift,
            cell=cell.number,
        )

    def to_module(self, diagnostic: Diagnostic) -> Diagnostic:
        """The inverse of ``to_cells`` for the rows ``# noqa`` work with."""
        cell = self.cell_numbered(diagnostic.cell) if diagnostic.cell is not None else None
        if cell is None:
            return diagnostic
        shift = cell.start_row - 1
        noqa = diagnostic.noqa_line
        return replace(
            diagnostic,
            location=Location(diagnostic.location.row + shift, diagnostic.location.column),
            end_location=Location(
                diagnostic.end_location.row + shift, diagnostic.end_location.column
            ),
            noqa_line=None if noqa is None else noqa + shift,
            fix=None,
            cell=None,
        )

    # -- writing

    def cell_texts(self, python_source: str) -> list[str] | None:
        """The module text split back into the cells' texts (``None``: the boundary lines
        are not all there, one per cell, in order)."""
        pieces = python_source.split(BOUNDARY + "\n")
        if len(pieces) != len(self.cells) + 1 or pieces[-1] != "":
            return None
        return pieces[:-1]

    def with_sources(self, python_source: str) -> tuple[str, list[int]] | None:
        """The notebook's text with the cells the module text changed, and their numbers;
        ``None`` when it cannot be written: the module text does not split back into the
        cells, or the cells' sources cannot be found in the JSON (``write_sources``
        says which). Never raises."""
        try:
            return self.write_sources(python_source)
        except NotebookError:
            return None

    def write_sources(self, python_source: str) -> tuple[str, list[int]] | None:
        """As ``with_sources``, but the JSON whose sources cannot be found (a bug: the
        scan accepts what ``json.loads`` read) raises ``NotebookError`` with the reason;
        ``None`` when the module text does not split back into the cells."""
        texts = self.cell_texts(python_source)
        if texts is None:
            return None
        if not self.spans:
            self.spans = _source_spans(self.text)
        changes: list[tuple[int, int, str]] = []
        changed: list[int] = []
        for cell, new in zip(self.cells, texts, strict=True):
            if new == cell.python:
                continue
            restored = _restore(new, cell)
            if not cell.source.endswith("\n") and restored.endswith("\n"):
                restored = restored[:-1]  # the newline the module added after the cell
            if restored == cell.source:
                continue
            span = self.spans.get(cell.number)
            if span is None:
                return None
            changes.append((span[0], span[1], self._encoded_source(span, restored)))
            changed.append(cell.number)
        text = self.text
        for start, end, value in sorted(changes, reverse=True):
            text = text[:start] + value + text[end:]
        return text, changed

    @cached_property
    def _escapes_non_ascii(self) -> bool:
        """The file was written with ``ensure_ascii`` (``\\u`` escapes, no raw non-ASCII):
        new sources are written the same way. Read once: the text can be megabytes of
        base64 outputs."""
        return self.text.isascii() and "\\u" in self.text

    def _encoded_source(self, span: tuple[int, int], source: str) -> str:
        """``source`` as a JSON value laid out like the one it replaces."""
        old = self.text[span[0] : span[1]]
        ascii_only = self._escapes_non_ascii
        if not old.startswith("["):
            return json.dumps(source, ensure_ascii=ascii_only)
        lines = source.splitlines(keepends=True)
        if not lines:
            return "[]"
        items = [json.dumps(line, ensure_ascii=ascii_only) for line in lines]
        layout = re.match(r"\[(\s*)", old)
        assert layout is not None
        opening = layout.group(1)
        if "\n" not in opening:
            return "[" + ", ".join(items) + "]"
        closing = re.search(r"(\s*)\]$", old)
        tail = closing.group(1) if closing is not None else opening
        return "[" + opening + ("," + opening).join(items) + tail + "]"

    def encode(self, text: str) -> bytes:
        data = text.encode("utf-8")
        return b"\xef\xbb\xbf" + data if self.bom else data


class NotebookText(str):
    """The module text of a notebook (what its diagnostics and fixes refer to), knowing
    its cells: the formats show a cell's own text and rows."""

    notebook: Notebook

    def __new__(cls, notebook: Notebook) -> NotebookText:
        made = super().__new__(cls, notebook.python_source)
        made.notebook = notebook
        return made

    def __reduce__(self) -> tuple[Any, tuple[Notebook]]:
        return (NotebookText, (self.notebook,))  # pickled whole (worker processes)

    def cell_source(self, number: int) -> str | None:
        cell = self.notebook.cell_numbered(number)
        return None if cell is None else cell.source


def _joined(source: object) -> str | None:
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        return "".join(source)
    return None


def _is_python(data: dict[str, Any]) -> bool:
    """Whether the kernel is Python (a notebook that says nothing is taken to be)."""
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        return True
    for key, name in (("language_info", "name"), ("kernelspec", "language")):
        block = metadata.get(key)
        if isinstance(block, dict) and isinstance(block.get(name), str):
            return bool(block[name].lower() == "python")
    return True


def _python_of(number: int, source: str) -> Cell | SkippedCell:
    """The cell as module text. A cell that parses as Python is taken as it is (``config
    = {...}``, ``page(1)`` are Python, not automagic; ``% len(xs)`` on a continuation
    line is an operator); otherwise an automagic first word skips it, and IPython
    escapes at the start of a logical line become placeholders."""
    python = source if source.endswith("\n") else source + "\n"
    try:
        python_tree(python)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass
    else:
        return Cell(number, source, python, {})
    lines = source.splitlines(keepends=True)
    first = lines[0].strip() if lines else ""
    if first.split()[:1] and first.split()[0] in AUTOMAGICS:
        return SkippedCell(number, "magic")
    starts = _logical_starts(lines)
    restore: dict[str, str] = {}
    out: list[str] = []
    continuing = False
    indent = ""
    for index, line in enumerate(lines):
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        stripped = body.lstrip()
        if stripped.startswith("%%"):
            name = stripped[2:].split()[:1]
            if index != 0 or not name or name[0] not in TRANSPARENT_CELL_MAGICS:
                return SkippedCell(number, "magic")
        at_start = index in starts
        magic = continuing or (
            at_start
            and (
                bool(_ESCAPE.match(body))
                or bool(_HELP.match(body))
                or bool(_AUTOMAGIC_LINE.match(body))
            )
        )
        assigned = None if magic or not at_start else _ASSIGNED_ESCAPE.match(body)
        if magic or assigned is not None:
            if assigned is not None:
                placeholder = f"{assigned.group(1)}...  # toolret:ipython:{index}"
            else:
                # A continuation line (``!pip install \`` then ``    pkg``) is indented
                # as the command it continues: its own indent would be an IndentationError.
                if not continuing:
                    indent = body[: len(body) - len(stripped)]
                placeholder = f"{indent}pass  # toolret:ipython:{index}"
            restore[placeholder] = body
            out.append(placeholder + (ending or ""))
            continuing = body.endswith("\\")
            continue
        out.append(line)
    python = "".join(out)
    if not python.endswith("\n"):
        python += "\n"
    try:
        python_tree(python)
    except SyntaxError as error:
        return SkippedCell(
            number, "syntax", error.msg or "invalid syntax", error.lineno or 1, error.offset or 1
        )
    except (ValueError, RecursionError, MemoryError) as error:
        return SkippedCell(number, "syntax", str(error))
    return Cell(number, source, python, restore)


def _logical_starts(lines: list[str]) -> set[int]:
    """The indices of the lines that begin a logical line: not inside brackets, a
    triple-quoted string, or after a backslash continuation (an approximate scan: it
    only has to tell where an IPython escape may stand)."""
    starts: set[int] = set()
    depth = 0
    quote: str | None = None  # the open triple quote
    joined = False
    for index, line in enumerate(lines):
        if depth == 0 and quote is None and not joined:
            starts.add(index)
        position, body = 0, line.rstrip("\r\n")
        while position < len(body):
            char = body[position]
            if quote is not None:
                if body.startswith(quote, position):
                    quote, position = None, position + 3
                    continue
                position += 2 if char == "\\" else 1
                continue
            if char == "#":
                break
            if body.startswith(('"""', "'''"), position):
                quote, position = body[position : position + 3], position + 3
                continue
            if char in "\"'":
                end = position + 1
                while end < len(body) and body[end] != char:
                    end += 2 if body[end] == "\\" else 1
                position = end + 1
                continue
            if char in "([{":
                depth += 1
            elif char in ")]}":
                depth = max(0, depth - 1)
            position += 1
        joined = quote is None and body.endswith("\\")
    return starts


def _restore(text: str, cell: Cell) -> str:
    """Put the IPython lines back in place of their placeholders."""
    if not cell.restore:
        return text
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        body = line.rstrip("\r\n")
        original = cell.restore.get(body)
        if original is not None:
            lines[index] = original + line[len(body) :]
    return "".join(lines)


# -------------------------------------------------------------- where the sources are


def _source_spans(text: str) -> dict[int, tuple[int, int]]:
    """Cell number → the character span of the cell's ``"source"`` value, found by
    scanning the JSON text (``json`` gives values, not where they are). Raises
    ``NotebookError`` when the text cannot be scanned."""
    try:
        return _Scanner(text).cells()
    except NotebookError as error:
        reason = str(error)
    except (ValueError, IndexError, RecursionError) as error:  # scanstring's JSONDecodeError
        reason = str(error) or type(error).__name__
    raise NotebookError(f"the cells' sources cannot be found in the JSON: {reason}")


class _Scanner:
    """Where the cells' sources are in a JSON text that ``json.loads`` accepted (the
    notebook was read from it), read as ``json.loads`` reads it: ``NaN``, ``Infinity``
    and ``-Infinity`` are values (Python's ``json`` writes them into outputs and widget
    state); of a repeated key the last value counts; an entry of ``cells`` that is not an
    object has no source but counts in the numbering, as in ``Notebook.from_text``.
    Values other than the top object, ``cells`` and its cells are skipped without
    recursion, so that nesting ``json.loads`` read never runs out of stack here."""

    _SCALAR = re.compile(
        r"true|false|null|NaN|-?Infinity|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?"
    )
    _SPACE = re.compile(r"[ \t\n\r]*")
    _PLAIN = re.compile(r'[^"\[\]{}]*')
    """Inside an array or object: the text up to the next string or bracket."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0

    def cells(self) -> dict[int, tuple[int, int]]:
        spans: dict[int, tuple[int, int]] = {}
        self._expect("{")
        for key in self._keys():
            self._space()
            if key != "cells" or self._peek() != "[":
                self._skip_value()
                continue
            spans = {}  # ``cells`` again: its last value is the one that was read
            self.at += 1
            number = 0
            while True:
                self._space()
                if self._peek() == "]":
                    self.at += 1
                    break
                number += 1
                if self._peek() != "{":
                    self._skip_value()
                else:
                    self.at += 1
                    for cell_key in self._keys():
                        self._space()
                        start = self.at
                        self._skip_value()
                        if cell_key == "source":
                            spans[number] = (start, self.at)
                self._space()
                if self._peek() == ",":
                    self.at += 1
        return spans

    def _keys(self) -> Any:
        """The keys of the object whose ``{`` was read; leaves the scanner after ``}``.
        The caller reads (or skips) each key's value."""
        while True:
            self._space()
            if self._peek() == "}":
                self.at += 1
                return
            key, self.at = scanstring(self.text, self._after('"'))
            self._expect(":")
            yield key
            self._space()
            if self._peek() == ",":
                self.at += 1

    def _skip_value(self) -> None:
        self._space()
        char = self._peek()
        if char == '"':
            _, self.at = scanstring(self.text, self.at + 1)
        elif char in ("[", "{"):
            self._skip_container()
        else:
            match = self._SCALAR.match(self.text, self.at)
            if match is None:
                raise NotebookError(f"unexpected JSON at character {self.at}")
            self.at = match.end()

    def _skip_container(self) -> None:
        """Past the array or object that starts here (the text is valid JSON: counting
        brackets outside strings finds its end)."""
        text = self.text
        depth = 0
        while True:
            plain = self._PLAIN.match(text, self.at)
            assert plain is not None
            self.at = plain.end()
            char = self._peek()
            if char == '"':
                _, self.at = scanstring(text, self.at + 1)
                continue
            if not char:
                raise NotebookError("the JSON ends inside an array or object")
            self.at += 1
            depth += 1 if char in "[{" else -1
            if depth == 0:
                return

    def _space(self) -> None:
        match = self._SPACE.match(self.text, self.at)
        assert match is not None
        self.at = match.end()

    def _peek(self) -> str:
        return self.text[self.at : self.at + 1]

    def _expect(self, char: str) -> None:
        self._space()
        if self._peek() != char:
            raise NotebookError(f"expected {char!r} at character {self.at}")
        self.at += 1

    def _after(self, char: str) -> int:
        self._expect(char)
        return self.at


# -------------------------------------------------------------- cells held elsewhere


def from_cells(cells: list[tuple[str, str]]) -> Notebook:
    """A notebook of ``(cell_type, source)`` cells (``"code"`` or any other type), as an
    editor holds them (the language server's notebook documents): the cells are numbered
    in order, and the code cells form the module as they do in a ``.ipynb`` file."""
    data = {
        "cells": [{"cell_type": kind, "metadata": {}, "source": text} for kind, text in cells],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return Notebook.from_text(json.dumps(data))


def changed_sources(notebook: Notebook, python_source: str) -> dict[int, str] | None:
    """Cell number → the new source of each cell the module text ``python_source``
    changed (IPython lines restored, as ``Notebook.with_sources`` writes them); ``None``
    when the module text does not split back into the cells."""
    texts = notebook.cell_texts(python_source)
    if texts is None:
        return None
    changed: dict[int, str] = {}
    for cell, new in zip(notebook.cells, texts, strict=True):
        if new == cell.python:
            continue
        restored = _restore(new, cell)
        if not cell.source.endswith("\n") and restored.endswith("\n"):
            restored = restored[:-1]
        if restored != cell.source:
            changed[cell.number] = restored
    return changed
