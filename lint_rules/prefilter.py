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
from collections.abc import Callable
from functools import lru_cache
from typing import Final

NEEDLES: Final[dict[str, tuple[str, ...]]] = {
    # Conversation annotations and PolyAI's generated headers (polyai-adk function.py:55-56).
    "polyai": ("Conversation", "from _gen import", "from imports import"),
    "browser_use": ("browser_use",),
    "openai_agents": ("agents",),
    "openai_chat": ("openai",),
    "anthropic": ("anthropic",),
    "mcp": ("mcp",),
    "langchain": ("langchain", "langgraph"),
    "pydantic_ai": ("pydantic_ai",),
}
ANY_FRAMEWORK: Final = "any_framework"
COMPATIBLE_CLIENTS: Final = ("groq", "together", "litellm", "mistralai", "ollama")
"""The OpenAI-compatible clients whose imports are Chat Completions signals by default
(``frameworks.openai_chat.clients``; a test keeps the two lists equal)."""
"""The TRV9xx family: its signal is any other family's."""
_BYTE_NEEDLES: Final[dict[str, tuple[bytes, ...]]] = {
    key: tuple(n.encode("ascii") for n in needles) for key, needles in NEEDLES.items()
}


def _finder(needle: bytes) -> Callable[[bytes], object]:
    """The fastest test of ``needle in data``: CPython's ``in`` is slow for very short
    needles (``b"mcp"`` scans the standard library at half the speed of a compiled
    literal pattern), so those are searched with ``re``."""
    if len(needle) < 5:
        return re.compile(re.escape(needle)).search
    return lambda data: needle in data


