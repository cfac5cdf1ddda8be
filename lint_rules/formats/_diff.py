"""The fix preview of ruff's ``full`` format: a line diff of the code around a fix.

ruff diffs a window of three lines around the edits with the ``similar`` crate (Myers'
algorithm, then its ``Compact`` and ``Replace`` passes), keeps one line of context
around each change, and joins change groups that are at most two lines apart. This
module ports those steps so that the preview matches ruff line for line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from lint_rules.formats._snippet import REPLACEMENTS
from lint_rules.formats._source import SourceText
from lint_rules.model import Fix

FIX_CONTEXT = 1
DIFF_CONTEXT_WINDOW = 3
MERGE_WINDOW = 2

# The fix preview shows the code frame's replacements, except that tabs stay tabs, and it
# also replaces a byte-order mark.
DIFF_REPLACEMENTS = {char: text for char, text in REPLACEMENTS.items() if char != "\t"}
DIFF_REPLACEMENTS["\ufeff"] = "\ufffd"

Tag = Literal["equal", "delete", "insert", "replace"]


@dataclass
class _Op:
    """similar's ``DiffOp``; for ``equal`` both lengths are the run's length."""

    tag: Tag
    old_index: int
    old_len: int
    new_index: int
    new_len: int

    def old_range(self) -> range:
        return range(self.old_index, self.old_index + self.old_len)

    def new_range(self) -> range:
        return range(self.new_index, self.new_index + self.new_len)

    def is_empty(self) -> bool:
        return self.old_len == 0 and self.new_len == 0

    def _adjust(self, offset: int, length: int) -> None:
        self.old_index += offset
        self.new_index += offset
        if self.tag == "equal":
            self.old_len += length
            self.new_len += length
        elif self.tag == "delete":
            self.old_len += length
        else:
            self.new_len += length

    def shift_left(self, amount: int) -> None:
        self._adjust(-amount, 0)

    def shift_right(self, amount: int) -> None:
        self._adjust(amount, 0)

    def grow_left(self, amount: int) -> None:
        self._adjust(-amount, amount)

    def grow_right(self, amount: int) -> None:
        self._adjust(0, amount)

    def shrink_left(self, amount: int) -> None:
        self._adjust(0, -amount)

    def shrink_right(self, amount: int) -> None:
        self._adjust(amount, -amount)


def _equal(old_index: int, new_index: int, length: int) -> _Op:
    return _Op("equal", old_index, length, new_index, length)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def split_lines(text: str) -> list[str]:
    """Lines with their terminators (``\\n``, ``\\r\\n`` or a lone ``\\r``)."""
    return _LINE.findall(text)


def _common_prefix_len(old: Sequence[str], old_r: range, new: Sequence[str], new_r: range) -> int:
    if not old_r or not new_r:
        return 0
    count = 0
    for new_i, old_i in zip(new_r, old_r, strict=False):
        if new[new_i] != old[old_i]:
            break
        count += 1
    return count


def _common_suffix_len(old: Sequence[str], old_r: range, new: Sequence[str], new_r: range) -> int:
    if not old_r or not new_r:
        return 0
    count = 0
    for new_i, old_i in zip(reversed(new_r), reversed(old_r), strict=False):
        if new[new_i] != old[old_i]:
            break
        count += 1
    return count


class _Myers:
    """similar's ``myers::diff``: divide and conquer around the middle snake."""

    def __init__(self, old: Sequence[str], new: Sequence[str]) -> None:
        self.old = old
        self.new = new
        self.ops: list[_Op] = []
        self.vf: dict[int, int] = {}
        self.vb: dict[int, int] = {}

    def run(self) -> list[_Op]:
        self._conquer(range(len(self.old)), range(len(self.new)))
        return self.ops

    def _middle_snake(self, old_r: range, new_r: range) -> tuple[int, int]:
        old, new, vf, vb = self.old, self.new, self.vf, self.vb
        n, m = len(old_r), len(new_r)
        delta = n - m
        odd = delta & 1 == 1
        vf[1] = 0
        vb[1] = 0
        d_max = (n + m + 1) // 2 + 1
        for d in range(d_max):
            for k in range(d, -d - 1, -2):
                if k == -d or (k != d and vf.get(k - 1, 0) < vf.get(k + 1, 0)):
                    x = vf.get(k + 1, 0)
                else:
                    x = vf.get(k - 1, 0) + 1
                y = x - k
                x0, y0 = x, y
                if x < n and y < m:
                    x += _common_prefix_len(
                        old,
                        range(old_r.start + x, old_r.stop),
                        new,
                        range(new_r.start + y, new_r.stop),
                    )
                vf[k] = x
                if odd and abs(k - delta) <= d - 1 and vf[k] + vb.get(-(k - delta), 0) >= n:
                    return x0 + old_r.start, y0 + new_r.start
            for k in range(d, -d - 1, -2):
                if k == -d or (k != d and vb.get(k - 1, 0) < vb.get(k + 1, 0)):
                    x = vb.get(k + 1, 0)
                else:
                    x = vb.get(k - 1, 0) + 1
                y = x - k
                if x < n and y < m:
                    advance = _common_suffix_len(
                        old,
                        range(old_r.start, old_r.start + n - x),
                        new,
                        range(new_r.start, new_r.start + m - y),
                    )
                    x += advance
                    y += advance
                vb[k] = x
                if not odd and abs(k - delta) <= d and vb[k] + vf.get(-(k - delta), 0) >= n:
                    return n - x + old_r.start, m - y + new_r.start
        raise AssertionError("unable to find a middle snake")

    def _conquer(self, old_r: range, new_r: range) -> None:
        old, new = self.old, self.new
        prefix = _common_prefix_len(old, old_r, new, new_r)
        if prefix:
            self.ops.append(_equal(old_r.start, new_r.start, prefix))
        old_r = range(old_r.start + prefix, old_r.stop)
        new_r = range(new_r.start + prefix, new_r.stop)
        suffix = _common_suffix_len(old, old_r, new, new_r)
        suffix_at = (old_r.stop - suffix, new_r.stop - suffix)
        old_r = range(old_r.start, old_r.stop - suffix)
        new_r = range(new_r.start, new_r.stop - suffix)
        if not old_r and not new_r:
            pass
        elif not new_r:
            self.ops.append(_Op("delete", old_r.start, len(old_r), new_r.start, 0))
        elif not old_r:
            self.ops.append(_Op("insert", old_r.start, 0, new_r.start, len(new_r)))
        else:
            x_start, y_start = self._middle_snake(old_r, new_r)
            self._conquer(range(old_r.start, x_start), range(new_r.start, y_start))
            self._conquer(range(x_start, old_r.stop), range(y_start, new_r.stop))
        if suffix:
            self.ops.append(_equal(suffix_at[0], suffix_at[1], suffix))


