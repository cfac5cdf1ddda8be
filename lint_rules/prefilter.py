"""Whether a file can hold anything a framework's rules report, from its bytes and path.

A *signal* is what a rule family needs before it can report anything in a
file: an import of the framework, a PolyAI function-file path or a
``Conversation`` annotation. Most files of a repository have none, and the
runner skips them without decoding or parsing. The frameworks' own
``has_signal`` use the same needles on decoded text, so switching the byte
prefilter off changes nothing (``tests/test_prefilter.py`` checks it): the
needles are ASCII, and every source encoding Python accepts is
ASCII-compatible.

This module imports nothing heavy: a run over a tree without tool files never
imports LibCST or the rules.
"""

from __future__ import annotations

from typing import Final

NEEDLES: Final[dict[str, tuple[str, ...]]] = {
    # Conversation annotations and PolyAI's generated headers (polyai-adk function.py:55-56).
    "polyai": ("Conversation", "from _gen import", "from imports import"),
    "browser_use": ("browser_use",),
}
_BYTE_NEEDLES: Final[dict[str, tuple[bytes, ...]]] = {
    key: tuple(n.encode("ascii") for n in needles) for key, needles in NEEDLES.items()
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
        return any(needle in text for needle in _BYTE_NEEDLES.get(key, ()))
    return any(needle in text for needle in NEEDLES.get(key, ()))


def signalled(keys: tuple[str, ...], data: bytes, path: str) -> bool:
    """Whether any of the frameworks ``keys`` has a signal in the raw file."""
    return any(has_signal(key, data, path) for key in keys)
