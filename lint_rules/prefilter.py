"""Whether a file can hold anything a framework's rules report, from its bytes and path.

A *signal* is what a rule family needs before it can report anything in a
file: an import of the framework, a PolyAI function-file path or a
``Conversation`` annotation. (A file can also be made relevant by a fact of
another file — a behaviour function in a file that imports nothing — which
the runner learns from its project index, not from these bytes.) Most files
of a repository have none, and the runner skips them without decoding or
parsing. The frameworks' own ``has_signal`` use the same needles (and
patterns) on decoded text, so switching the byte prefilter off changes
nothing (``tests/test_runner.py`` checks it): the needles are ASCII, and
every source encoding Python accepts is ASCII-compatible.

This module imports nothing heavy: a run over a tree without tool files never
imports LibCST or the rules.
"""

from __future__ import annotations

import re
from typing import Final

NEEDLES: Final[dict[str, tuple[str, ...]]] = {
    # Conversation annotations and PolyAI's generated headers (polyai-adk function.py:55-56).
    "polyai": ("Conversation", "from _gen import", "from imports import"),
    "browser_use": ("browser_use",),
    "openai_agents": ("agents",),
}
_BYTE_NEEDLES: Final[dict[str, tuple[bytes, ...]]] = {
    key: tuple(n.encode("ascii") for n in needles) for key, needles in NEEDLES.items()
}
# A needle alone is too common for some families ("agents" is in many comments and in
# a 150 000-line AWS policy file of moto): a file also needs an import statement of the
# package. Any statement form counts — ``import agents``, ``import x, agents``,
# ``from agents import``, ``from agents.tool import``, after ``;`` or inside ``try:`` —
# so everything the rules could report passes (the rules need an ``agents`` import).
_IMPORT_PATTERNS: Final[dict[str, str]] = {
    "openai_agents": r"(?:\bfrom|\bimport)(?:\s|\\)+agents\b|\bimport\s[^\n#;]*,\s*agents\b",
}
_TEXT_PATTERNS: Final[dict[str, re.Pattern[str]]] = {
    key: re.compile(pattern) for key, pattern in _IMPORT_PATTERNS.items()
}
_BYTE_PATTERNS: Final[dict[str, re.Pattern[bytes]]] = {
    key: re.compile(pattern.encode("ascii")) for key, pattern in _IMPORT_PATTERNS.items()
}


def polyai_layout(path: str) -> tuple[str, str] | None:
    """``(folder, stem)`` when ``path`` is laid out as a PolyAI function file.

    ``functions/<name>.py`` (global, start and end functions),
    ``flows/<flow>/functions/<name>.py`` and ``flows/<flow>/function_steps/<name>.py``
    (polyai-adk 0.73.2, ``poly/resources/function.py:424-445``).
    """
    if not path.endswith(".py"):
        return None
    parts = path.replace("\\", "/").rsplit("/", 4)
    if len(parts) < 2:
        return None
    folder, stem = parts[-2], parts[-1][:-3]
    if folder == "function_steps":
        return (folder, stem) if len(parts) >= 4 and parts[-4] == "flows" else None
    if folder == "functions":
        return folder, stem
    return None


def has_signal(key: str, text: str | bytes, path: str) -> bool:
    """Whether framework ``key`` could report anything in this file."""
    if key == "polyai" and polyai_layout(path) is not None:
        return True
    if isinstance(text, bytes):
        if not any(needle in text for needle in _BYTE_NEEDLES.get(key, ())):
            return False
        byte_pattern = _BYTE_PATTERNS.get(key)
        return byte_pattern is None or byte_pattern.search(text) is not None
    if not any(needle in text for needle in NEEDLES.get(key, ())):
        return False
    text_pattern = _TEXT_PATTERNS.get(key)
    return text_pattern is None or text_pattern.search(text) is not None


def signalled(keys: tuple[str, ...], data: bytes, path: str) -> bool:
    """Whether any of the frameworks ``keys`` has a signal in the raw file."""
    return any(has_signal(key, data, path) for key in keys)