def _swap_insert_delete(ops: list[_Op], left: int) -> None:
    """Swap an adjacent insert/delete pair and keep the index cursors contiguous."""
    right = left + 1
    old_start = ops[left].old_range().start
    old_end = ops[right].old_range().stop
    new_start = ops[left].new_range().start
    new_end = ops[right].new_range().stop
    ops[left], ops[right] = ops[right], ops[left]
    if ops[left].tag == "insert":
        ops[left].old_index = old_start
    else:
        ops[left].new_index = new_start
    if ops[right].tag == "insert":
        ops[right].old_index = old_end
    else:
        ops[right].new_index = new_end


def _shift_up(ops: list[_Op], old: Sequence[str], new: Sequence[str], pointer: int) -> int:
    while pointer >= 1:
        prev_op = ops[pointer - 1]
        this_op = ops[pointer]
        tags = (this_op.tag, prev_op.tag)
        if tags in (("insert", "equal"), ("delete", "equal")):
            if this_op.tag == "insert":
                suffix = _common_suffix_len(old, prev_op.old_range(), new, this_op.new_range())
                equal_old = prev_op.old_range().stop - suffix
                equal_new = this_op.new_range().stop - suffix
            else:
                # A deletion only slides up to join the deletion before the equal run.
                if pointer < 2 or ops[pointer - 2].tag != "delete":
                    break
                suffix = _common_suffix_len(old, this_op.old_range(), new, prev_op.new_range())
                equal_old = this_op.old_range().stop - suffix
                equal_new = prev_op.new_range().stop - suffix
            if suffix:
                following = ops[pointer + 1] if pointer + 1 < len(ops) else None
                if following is not None and following.tag == "equal":
                    following.grow_left(suffix)
                else:
                    ops.insert(pointer + 1, _equal(equal_old, equal_new, suffix))
                ops[pointer].shift_left(suffix)
                ops[pointer - 1].shrink_left(suffix)
                if ops[pointer - 1].is_empty():
                    del ops[pointer - 1]
                    pointer -= 1
            elif ops[pointer - 1].is_empty():
                del ops[pointer - 1]
                pointer -= 1
            else:
                break
        elif tags in (("insert", "delete"), ("delete", "insert")):
            _swap_insert_delete(ops, pointer - 1)
            pointer -= 1
        elif tags == ("insert", "insert"):
            ops[pointer - 1].grow_right(this_op.new_len)
            del ops[pointer]
            pointer -= 1
        elif tags == ("delete", "delete"):
            ops[pointer - 1].grow_right(this_op.old_len)
            del ops[pointer]
            pointer -= 1
        else:
            raise AssertionError(f"unexpected ops {tags}")
    return pointer


