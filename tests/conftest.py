"""Shared test helpers."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest
from click.testing import CliRunner, Result

from lint_rules.cli import main

Invoke = Callable[..., Result]


@pytest.fixture
def toolret_cli(monkeypatch: pytest.MonkeyPatch) -> Invoke:
    """Run ``toolret ARGS`` in this process (fast; monkeypatching reaches the code).

    ``result.stdout`` and ``result.stderr`` are kept apart (click 8.1 needs
    ``mix_stderr=False`` for that; 8.2 always does it and dropped the argument).
    """
    monkeypatch.setenv("NO_COLOR", "1")
    separate = "mix_stderr" in inspect.signature(CliRunner.__init__).parameters
    runner = CliRunner(**({"mix_stderr": False} if separate else {}))  # type: ignore[arg-type]

    def invoke(*args: str, input: bytes | str | None = None) -> Result:
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    return invoke


@pytest.fixture(autouse=True)
def _no_documentation_site(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule URLs exist only where ``TOOLRET_DOCS_URL`` names the documentation site; the
    tests that expect one set it, the rest run as without a site, whatever the shell has."""
    monkeypatch.delenv("TOOLRET_DOCS_URL", raising=False)
