"""The fix engine: diagnostics' fixes applied to source text, to a fixed point, written safely.

Three layers, each usable on its own:

* **text** — :func:`apply_fixes` applies fixes to a string in one pass. Edits
  are positioned like ruff's: 1-based rows (``\\n``, ``\\r\\n`` and a lone
  ``\\r`` end a row, as for CPython and LibCST), 1-based code-point columns,
  exclusive end. A fix is applied whole or not at all; a fix that overlaps
  one already taken waits for the next pass; two identical fixes (two rules
  proposing the same edit) are applied once and both count as fixed. A line
  break in an edit is written in the file's own style (LF, CRLF or CR), and
  an edit never glues two tokens together (``return`` + ``str(3)`` gets a
  space rather than becoming ``returnstr(3)``, a different program that
  still parses).
* **source** — :func:`fix_source` iterates: check, apply, *re-parse*, check
  again, until nothing fixable is left or :data:`MAX_PASSES` passes ran, so
  overlapping fixes land in later passes instead of being dropped. A fix
  whose output does not parse is dropped and reported (:class:`RejectedFix`)
  while the others still apply, and the diagnostic it belongs to is left
  without a fix in ``FixResult.remaining`` (fixing again would only reject it
  again, so it is not fixable); fixable diagnostics left when the passes run
  out are reported too (``FixResult.converged``). ``# noqa``-suppressed
  diagnostics never reach this module: the engine already dropped them.
* **file** — :func:`fix_file` reads bytes, decodes them as CPython does
  (PEP 263 cookie, BOM), fixes the text and encodes it back the same way,
  checking that the new bytes decode to exactly the fixed text; line endings
  are untouched because decoding does not translate them. :func:`write_atomic`
  refuses to overwrite a file whose bytes changed since they were read, and
  replaces it atomically (a temporary file in the same directory, then
  ``os.replace``), keeping its mode.

Every layer returns values — nothing here prints, exits or raises for one bad
file — so the CLI, the LibCST codemod and tests share one engine.
"""

from __future__ import annotations

import ast
import bisect
import codecs
import contextlib
import io
import itertools
import os
import re
import stat
import tempfile
import tokenize
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from lint_rules.fileio import read_regular
from lint_rules.model import Applicability, Diagnostic, Fix, Location
from lint_rules.notebook import Notebook, NotebookError, NotebookText, is_notebook

if TYPE_CHECKING:
    from lint_rules.config import Settings

MAX_PASSES = 10
"""Passes of check → apply before :func:`fix_source` gives up (each pass re-checks)."""

LINE_BREAK = re.compile(r"\r\n|\r|\n")

Checker = Callable[[str], list[Diagnostic]]
"""Checks one version of a file's text (the engine's ``check_source`` bound to a path)."""


# ------------------------------------------------------------------ positions


class InvalidFix(ValueError):
    """A fix whose edits point outside the text or overlap each other."""


def line_offsets(source: str) -> list[int]:
    """Offset of the start of each row (index 0 → row 1); ``\\n``, ``\\r\\n`` and a lone
    ``\\r`` end a row, which is how CPython's tokenizer and LibCST count them."""
    return [0, *(match.end() for match in LINE_BREAK.finditer(source))]


def offset_of(offsets: Sequence[int], location: Location) -> int:
    return offsets[location.row - 1] + location.column - 1


def _checked_offset(source: str, offsets: Sequence[int], location: Location) -> int:
    """``offset_of``, refusing a row or column that is not in ``source``."""
    row, column = location.row, location.column
    if not 1 <= row <= len(offsets) or column < 1:
        raise InvalidFix(f"position {row}:{column} is not in the file")
    row_end = offsets[row] if row < len(offsets) else len(source)
    offset = offsets[row - 1] + column - 1
    if offset > row_end:
        raise InvalidFix(f"position {row}:{column} is past the end of its line")
    return offset


def newline_of(source: str) -> str:
    """The file's line-ending style: its first line break, ``\\n`` when it has none."""
    match = LINE_BREAK.search(source)
    return match.group() if match else "\n"


