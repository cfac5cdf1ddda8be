"""The language server's pause before re-checking a changed document adapts to how long
the document's last check took (issue 29: no fixed 300 ms)."""

from __future__ import annotations

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from lint_rules.lsp.base import DEBOUNCE_SECONDS, MIN_DEBOUNCE_SECONDS, debounce_for
from lint_rules.lsp.server import ToolretLanguageServer
from lint_rules.lsp.state import _Document


@pytest.mark.parametrize(
    ("check_seconds", "pause"),
    [
        (None, DEBOUNCE_SECONDS),  # not checked yet: the longest pause
        (0.001, MIN_DEBOUNCE_SECONDS),  # a burst of keystrokes is still one check
        (0.08, 0.08),  # a 1,000-line tool file: as long as its check
        (4.0, DEBOUNCE_SECONDS),  # never longer than the fixed pause was
    ],
)
def test_the_pause_follows_the_last_check(check_seconds: float | None, pause: float) -> None:
    assert debounce_for(check_seconds) == pytest.approx(pause)


def test_each_document_has_its_own_pause() -> None:
    server = ToolretLanguageServer()
    server._documents["file:///quick.py"] = _Document(check_seconds=0.05)
    server._documents["file:///slow.py"] = _Document(check_seconds=0.9)
    assert server._debounce_for("file:///quick.py") == pytest.approx(0.05)
    assert server._debounce_for("file:///slow.py") == DEBOUNCE_SECONDS
    assert server._debounce_for("file:///unknown.py") == DEBOUNCE_SECONDS


def test_a_fixed_debounce_stays_fixed() -> None:
    server = ToolretLanguageServer(debounce=0.2)
    server._documents["file:///quick.py"] = _Document(check_seconds=0.05)
    assert server._debounce_for("file:///quick.py") == 0.2
