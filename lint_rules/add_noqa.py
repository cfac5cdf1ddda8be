"""``toolret check --add-noqa``: silence every reported diagnostic with a ``# noqa`` comment.

ruff's ``--add-noqa`` (0.17), which is how a team adopts a linter on a codebase
that already has findings: run it once, turn the check on in CI, fix the
findings over time.

* The comment goes on the row toolret reads it on (``Diagnostic.noqa_row``:
  the diagnostic's first line, or the last line of the multi-line string or
  backslash continuation that starts there).
* A line without a directive gets ``  # noqa: CODES`` after the code (after its
  comment, if it has one): ``x = 1  # explain`` → ``x = 1  # explain  # noqa:
  TRV101``, as ruff writes it.
* An existing ``# noqa: CODES`` gets the new codes merged in, written as ruff
  writes them: ``# noqa: `` and every code, deduplicated and sorted (other
  tools' codes kept). Unlike ruff, text after the codes (a reason, another
  comment) is kept rather than dropped. A bare ``# noqa`` already silences
  everything and is left alone.
* Nothing but comments ever changes: the new text is tokenized and compared
  with the old one (every token but comments must be equal) and each new
  directive must be read back as suppressing its codes. A line where that
  fails (its end lies inside a string, the file does not tokenize there) is
  left as it is and counted as skipped.
* Bytes are decoded and encoded back as the fixer does (PEP 263, BOM, line
  endings untouched) and written with :func:`lint_rules.fixes.write_atomic`,
  which refuses a file that changed since it was read.

Nothing here prints or exits: the CLI reports.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from lint_rules.analysis.noqa import (
    NoqaDirectives,
    _comment_start,
    _split_line_ending,
    lex_directive,
)
from lint_rules.fixes import (
    FileChangedError,
    Problem,
    SourceCodec,
    _encode,
    _read,
    split_lines,
    write_atomic,
)
from lint_rules.model import Diagnostic
from lint_rules.notebook import Notebook, NotebookError, is_notebook
from lint_rules.rules import UNSUPPRESSIBLE

__all__ = ["AddNoqaResult", "FileNoqa", "add_noqa_to_files", "add_noqa_to_source", "noqa_line"]


def noqa_line(line: str, codes: Iterable[str], reason: str | None = None) -> str:
    """``line`` (one physical line, with or without its line break) with ``codes`` in its
    ``# noqa`` directive, ruff's way; unchanged when the directive already covers them."""
    body, ending = _split_line_ending(line)
    wanted = sorted(set(codes))
    suffix = f" {reason}" if reason else ""
    comment = _comment_start(body)
    if comment is not None:
        directive = lex_directive(body[comment:])
        if directive is not None:
            start, end = comment + directive.start, comment + directive.end
            if directive.codes is None:  # a blanket directive silences everything already
                return line
            if directive.is_valid:
                missing = [code for code in wanted if not directive.covers(code)]
                if not missing:
                    return line
                merged = sorted(dict.fromkeys([*directive.codes, *missing]))
                rest = body[end:]
                if reason and not rest.strip():
                    rest = suffix
                return f"{body[:start]}# noqa: {', '.join(merged)}{rest}{ending}"
            # A malformed directive would hide one behind it: put ours first.
            return f"{body[:start]}# noqa: {', '.join(wanted)}{suffix} {body[start:]}{ending}"
    return f"{body.rstrip()}  # noqa: {', '.join(wanted)}{suffix}{ending}"


@dataclass
class AddNoqaResult:
    """What adding directives to one text did."""

    source: str
    added: int = 0
    """Lines that got a new directive or new codes (ruff counts directives, not codes)."""
    skipped: list[int] = field(default_factory=list)
    """Rows that could not take a comment (their end lies inside a string, …)."""


def _code_tokens(source: str) -> tuple[list[tuple[int, str]], str | None]:
    """Every token but comments (type and text), and the tokenizer's error if it stopped."""
    tokens: list[tuple[int, str]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source, newline=None).readline):
            if token.type != tokenize.COMMENT:
                tokens.append((token.type, token.string))
    except (tokenize.TokenError, SyntaxError) as error:
        return tokens, type(error).__name__
    return tokens, None


def _suppressed(source: str, wanted: Mapping[int, Sequence[str]]) -> bool:
    directives = NoqaDirectives.from_source(source)
    for row, codes in wanted.items():
        directive = directives.line_directive(row)
        if directive is None or not all(directive.covers(code) for code in codes):
            return False
    return True