def split_lines(text: str) -> list[str]:
    """The rows of ``text``, each with its own line break (the last may have none)."""
    bounds = [*line_offsets(text), len(text)]
    return [text[start:end] for start, end in itertools.pairwise(bounds) if start < end]


def unified_diff(before: str, after: str, label: str, *, context: int = 3) -> str:
    """ruff's ``--diff`` for one file: ``--- label`` / ``+++ label`` and the hunks.

    Lines keep their own line breaks (a CRLF file's diff has CRLF lines); a last
    line without one gets diff's ``\\ No newline at end of file``. The lines are
    matched by :func:`matching_lines` (patience diff), whose time grows with the
    file, not with its square, however many lines a fix run changed.
    """
    import difflib

    a, b = split_lines(before), split_lines(after)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    # get_grouped_opcodes reads the blocks from this cache, so patience's replace difflib's.
    matcher.matching_blocks = matching_lines(a, b)  # type: ignore[attr-defined]
    pieces: list[str] = []
    for group in matcher.get_grouped_opcodes(context):
        if not pieces:
            pieces += [f"--- {label}\n", f"+++ {label}\n"]
        first, last = group[0], group[-1]
        old = _hunk_range(first[1], last[2])
        new = _hunk_range(first[3], last[4])
        pieces.append(f"@@ -{old} +{new} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                pieces += [" " + line for line in a[i1:i2]]
                continue
            pieces += ["-" + line for line in a[i1:i2]]
            pieces += ["+" + line for line in b[j1:j2]]
    return "".join(
        line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n"
        for line in pieces
    )


def _hunk_range(start: int, stop: int) -> str:
    """A hunk's ``start,length`` as ``diff -u`` writes it (``difflib``'s format)."""
    beginning, length = start + 1, stop - start
    if length == 1:
        return str(beginning)
    if not length:
        beginning -= 1  # an empty range begins before the first line
    return f"{beginning},{length}"


def matching_lines(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int]]:
    """``SequenceMatcher.get_matching_blocks`` of two line lists, by patience diff.

    Lines that occur exactly once in each side of a region anchor it (their longest
    increasing run, found by patience sorting); the common ends of every region are
    matched first and the stretches between anchors are matched the same way. Only a
    stretch with no anchor left goes to ``difflib`` (quadratic at worst, but such
    stretches are small in real files). difflib alone is quadratic in the changes:
    3,000 fixed lines took it 11 s.
    """
    import difflib

    found: list[tuple[int, int, int]] = []
    regions = [(0, len(a), 0, len(b))]
    while regions:
        alo, ahi, blo, bhi = regions.pop()
        head = 0
        while alo + head < ahi and blo + head < bhi and a[alo + head] == b[blo + head]:
            head += 1
        if head:
            found.append((alo, blo, head))
            alo, blo = alo + head, blo + head
        tail = 0
        while ahi - tail > alo and bhi - tail > blo and a[ahi - tail - 1] == b[bhi - tail - 1]:
            tail += 1
        if tail:
            found.append((ahi - tail, bhi - tail, tail))
            ahi, bhi = ahi - tail, bhi - tail
        if alo == ahi or blo == bhi:
            continue
        anchors = _anchors(a, b, alo, ahi, blo, bhi)
        if not anchors:
            matcher = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
            found += [(alo + i, blo + j, n) for i, j, n in matcher.get_matching_blocks() if n]
            continue
        previous_a, previous_b = alo, blo
        for i, j in anchors:
            found.append((i, j, 1))
            regions.append((previous_a, i, previous_b, j))
            previous_a, previous_b = i + 1, j + 1
        regions.append((previous_a, ahi, previous_b, bhi))
    found.sort()
    merged: list[tuple[int, int, int]] = []
    for i, j, n in found:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            last = merged.pop()
            merged.append((last[0], last[1], last[2] + n))
        else:
            merged.append((i, j, n))
    merged.append((len(a), len(b), 0))
    return merged