_BYTE_FINDERS: Final[dict[str, tuple[Callable[[bytes], object], ...]]] = {
    key: tuple(_finder(n) for n in needles) for key, needles in _BYTE_NEEDLES.items()
}
# A needle alone is too common for some families ("agents" is in many comments and in
# a 150 000-line AWS policy file of moto): a file also needs an import statement of the
# package. Any statement form counts — ``import agents``, ``import x, agents``,
# ``from agents import``, ``from agents.tool import``, after ``;`` or inside ``try:`` —
# so everything the rules could report passes (the rules need an ``agents`` import).
# In a notebook's raw JSON a statement may follow an escaped line break (``"import
# json\nfrom openai import OpenAI"``, a cell whose source is one string): ``\n``
# counts as the start of a statement there.
_STATEMENT: Final = r"(?:\bfrom|\bimport|\\[nrt](?:from|import))"
_IMPORT_PATTERNS: Final[dict[str, str]] = {
    "openai_agents": _STATEMENT + r"(?:\s|\\)+agents\b|\bimport\s[^\n#;]*,\s*agents\b",
    "openai_chat": _STATEMENT + r"(?:\s|\\)+openai\b|\bimport\s[^\n#;]*,\s*openai\b",
    "anthropic": _STATEMENT + r"(?:\s|\\)+anthropic\b|\bimport\s[^\n#;]*,\s*anthropic\b",
    # the packages ``mcp`` and ``fastmcp``, or a server imported by the name ``mcp`` from
    # another module of the project (``from .server import mcp``)
    "mcp": _STATEMENT + r"(?:\s|\\)+(?:fast)?mcp\b|\bimport\s[^\n#;]*\bmcp\b"
    r"|\bimport\s*\([^)]*\bmcp\b",
    "langchain": _STATEMENT + r"(?:\s|\\)+(?:langchain\w*|langgraph)\b"
    r"|\bimport\s[^\n#;]*,\s*(?:langchain\w*|langgraph)\b",
    "pydantic_ai": _STATEMENT + r"(?:\s|\\)+pydantic_ai\b"
    r"|\bimport\s[^\n#;]*,\s*pydantic_ai\b",
}
_LOOP_SIGNALS: Final[dict[str, tuple[str, str]]] = {
    "anthropic": ("tool_use", r"\.messages\.(?:with_raw_response\.)?(?:create|stream|parse)\("),
    "openai_chat": (
        "tool_calls",
        r"\.completions\.(?:with_raw_response\.)?(?:create|stream|parse)\(",
    ),
}
"""A tool loop whose client is made in another module of the project (``client =
get_client()``) need not import the SDK: a request written out (``.messages.create(``)
and the loop's needle are its signal, and the family decides from the project's
summaries whether the client is the SDK's."""
_TEXT_LOOP: Final[dict[str, tuple[str, re.Pattern[str]]]] = {
    key: (needle, re.compile(request)) for key, (needle, request) in _LOOP_SIGNALS.items()
}
_BYTE_LOOP: Final[dict[str, tuple[bytes, re.Pattern[bytes]]]] = {
    key: (needle.encode("ascii"), re.compile(request.encode("ascii")))
    for key, (needle, request) in _LOOP_SIGNALS.items()
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


def _import_pattern(package: str) -> str:
    """Any import statement of ``package`` (the form of ``_IMPORT_PATTERNS``)."""
    name = re.escape(package)
    return _STATEMENT + rf"(?:\s|\\)+{name}\b|\bimport\s[^\n#;]*,\s*{name}\b"


@lru_cache(maxsize=64)
def _extra_patterns(packages: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[bytes]]:
    alternatives = "|".join(_import_pattern(p) for p in packages)
    return re.compile(alternatives), re.compile(alternatives.encode("utf-8"))


def has_signal(key: str, text: str | bytes, path: str, extra_imports: tuple[str, ...] = ()) -> bool:
    """Whether framework ``key`` could report anything in this file.

    ``extra_imports`` are further packages whose import is a signal too (the
    Chat Completions clients of ``[tool.toolret.openai-chat] extra-clients``):
    the same import patterns, built once per distinct setting, so the byte
    scan and the text check still agree.
    """
    if key == ANY_FRAMEWORK:  # the TRV9xx rules check every other family's tool functions
        if extra_imports and _has_extra_import(text, extra_imports):
            return True
        return any(has_signal(k, text, path) for k in NEEDLES)
    if key == "polyai" and polyai_layout(path) is not None:
        return True
    if extra_imports and _has_extra_import(text, extra_imports):
        return True
    if isinstance(text, bytes):
        loop = _BYTE_LOOP.get(key)
        if loop is not None and loop[0] in text and loop[1].search(text):
            return True
        if not any(found(text) for found in _BYTE_FINDERS.get(key, ())):
            return False
        byte_pattern = _BYTE_PATTERNS.get(key)
        return byte_pattern is None or byte_pattern.search(text) is not None
    text_loop = _TEXT_LOOP.get(key)
    if text_loop is not None and text_loop[0] in text and text_loop[1].search(text):
        return True
    if not any(needle in text for needle in NEEDLES.get(key, ())):
        return False
    text_pattern = _TEXT_PATTERNS.get(key)
    return text_pattern is None or text_pattern.search(text) is not None


def _has_extra_import(text: str | bytes, packages: tuple[str, ...]) -> bool:
    """An import of one of ``packages``: the import pattern is searched only for the
    packages whose name is in the text at all (``together`` is a common word)."""
    if isinstance(text, bytes):
        present = tuple(p for p in packages if p.encode("utf-8") in text)
        return bool(present) and _extra_patterns(present)[1].search(text) is not None
    present = tuple(p for p in packages if p in text)
    return bool(present) and _extra_patterns(present)[0].search(text) is not None


def extra_imports_of(key: str, settings: object) -> tuple[str, ...]:
    """The extra import signals a framework's settings add (only Chat Completions clients,
    which are signals of ``any_framework`` too)."""
    if key not in ("openai_chat", ANY_FRAMEWORK):
        return ()
    chat = getattr(settings, "openai_chat", None)
    return (*COMPATIBLE_CLIENTS, *getattr(chat, "extra_clients", ()))


def signalled(
    keys: tuple[str, ...], data: bytes, path: str, settings: object | None = None
) -> bool:
    """Whether any of the frameworks ``keys`` has a signal in the raw file."""
    if ANY_FRAMEWORK in keys and all(key in keys for key in NEEDLES):
        keys = tuple(key for key in keys if key != ANY_FRAMEWORK)  # its signal is theirs
    return any(has_signal(key, data, path, extra_imports_of(key, settings)) for key in keys)