def add_noqa_to_source(
    source: str, diagnostics: Iterable[Diagnostic], *, reason: str | None = None
) -> AddNoqaResult:
    """``source`` with a directive for each of ``diagnostics`` (computed on ``source``)."""
    by_row: dict[int, set[str]] = {}
    for diagnostic in diagnostics:
        if diagnostic.code in UNSUPPRESSIBLE:
            continue  # a directive would hide an unchecked file from every later run
        by_row.setdefault(diagnostic.noqa_row, set()).add(diagnostic.code)
    lines = split_lines(source)
    edits: dict[int, str] = {}
    open_rows = _rows_with_unterminated_string(source) if by_row else set()
    skipped: list[int] = []
    for row, codes in sorted(by_row.items()):
        if not 1 <= row <= len(lines):
            continue
        if row in open_rows:
            skipped.append(row)
            continue
        new = noqa_line(lines[row - 1], codes, reason)
        if new != lines[row - 1]:
            edits[row] = new
    if not edits:
        return AddNoqaResult(source, skipped=skipped)

    def render(accepted: Mapping[int, str]) -> str:
        return "".join(accepted.get(index, line) for index, line in enumerate(lines, start=1))

    expected = _code_tokens(source)
    candidate = render(edits)
    wanted = {row: sorted(by_row[row]) for row in edits}
    if _code_tokens(candidate) == expected and _suppressed(candidate, wanted):
        return AddNoqaResult(candidate, added=len(edits), skipped=skipped)
    # Some line cannot take a comment: accept the edits one by one.
    accepted: dict[int, str] = {}
    for row, new in edits.items():
        attempt = render({**accepted, row: new})
        if _code_tokens(attempt) == expected and _suppressed(attempt, {row: wanted[row]}):
            accepted[row] = new
        else:
            skipped.append(row)
    return AddNoqaResult(render(accepted), added=len(accepted), skipped=sorted(skipped))


def _rows_with_unterminated_string(source: str) -> set[int]:
    """Rows where a quote opens a string that the line never closes: what follows it on
    the line is that string's text for CPython, even where the pure-Python tokenizer
    (3.11) goes on past an error token and would read a comment there."""
    rows: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source, newline=None).readline):
            if token.type == tokenize.ERRORTOKEN and token.string[-1:] in ("'", '"'):
                rows.add(token.start[0])
    except (tokenize.TokenError, SyntaxError):
        pass
    return rows


@dataclass
class FileNoqa:
    """What ``--add-noqa`` did to one file."""

    path: str
    added: int = 0
    skipped: list[int] = field(default_factory=list)
    written: bool = False
    problems: list[Problem] = field(default_factory=list)
    write_error: bool = False


def add_noqa_to_files(
    files: Iterable[tuple[str, Sequence[Diagnostic], str | None]],
    *,
    reason: str | None = None,
) -> list[FileNoqa]:
    """Add directives to each ``(path, diagnostics, text they were computed on)`` and write.

    A file whose bytes no longer decode to that text is left alone (the positions
    would be wrong), as is one that changes between reading and writing.
    """
    outcomes: list[FileNoqa] = []
    for path, found, source in files:
        diagnostics = [d for d in found if d.code not in UNSUPPRESSIBLE]
        if not diagnostics or source is None:
            continue
        outcome = FileNoqa(path)
        outcomes.append(outcome)
        try:
            data = _read(path)
        except OSError as error:
            outcome.problems.append(Problem(f"not changed: cannot read it ({error.strerror})"))
            outcome.write_error = True
            continue
        if is_notebook(path):
            _add_to_notebook(outcome, data, diagnostics, source, reason)
            continue
        try:
            codec = SourceCodec.of(data)
            text = codec.decode(data)
        except (SyntaxError, UnicodeDecodeError, LookupError) as error:
            outcome.problems.append(Problem(f"not changed: cannot decode the file ({error})"))
            continue
        if text != source:
            outcome.problems.append(_changed_problem())
            continue
        result = add_noqa_to_source(text, diagnostics, reason=reason)
        outcome.skipped = result.skipped
        if not result.added:
            continue
        encoded, why = _encode(codec, result.source)
        if encoded is None:
            outcome.problems.append(Problem(f"not changed: cannot encode it as before ({why})"))
            outcome.skipped = sorted({*outcome.skipped, *_rows(diagnostics)})
            continue
        _write(outcome, data, encoded, result.added)
    return outcomes


def _add_to_notebook(
    outcome: FileNoqa,
    data: bytes,
    diagnostics: Sequence[Diagnostic],
    source: str,
    reason: str | None,
) -> None:
    """A notebook: the directives go into the module of its cells (rows back from the
    cells), and only the cells that changed are written back into the JSON."""
    try:
        notebook = Notebook.from_bytes(data)
    except NotebookError as error:
        outcome.problems.append(Problem(f"not changed: cannot read the notebook ({error})"))
        return
    if notebook.python_source != source:
        outcome.problems.append(_changed_problem())
        return
    result = add_noqa_to_source(source, [notebook.to_module(d) for d in diagnostics], reason=reason)
    outcome.skipped = result.skipped
    if not result.added:
        return
    try:
        written = notebook.write_sources(result.source)
    except NotebookError as error:  # this notebook is left as it is, the run goes on
        outcome.problems.append(Problem(f"not changed: cannot write the notebook back ({error})"))
        return
    if written is None:
        outcome.problems.append(Problem("not changed: the cells could not be written back"))
        return
    _write(outcome, data, notebook.encode(written[0]), result.added)


def _write(outcome: FileNoqa, data: bytes, encoded: bytes, added: int) -> None:
    """Replace the file's bytes ``data`` with ``encoded`` (atomically, if unchanged)."""
    try:
        write_atomic(outcome.path, encoded, expected=data)
    except FileChangedError:
        outcome.problems.append(_changed_problem())
        return
    except OSError as error:
        outcome.problems.append(Problem(f"not changed: cannot write it ({error})"))
        outcome.write_error = True
        return
    outcome.written = True
    outcome.added = added


def _rows(diagnostics: Iterable[Diagnostic]) -> set[int]:
    return {d.noqa_row for d in diagnostics}


def _changed_problem() -> Problem:
    return Problem(
        "not changed: the file changed while toolret was adding noqa directives; "
        "it was left as it is (run it again)"
    )