def _anchors(
    a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of lines unique to both regions, the longest run increasing in both."""
    counts: dict[str, list[int]] = {}
    for i in range(alo, ahi):
        entry = counts.setdefault(a[i], [0, i, 0, -1])
        entry[0] += 1
    for j in range(blo, bhi):
        seen = counts.get(b[j])
        if seen is not None:
            seen[2] += 1
            seen[3] = j
    pairs = sorted(
        (i, j) for count_a, i, count_b, j in counts.values() if count_a == 1 and count_b == 1
    )
    # Longest increasing subsequence of the b positions (patience sorting).
    tops: list[int] = []
    top_index: list[int] = []
    back: list[int] = []
    for index, (_, j) in enumerate(pairs):
        pile = bisect.bisect_left(tops, j)
        back.append(top_index[pile - 1] if pile else -1)
        if pile == len(tops):
            tops.append(j)
            top_index.append(index)
        else:
            tops[pile] = j
            top_index[pile] = index
    run: list[tuple[int, int]] = []
    at = top_index[-1] if top_index else -1
    while at >= 0:
        run.append(pairs[at])
        at = back[at]
    return run[::-1]


# ------------------------------------------------------------------ selecting fixes


def is_applicable(diagnostic: Diagnostic, *, unsafe: bool = False) -> bool:
    """Whether ``fix`` applies this diagnostic's fix (``unsafe``: with ``--unsafe-fixes``)."""
    fix = diagnostic.fix
    if fix is None:
        return False
    if fix.applicability is Applicability.SAFE:
        return True
    return unsafe and fix.applicability is Applicability.UNSAFE


def fixes_to_apply(diagnostics: Iterable[Diagnostic], *, unsafe: bool = False) -> list[Fix]:
    return [d.fix for d in diagnostics if d.fix is not None and is_applicable(d, unsafe=unsafe)]


# ------------------------------------------------------------------ one pass over text

_Span = tuple[int, int, str]
"""An edit resolved to offsets: (start, end, content)."""


@dataclass(frozen=True)
class _Plan:
    """One fix resolved against one version of the text."""

    index: int
    spans: tuple[_Span, ...]


def _identifier_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _plan(source: str, offsets: Sequence[int], newline: str, index: int, fix: Fix) -> _Plan:
    spans: list[_Span] = []
    for edit in fix.edits:
        start = _checked_offset(source, offsets, edit.location)
        end = _checked_offset(source, offsets, edit.end_location)
        if start > end:
            raise InvalidFix(
                f"edit at {edit.location.row}:{edit.location.column} ends before it starts"
            )
        content = edit.content
        if "\r" in content or "\n" in content:
            content = LINE_BREAK.sub(newline, content)
        # Never glue the edit to a neighbouring name, keyword or number.
        if (
            content
            and _identifier_char(content[0])
            and start
            and _identifier_char(source[start - 1])
        ):
            content = " " + content
        if (
            content
            and _identifier_char(content[-1])
            and end < len(source)
            and _identifier_char(source[end])
        ):
            content = content + " "
        spans.append((start, end, content))
    ordered = sorted(spans, key=lambda span: (span[0], span[1]))
    for before, after in itertools.pairwise(ordered):
        if _overlaps((before[0], before[1]), (after[0], after[1])):
            raise InvalidFix("the fix's own edits overlap")
    return _Plan(index, tuple(spans))


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    # Two insertions at the same point conflict (their order would be arbitrary);
    # an insertion at the boundary of a replacement does not.
    if a == b:
        return True
    return a[0] < b[1] and b[0] < a[1]


@dataclass
class _Selection:
    taken: list[_Plan] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)
    """Indexes of fixes identical to one taken: applied once, counted for each."""
    deferred: list[int] = field(default_factory=list)


def _select(plans: Sequence[_Plan]) -> _Selection:
    selection = _Selection()
    taken = _TakenSpans()
    seen: set[tuple[_Span, ...]] = set()
    for plan in plans:
        key = tuple(sorted(plan.spans))
        if key in seen:
            selection.duplicates.append(plan.index)
            continue
        spans = [(start, end) for start, end, _ in plan.spans]
        if any(taken.overlaps(span) for span in spans):
            selection.deferred.append(plan.index)
            continue
        for span in spans:
            taken.add(span)
        seen.add(key)
        selection.taken.append(plan)
    return selection