def _shift_down(ops: list[_Op], old: Sequence[str], new: Sequence[str], pointer: int) -> int:
    while pointer + 1 < len(ops):
        next_op = ops[pointer + 1]
        this_op = ops[pointer]
        tags = (this_op.tag, next_op.tag)
        if tags in (("insert", "equal"), ("delete", "equal")):
            if this_op.tag == "insert":
                prefix = _common_prefix_len(old, next_op.old_range(), new, this_op.new_range())
                equal_old = next_op.old_range().start
            else:
                # A deletion only slides down to join the deletion after the equal run.
                if pointer + 2 >= len(ops) or ops[pointer + 2].tag != "delete":
                    break
                prefix = _common_prefix_len(old, this_op.old_range(), new, next_op.new_range())
                equal_old = this_op.old_range().start
            if prefix:
                previous = ops[pointer - 1] if pointer >= 1 else None
                if previous is not None and previous.tag == "equal":
                    previous.grow_right(prefix)
                else:
                    ops.insert(pointer, _equal(equal_old, this_op.new_range().start, prefix))
                    pointer += 1
                ops[pointer].shift_right(prefix)
                ops[pointer + 1].shrink_right(prefix)
                if ops[pointer + 1].is_empty():
                    del ops[pointer + 1]
            elif ops[pointer + 1].is_empty():
                del ops[pointer + 1]
            else:
                break
        elif tags in (("insert", "delete"), ("delete", "insert")):
            _swap_insert_delete(ops, pointer)
            pointer += 1
        elif tags == ("insert", "insert"):
            ops[pointer].grow_right(next_op.new_len)
            del ops[pointer + 1]
        elif tags == ("delete", "delete"):
            ops[pointer].grow_right(next_op.old_len)
            del ops[pointer + 1]
        else:
            raise AssertionError(f"unexpected ops {tags}")
    return pointer


def _normalize_cursors(ops: list[_Op]) -> None:
    """Re-derive the positions deletions and insertions carry on the other side."""
    if not ops:
        return
    old_cursor = ops[0].old_range().start
    new_cursor = ops[0].new_range().start
    for op in ops:
        if op.tag == "delete":
            op.new_index = new_cursor
            old_cursor = op.old_index + op.old_len
        elif op.tag == "insert":
            op.old_index = old_cursor
            new_cursor = op.new_index + op.new_len
        else:
            old_cursor = op.old_index + op.old_len
            new_cursor = op.new_index + op.new_len


def _compact(ops: list[_Op], old: Sequence[str], new: Sequence[str]) -> None:
    """similar's ``Compact``: slide changes up and down so that neighbours merge."""
    for tag in ("delete", "insert"):
        pointer = 0
        while pointer < len(ops):
            if ops[pointer].tag == tag:
                pointer = _shift_up(ops, old, new, pointer)
                pointer = _shift_down(ops, old, new, pointer)
            pointer += 1
    _normalize_cursors(ops)


def _replace(ops: list[_Op]) -> list[_Op]:
    """similar's ``Replace`` hook: a delete next to an insert becomes one replace."""
    result: list[_Op] = []
    pending_eq: _Op | None = None
    pending_del: _Op | None = None
    pending_ins: _Op | None = None

    def flush_eq() -> None:
        nonlocal pending_eq
        if pending_eq is not None:
            result.append(pending_eq)
            pending_eq = None

    def flush_del_ins() -> None:
        nonlocal pending_del, pending_ins
        if pending_del is not None and pending_ins is not None:
            result.append(
                _Op(
                    "replace",
                    pending_del.old_index,
                    pending_del.old_len,
                    pending_ins.new_index,
                    pending_ins.new_len,
                )
            )
        elif pending_del is not None:
            result.append(pending_del)
        elif pending_ins is not None:
            result.append(pending_ins)
        pending_del = pending_ins = None

    for op in ops:
        if op.tag == "equal":
            flush_del_ins()
            if pending_eq is None:
                pending_eq = _equal(op.old_index, op.new_index, op.old_len)
            else:
                pending_eq = _equal(
                    pending_eq.old_index, pending_eq.new_index, pending_eq.old_len + op.old_len
                )
        elif op.tag == "delete":
            flush_eq()
            if pending_del is None:
                pending_del = _Op("delete", op.old_index, op.old_len, op.new_index, 0)
            else:
                pending_del.old_len += op.old_len
        else:
            flush_eq()
            if pending_ins is None:
                pending_ins = _Op("insert", op.old_index, 0, op.new_index, op.new_len)
            else:
                pending_ins.new_len += op.new_len
    flush_eq()
    flush_del_ins()
    return result


def diff_ops(old: Sequence[str], new: Sequence[str]) -> list[_Op]:
    """``similar::capture_diff`` with Myers' algorithm."""
    ops = _Myers(old, new).run()
    _compact(ops, old, new)
    return _replace(ops)