class _TakenSpans:
    """The spans of the fixes taken so far, asked :func:`_overlaps` in log time.

    Taken spans never overlap, so sorted by start their ends rise too: the only
    one that can overlap ``(start, end)`` is the last that starts before ``end``
    (an insertion, ``start == end``, also meets one at the same point). A fix run
    over 10,000 diagnostics is linear in them, not quadratic.
    """

    def __init__(self) -> None:
        self._sorted: list[tuple[int, int]] = []
        self._insertions: set[int] = set()

    def overlaps(self, span: tuple[int, int]) -> bool:
        start, end = span
        if start == end and start in self._insertions:
            return True
        index = bisect.bisect_left(self._sorted, (end, -1))
        return bool(index) and self._sorted[index - 1][1] > start

    def add(self, span: tuple[int, int]) -> None:
        bisect.insort(self._sorted, span)
        if span[0] == span[1]:
            self._insertions.add(span[0])


def _render(source: str, plans: Iterable[_Plan]) -> str:
    edits = [
        (start, end, order, content)
        for plan in plans
        for order, (start, end, content) in enumerate(plan.spans)
    ]
    # From the end so earlier offsets stay valid; at one offset, the fix's own edit order.
    pieces: list[str] = []
    position = len(source)
    for start, end, _, content in sorted(edits, key=lambda e: (e[0], e[1], e[2]), reverse=True):
        pieces.append(source[end:position])
        pieces.append(content)
        position = start
    pieces.append(source[:position])
    return "".join(reversed(pieces))


def apply_fixes(source: str, fixes: Iterable[Fix]) -> tuple[str, int, int]:
    """One pass: apply the fixes that do not overlap; return (new source, applied, deferred).

    ``applied`` counts identical duplicates as applied; a malformed fix (edits out
    of range or overlapping each other) counts as deferred and is never applied.
    """
    offsets = line_offsets(source)
    newline = newline_of(source)
    plans: list[_Plan] = []
    invalid = 0
    for index, fix in enumerate(fixes):
        try:
            plans.append(_plan(source, offsets, newline, index, fix))
        except InvalidFix:
            invalid += 1
    selection = _select(plans)
    applied = len(selection.taken) + len(selection.duplicates)
    return _render(source, selection.taken), applied, len(selection.deferred) + invalid


# ------------------------------------------------------------------ to a fixed point


@dataclass(frozen=True)
class RejectedFix:
    """A fix that was not applied: its edits are malformed, or its result would not parse."""

    diagnostic: Diagnostic
    reason: str


@dataclass
class FixResult:
    original: str
    source: str
    """The text after every pass."""
    fixed: list[Diagnostic] = field(default_factory=list)
    """The diagnostics whose fix was applied, pass by pass (positions of their pass)."""
    remaining: list[Diagnostic] = field(default_factory=list)
    """The diagnostics of the final text. One whose fix was rejected is here without its
    fix (``fix`` is ``None``): fixing again would reject it again, so it is not fixable."""
    rejected: list[RejectedFix] = field(default_factory=list)
    passes: int = 0
    converged: bool = True
    """False when fixable diagnostics were still left after :data:`MAX_PASSES` passes."""
    unsafe: bool = False
    rejected_keys: frozenset[tuple[str, ...]] = frozenset()
    """What identifies the rejected fixes' diagnostics in any version of the text."""

    @property
    def changed(self) -> bool:
        return self.source != self.original

    @property
    def left_over(self) -> list[Diagnostic]:
        """Remaining diagnostics that a further pass would still fix (when not converged)."""
        return [d for d in self.remaining if is_applicable(d, unsafe=self.unsafe)]


def syntax_error(source: str, *, with_compile: bool = True) -> str | None:
    """Why ``source`` is not valid Python (CPython's parser, then LibCST's), or ``None``.

    Both must accept it: the engine parses with LibCST, the framework runs it on
    CPython. ``with_compile=False`` skips CPython for a file that uses syntax
    newer than the running interpreter (it did not compile before the fix either).
    """
    import libcst as cst

    if with_compile:
        try:
            compile(source, "<fixed>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        except SyntaxError as error:
            return f"{error.msg} (line {error.lineno}, column {error.offset})"
        except (ValueError, RecursionError, MemoryError) as error:
            return f"{type(error).__name__}: {error}"
    from lint_rules.analysis.module import parse_module

    try:
        parse_module(source, "<fixed>")  # as the engine parses: raises nothing else
    except cst.ParserSyntaxError as error:
        return f"{error.message} (line {error.raw_line}, column {error.raw_column + 1})"
    return None


def _compiles(source: str) -> bool:
    try:
        compile(source, "<source>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _rejection_key(source: str, offsets: Sequence[int], diagnostic: Diagnostic) -> tuple[str, ...]:
    """What identifies one finding across passes, whose positions shift as others apply."""
    assert diagnostic.fix is not None
    try:
        start = offset_of(offsets, diagnostic.location)
        end = offset_of(offsets, diagnostic.end_location)
        text = source[start:end]
    except IndexError:
        text = ""
    contents = tuple(edit.content for edit in diagnostic.fix.edits)
    return (diagnostic.code, diagnostic.message, diagnostic.fix.message, text, *contents)


def without_rejected_fixes(
    source: str,
    diagnostics: list[Diagnostic],
    rejected_keys: Collection[tuple[str, ...]],
    *,
    unsafe: bool = False,
) -> list[Diagnostic]:
    """``diagnostics`` of ``source``, those whose fix was rejected without it (``fix=None``).

    A diagnostic is matched as :func:`fix_source` matches it to skip a rejected fix
    in later passes (code, messages, the text it covers, the fix's contents), so
    exactly the diagnostics a further ``--fix`` would not fix lose their fix.
    """
    if not rejected_keys:
        return diagnostics
    offsets = line_offsets(source)
    return [
        replace(d, fix=None)
        if is_applicable(d, unsafe=unsafe) and _rejection_key(source, offsets, d) in rejected_keys
        else d
        for d in diagnostics
    ]


def fix_source(
    source: str,
    check: Checker,
    *,
    unsafe: bool = False,
    diagnostics: list[Diagnostic] | None = None,
    max_passes: int = MAX_PASSES,
) -> FixResult:
    """Apply every applicable fix of ``check(source)``'s diagnostics, pass after pass.

    ``diagnostics`` are ``check(source)`` when the caller already has them. Each
    pass applies the non-overlapping fixes, re-parses the result (a fix that makes
    it invalid is dropped and reported, the rest still apply), then re-checks the
    new text; it stops when nothing applicable is left, when a pass changes
    nothing, or after ``max_passes`` passes (``converged`` is then False). The
    diagnostics left whose fix was rejected are in ``remaining`` without their fix.
    """
    result = FixResult(original=source, source=source, unsafe=unsafe)
    with_compile: bool | None = None  # decided at the first pass: most files have none
    rejected_keys: set[tuple[str, ...]] = set()
    current = source
    found = check(current) if diagnostics is None else diagnostics
    while True:
        offsets = line_offsets(current)
        candidates = [
            d
            for d in found
            if is_applicable(d, unsafe=unsafe)
            and _rejection_key(current, offsets, d) not in rejected_keys
        ]
        if not candidates:
            break
        if result.passes == max_passes:
            result.converged = False
            break
        result.passes += 1
        if with_compile is None:
            # Syntax LibCST parses but this CPython does not: judge fixes by LibCST alone.
            with_compile = _compiles(source)
        text, applied, rejected = _one_pass(current, offsets, candidates, with_compile)
        for rejection in rejected:
            rejected_keys.add(_rejection_key(current, offsets, rejection.diagnostic))
            result.rejected.append(rejection)
        if text == current:
            # Nothing applied (all rejected), or fixes that change nothing: re-checking
            # would find the same diagnostics again, and they remain.
            break
        result.fixed.extend(applied)
        current = text
        found = check(current)
    result.source = current
    result.rejected_keys = frozenset(rejected_keys)
    result.remaining = without_rejected_fixes(current, found, rejected_keys, unsafe=unsafe)
    return result


def _one_pass(
    source: str, offsets: Sequence[int], candidates: Sequence[Diagnostic], with_compile: bool
) -> tuple[str, list[Diagnostic], list[RejectedFix]]:
    newline = newline_of(source)
    rejected: list[RejectedFix] = []
    plans: list[_Plan] = []
    for index, diagnostic in enumerate(candidates):
        assert diagnostic.fix is not None
        try:
            plans.append(_plan(source, offsets, newline, index, diagnostic.fix))
        except InvalidFix as error:
            rejected.append(RejectedFix(diagnostic, f"invalid fix: {error}"))
    selection = _select(plans)
    text = _render(source, selection.taken)
    if syntax_error(text, with_compile=with_compile) is None:
        return text, _applied(candidates, selection), rejected

    # Some fix breaks the file: try each alone, then combine the good ones one by
    # one (a fix that only breaks in combination waits for the next pass).
    good: list[_Plan] = []
    for plan in selection.taken:
        problem = syntax_error(_render(source, [plan]), with_compile=with_compile)
        if problem is None:
            good.append(plan)
        else:
            reason = f"the fixed code would not parse: {problem}"
            rejected.append(RejectedFix(candidates[plan.index], reason))
    kept: list[_Plan] = []
    text = source
    for plan in good:
        attempt = _render(source, [*kept, plan])
        if syntax_error(attempt, with_compile=with_compile) is None:
            kept.append(plan)
            text = attempt
    kept_keys = {tuple(sorted(plan.spans)) for plan in kept}
    key_of = {plan.index: tuple(sorted(plan.spans)) for plan in plans}
    duplicates = [index for index in selection.duplicates if key_of[index] in kept_keys]
    applied = [candidates[plan.index] for plan in kept] + [candidates[i] for i in duplicates]
    return text, applied, rejected


def _applied(candidates: Sequence[Diagnostic], selection: _Selection) -> list[Diagnostic]:
    indexes = sorted([plan.index for plan in selection.taken] + selection.duplicates)
    return [candidates[index] for index in indexes]


# ------------------------------------------------------------------ bytes and files


@dataclass(frozen=True)
class SourceCodec:
    """How a file's bytes become text and back: PEP 263 encoding and byte-order mark."""

    encoding: str
    bom: bool

    @classmethod
    def of(cls, data: bytes) -> SourceCodec:
        """Detect as CPython does; raises ``SyntaxError`` (bad cookie) or ``LookupError``."""
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        bom = data.startswith(codecs.BOM_UTF8)
        if encoding == "utf-8-sig":
            encoding = "utf-8"
        return cls(codecs.lookup(encoding).name, bom)

    def decode(self, data: bytes) -> str:
        if self.bom:
            data = data[len(codecs.BOM_UTF8) :]
        return data.decode(self.encoding)

    def encode(self, text: str) -> bytes:
        data = text.encode(self.encoding)
        return codecs.BOM_UTF8 + data if self.bom else data


@dataclass(frozen=True)
class Problem:
    """Something the user must hear about one file: a rejected fix, a refused write…"""

    message: str
    location: Location | None = None

    def describe(self, shown_path: str) -> str:
        """``path:row:col: message`` (or ``path: message``), the diagnostics' shape."""
        if self.location is None:
            return f"{shown_path}: {self.message}"
        return f"{shown_path}:{self.location.row}:{self.location.column}: {self.message}"


@dataclass
class FileFix:
    """What fixing one file did (a value even when it failed: see ``problems``)."""

    path: str
    original: bytes
    result: FixResult | None = None
    """``None`` when the file could not be read or decoded."""
    fixed_bytes: bytes | None = None
    """The new content, when fixing changed the text and it encodes back."""
    written: bool = False
    problems: list[Problem] = field(default_factory=list)
    """Messages for the user: rejected fixes, non-convergence, a refused write."""
    write_error: bool = False
    """True when writing failed for a reason other than the file changing meanwhile."""

    @property
    def changed(self) -> bool:
        return self.fixed_bytes is not None


def fix_file(
    path: str,
    data: bytes,
    check: Checker,
    *,
    unsafe: bool = False,
    known_source: str | None = None,
    known_diagnostics: list[Diagnostic] | None = None,
    max_passes: int = MAX_PASSES,
) -> FileFix:
    """Fix the text of ``data`` (the bytes of ``path``); nothing is written here.

    ``known_diagnostics`` are reused for the first pass when the bytes still decode
    to ``known_source`` (what the runner checked); otherwise the text is checked
    afresh, since positions from another version of the file would be wrong.
    """
    outcome = FileFix(path=path, original=data)
    if is_notebook(path):
        return _fix_notebook(outcome, data, check, unsafe=unsafe, max_passes=max_passes)
    try:
        codec = SourceCodec.of(data)
        text = codec.decode(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        outcome.problems.append(Problem(f"not fixed: cannot decode the file ({error})"))
        return outcome
    reuse = known_diagnostics if known_source is not None and known_source == text else None
    result = fix_source(text, check, unsafe=unsafe, diagnostics=reuse, max_passes=max_passes)
    outcome.result = result
    outcome.problems.extend(describe_fix_problems(result))
    if result.changed:
        encoded, problem = _encode(codec, result.source)
        if encoded is None:
            outcome.problems.append(Problem(f"not fixed: cannot encode it as before ({problem})"))
            _unfix(outcome, check)
            return outcome
        outcome.fixed_bytes = encoded
    return outcome


def _fix_notebook(
    outcome: FileFix, data: bytes, check: Checker, *, unsafe: bool, max_passes: int
) -> FileFix:
    """Fix a notebook: the module of its code cells is fixed like a file, then each
    cell whose text changed gets its new ``source`` in the JSON — every other byte of
    the notebook stays as it was. The result's diagnostics are placed in their cells."""
    try:
        notebook = Notebook.from_bytes(data)
    except NotebookError as error:
        outcome.problems.append(Problem(f"not fixed: cannot read the notebook ({error})"))
        return outcome
    result = fix_source(notebook.python_source, check, unsafe=unsafe, max_passes=max_passes)
    outcome.problems.extend(describe_fix_problems(result))
    fixed_notebook = notebook
    if result.changed:
        problem = "not fixed: a fix changed the notebook outside its code cells"
        try:
            written = notebook.write_sources(result.source)
            if written is not None:
                fixed_notebook = Notebook.from_text(written[0], bom=notebook.bom)
        except NotebookError as error:  # this notebook is left as it is, the run goes on
            written = None
            problem = f"not fixed: cannot write the notebook back ({error})"
        if written is None:
            outcome.problems.append(Problem(problem))
            result = FixResult(
                original=result.original,
                source=result.original,
                remaining=check(result.original),
                unsafe=unsafe,
            )
        else:
            outcome.fixed_bytes = notebook.encode(written[0])
    outcome.result = FixResult(
        original=NotebookText(notebook),
        source=NotebookText(fixed_notebook) if outcome.fixed_bytes else NotebookText(notebook),
        fixed=[notebook.to_cells(d) for d in result.fixed],
        remaining=[fixed_notebook.to_cells(d) for d in result.remaining],
        rejected=result.rejected,
        passes=result.passes,
        converged=result.converged,
        unsafe=result.unsafe,
        rejected_keys=result.rejected_keys,
    )
    return outcome


def describe_fix_problems(result: FixResult) -> list[Problem]:
    """What a :class:`FixResult` must tell the user: rejected fixes, fixes left over."""
    problems = [
        Problem(
            f"fix for {rejection.diagnostic.code} not applied: {rejection.reason}. "
            "This is a bug in toolret; please report it",
            rejection.diagnostic.location,
        )
        for rejection in result.rejected
    ]
    if not result.converged:
        codes = ", ".join(sorted({d.code for d in result.left_over}))
        problems.append(
            Problem(
                f"fixes did not settle after {result.passes} passes; "
                f"{len(result.left_over)} fixable diagnostics left ({codes})"
            )
        )
    return problems


def _encode(codec: SourceCodec, text: str) -> tuple[bytes | None, str]:
    """``text`` as bytes the way the file was, provided they decode back to ``text``."""
    try:
        encoded = codec.encode(text)
        round_trip = SourceCodec.of(encoded).decode(encoded)
    except (SyntaxError, UnicodeError, LookupError) as error:
        return None, str(error)
    if round_trip != text:
        return None, "the encoded text does not decode to the same text"
    return encoded, ""


class FileChangedError(Exception):
    """The file's bytes are no longer those that were read and fixed."""


def write_atomic(path: str, data: bytes, *, expected: bytes) -> None:
    """Replace ``path``'s content with ``data`` if it still holds ``expected``.

    Writes a temporary file in the same directory, gives it the original's mode
    (and owner, where permitted), then ``os.replace``s it over the original — a
    reader sees the old or the new file, never half of one. A symlink is
    followed: its target is replaced and the link stays. Raises
    :class:`FileChangedError` (nothing written) when the file changed since it
    was read, ``OSError`` when it cannot be written.
    """
    target = os.path.realpath(path)
    if _read(target) != expected:
        raise FileChangedError(path)
    info = os.stat(target)
    directory, name = os.path.split(target)
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".toolret-tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, stat.S_IMODE(info.st_mode))
        if hasattr(os, "chown"):
            with contextlib.suppress(OSError):
                os.chown(temporary, info.st_uid, info.st_gid)
        # Last look, to keep the window for a concurrent editor as small as possible.
        if _read(target) != expected:
            raise FileChangedError(path)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _read(path: str) -> bytes:
    return read_regular(path)


@dataclass(frozen=True)
class Candidate:
    """A file the runner checked: its path, diagnostics and the text they refer to."""

    path: str
    diagnostics: list[Diagnostic]
    source: str | None


def fix_files(
    candidates: Iterable[Candidate],
    check: Callable[[str, str], list[Diagnostic]],
    *,
    unsafe: bool = False,
    write: bool = True,
) -> list[FileFix]:
    """Fix each candidate with an applicable fix; ``write=False`` (``--diff``) only computes.

    ``check(path, text)`` checks one version of a file. A file that changed on
    disk between reading and writing is left alone with a message; its
    diagnostics then stay those of the text that was read.
    """
    outcomes: list[FileFix] = []
    for candidate in candidates:
        if not any(is_applicable(d, unsafe=unsafe) for d in candidate.diagnostics):
            continue
        path = candidate.path
        try:
            data = _read(path)
        except OSError as error:
            outcome = FileFix(path=path, original=b"", write_error=True)
            outcome.problems.append(Problem(f"not fixed: cannot read it ({error.strerror})"))
            outcomes.append(outcome)
            continue

        def check_path(text: str, path: str = path) -> list[Diagnostic]:
            return check(path, text)

        outcome = fix_file(
            path,
            data,
            check_path,
            unsafe=unsafe,
            known_source=candidate.source,
            known_diagnostics=candidate.diagnostics,
        )
        if write and outcome.fixed_bytes is not None:
            try:
                write_atomic(path, outcome.fixed_bytes, expected=data)
                outcome.written = True
            except FileChangedError:
                outcome.problems.append(
                    Problem(
                        "not fixed: the file changed while toolret was fixing it; "
                        "it was left as it is (run the fix again)"
                    )
                )
                _unfix(outcome, check_path)
            except OSError as error:
                outcome.problems.append(Problem(f"not fixed: cannot write it ({error})"))
                outcome.write_error = True
                _unfix(outcome, check_path)
        outcomes.append(outcome)
    return outcomes


def _unfix(outcome: FileFix, check: Checker) -> None:
    """The file was not written: nothing counts as fixed and its diagnostics are the old ones."""
    result = outcome.result
    assert result is not None
    outcome.fixed_bytes = None
    outcome.result = FixResult(
        original=result.original,
        source=result.original,
        remaining=without_rejected_fixes(
            result.original, check(result.original), result.rejected_keys, unsafe=result.unsafe
        ),
        rejected=result.rejected,
        unsafe=result.unsafe,
        rejected_keys=result.rejected_keys,
    )


def without_unfixable(settings: Settings, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics with the fixes of ``unfixable`` rules dropped, as ruff drops them:
    still reported, without ``[*]``, a JSON ``fix`` of ``null``, never applied (the CLI
    and the language server's code actions alike)."""
    if not any(d.fix is not None for d in diagnostics):
        return diagnostics
    from lint_rules.catalog import DEFAULT_ENABLED

    fixable = settings.fixable_codes(DEFAULT_ENABLED)
    return [d if d.fix is None or d.code in fixable else replace(d, fix=None) for d in diagnostics]