def group_ops(ops: list[_Op], context: int) -> list[list[_Op]]:
    """similar's ``group_diff_ops``: change clusters with ``context`` equal lines around."""
    if not ops:
        return []
    ops = [_Op(op.tag, op.old_index, op.old_len, op.new_index, op.new_len) for op in ops]
    first = ops[0]
    if first.tag == "equal":
        offset = max(first.old_len - context, 0)
        first.shift_right(offset)
        first.shrink_left(offset)
    last = ops[-1]
    if last.tag == "equal":
        last.shrink_left(max(last.old_len - context, 0))
    groups: list[list[_Op]] = []
    pending: list[_Op] = []
    for op in ops:
        if op.tag == "equal" and op.old_len > context * 2:
            pending.append(_equal(op.old_index, op.new_index, context))
            groups.append(pending)
            offset = max(op.old_len - context, 0)
            pending = [_equal(op.old_index + offset, op.new_index + offset, op.old_len - offset)]
            continue
        pending.append(op)
    if not (not pending or (len(pending) == 1 and pending[0].tag == "equal")):
        groups.append(pending)
    return groups


def _merge_groups(groups: list[list[_Op]]) -> list[list[_Op]]:
    """Join groups whose gap is at most ``MERGE_WINDOW`` lines, as ruff does."""
    merged: list[list[_Op]] = []
    for group in groups:
        if merged:
            previous = merged[-1][-1]
            head = group[0]
            if (
                previous.tag == "equal"
                and head.tag == "equal"
                and max(head.new_index - (previous.new_index + previous.new_len), 0) <= MERGE_WINDOW
            ):
                length = head.new_index + head.new_len - previous.new_index
                previous.old_len = previous.new_len = length
                merged[-1].extend(group[1:])
                continue
        merged.append(group)
    return merged


def _show_nonprinting(line: str) -> str:
    """Control characters made visible as in the code frame; tabs and line ends stay."""
    body = line.rstrip("\r\n")
    ending = line[len(body) :]
    return "".join(DIFF_REPLACEMENTS.get(char, char) for char in body) + ending


def _changes(op: _Op, old: Sequence[str], new: Sequence[str]) -> list[tuple[str, int | None, str]]:
    """(sign, new line index or None, line) for each line an op shows."""
    if op.tag == "equal":
        return [("|", op.new_index + i, old[op.old_index + i]) for i in range(op.old_len)]
    changes: list[tuple[str, int | None, str]] = []
    if op.tag != "insert":
        changes += [("-", None, old[i]) for i in op.old_range()]
    if op.tag != "delete":
        changes += [("+", i, new[i]) for i in op.new_range()]
    return changes


def render_fix_diff(source: SourceText, fix: Fix) -> str:
    """The ``|``-framed diff ruff prints under ``help:`` (empty when no edit applies)."""
    edits = sorted(
        (
            (source.offset(edit.location), source.offset(edit.end_location), edit.content)
            for edit in fix.edits
        ),
        key=lambda edit: (edit[0], edit[1]),
    )
    if not edits:
        return ""
    text = source.text
    start_row = max(source.row_of(edits[0][0]) - DIFF_CONTEXT_WINDOW, 1)
    last_row = source.row_of(len(text))
    end_row = min(source.row_of(edits[-1][1]) + DIFF_CONTEXT_WINDOW, last_row)
    window_start = source.line_start(start_row)
    window_end = source.line_end(end_row)
    line_offset = start_row - 1

    pieces: list[str] = []
    last_end = window_start
    applied = 0
    for start, end, content in edits:
        if window_start <= start and end <= window_end:
            pieces.append(text[last_end:start])
            pieces.append(content)
            last_end = end
            applied += 1
    if not applied:
        return ""
    pieces.append(text[last_end:window_end])

    old = split_lines(text[window_start:window_end])
    new = split_lines("".join(pieces))
    groups = _merge_groups(group_ops(diff_ops(old, new), FIX_CONTEXT))

    largest_new = groups[-1][-1].new_range().stop + line_offset if groups else 0
    width = len(str(max(largest_new, 1)))
    gutter = " " * width + " |\n"
    out = [gutter]
    for position, group in enumerate(groups):
        if position:
            out.append("-" * 80 + "\n")
        for op in group:
            for sign, new_index, line in _changes(op, old, new):
                number = "" if new_index is None else str(new_index + 1 + line_offset)
                out.append(f"{number:<{width}} {sign}")
                if line.rstrip("\r\n"):
                    out.append(" ")
                out.append(_show_nonprinting(line))
                if not line.endswith(("\r", "\n")):
                    out.append("\n")
    out.append(gutter)
    return "".join(out)
