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

Most signals are an import of the framework, and every import statement has the
word ``import`` on one of its lines: the package names are searched in those
statements only (``import_statements``, a few percent of a file), not in the whole
file, once per file for every family; only the signals that need no import (a
PolyAI ``Conversation``, a tool loop's request, the ``tool`` gate) scan the file.

This module imports nothing heavy: a run over a tree without tool files never
imports LibCST or the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Generic, TypeVar

NEEDLES: Final[dict[str, tuple[str, ...]]] = {
    # PolyAI's generated headers (polyai-adk function.py:55-56); a ``Conversation``
    # annotation, which needs no import, is ``CONVERSATION``.
    "polyai": ("from _gen import", "from imports import"),
    "browser_use": ("browser_use",),
    "openai_agents": ("agents",),
    "openai_chat": ("openai",),
    "anthropic": ("anthropic",),
    "mcp": ("mcp",),
    "langchain": ("langchain", "langgraph"),
    "pydantic_ai": ("pydantic_ai",),
    "openai_responses": ("openai",),
    "google_genai": ("genai",),
    # Strands Agents (a Converse loop's signal is its ``toolUse``/``toolResult`` words)
    "bedrock": ("strands",),
    "claude_agent_sdk": ("claude_agent_sdk",),
}
_REQUIRES: Final[dict[str, tuple[str, ...]]] = {
    # The Responses API's tool-loop items (``function_call``, ``function_call_output``),
    # or a request (``client.responses.create``: the tool schema, the input list).
    "openai_responses": ("function_call", ".responses"),
}
"""Further words, one of which a family's signal needs, searched only once its needle and import
matched: a file without ``openai`` is then never scanned again for it, and the needle
scan itself is shared with the families whose screens are the same (``_any_in``)."""
CONVERSATION: Final = "Conversation"
"""PolyAI's other signal: a ``Conversation`` annotation, searched in the whole file (PolyAI
function files import nothing)."""
_Text = TypeVar("_Text", str, bytes)
ANY_FRAMEWORK: Final = "any_framework"
"""The TRV9xx family: its signal is any other family's."""
COMPATIBLE_CLIENTS: Final = ("groq", "together", "litellm", "mistralai", "ollama")
"""The OpenAI-compatible clients whose imports are Chat Completions signals by default
(``frameworks.openai_chat.clients``; a test keeps the two lists equal)."""
_SCREENS: Final[dict[str, tuple[str, ...]]] = {
    "polyai": (r"from (?:_gen|imports) import",),
    "langchain": (r"lang(?:chain|graph)",),
}
"""The patterns that search a family's needles, where fewer passes than needles find the
same files: needles with a common prefix are one pattern led by that literal, which
``re`` finds as fast as ``in`` finds one needle (``tests/test_prefilter.py`` checks that
each family's screens match exactly its needles)."""


def _literal(screen: str) -> bool:
    """Whether ``screen`` is best searched with ``in``: CPython's ``in`` is slow for very
    short needles (``b"mcp"`` scans the standard library at half the speed of a compiled
    literal pattern), so those, and patterns, are searched with ``re``."""
    return re.escape(screen) == screen and len(screen) >= 5


def _byte_finder(screen: str) -> Callable[[bytes], object]:
    if _literal(screen):
        needle = screen.encode("ascii")
        return lambda data: needle in data
    return re.compile(screen.encode("ascii")).search


def _text_finder(screen: str) -> Callable[[str], object]:
    if _literal(screen):
        return lambda text: screen in text
    return re.compile(screen).search


def screens(key: str) -> tuple[str, ...]:
    """The patterns searched for family ``key``'s needles."""
    return _SCREENS.get(key) or tuple(map(re.escape, NEEDLES[key]))


_SCREENS_OF: Final = {key: screens(key) for key in NEEDLES}
_BYTE_FINDERS: Final = {key: tuple(map(_byte_finder, screens(key))) for key in NEEDLES}
_TEXT_FINDERS: Final = {key: tuple(map(_text_finder, screens(key))) for key in NEEDLES}
_TOOL: Final = "tool"
"""In every loop needle (``tool_use``, ``tool_calls``), and in every construct a Chat
Completions rule reads — a ``tools=`` schema, a tool call, a ``"tool"`` message: an
OpenAI-compatible client's import is a signal only in a file that says it (most modules
that import ``litellm`` or ``ollama`` never use tools, and "together" is a common word)."""
# A needle alone is too common for some families ("agents" is in many comments and in
# a 150 000-line AWS policy file of moto): a file also needs an import statement of the
# package. Any statement form counts — ``import agents``, ``import x, agents``,
# ``from agents import``, ``from agents.tool import``, after ``;`` or inside ``try:`` —
# so everything the rules could report passes (the rules need an ``agents`` import).
# In a notebook's raw JSON a statement may follow an escaped line break (``"import
# json\nfrom openai import OpenAI"``, a cell whose source is one string): ``\n``
# counts as the start of a statement there.
_STATEMENT: Final = r"(?:\bfrom|\bimport|\\[nrt](?:from|import))"


def _imported(name: str) -> str:
    """Any import statement of the package ``name`` (a pattern): ``import name``, ``from
    name…``, ``import x, name`` (also after a backslash)."""
    return _STATEMENT + rf"(?:\s|\\)+{name}\b|\bimport\s[^\n#;]*,(?:\s|\\)*{name}\b"


_IMPORT_PATTERNS: Final[dict[str, str]] = {
    "openai_agents": _imported("agents"),
    "openai_chat": _imported("openai"),
    "openai_responses": _imported("openai"),
    # ``from google import genai``, ``import google.genai``, ``from google.genai import``,
    # ``from google import (genai, …)``
    "google_genai": _STATEMENT
    + r"(?:\s|\\)+google(?:\.genai\b|(?:\s|\\)+import\b(?:[^\n#;(]*|\s*\([^)#]*)\bgenai\b)",
    "anthropic": _imported("anthropic"),
    # the packages ``mcp`` and ``fastmcp``, or a server imported by the name ``mcp`` from
    # another module of the project (``from .server import mcp``)
    "mcp": _STATEMENT + r"(?:\s|\\)+(?:fast)?mcp\b|\bimport\s[^\n#;]*\bmcp\b"
    r"|\bimport\s*\([^)]*\bmcp\b",
    "langchain": _imported(r"(?:langchain\w*|langgraph)"),
    "pydantic_ai": _imported("pydantic_ai"),
    "browser_use": _imported("browser_use"),
    "bedrock": _imported("strands"),
    "claude_agent_sdk": _imported("claude_agent_sdk"),
}
_TOOL_GATED: Final = frozenset({"bedrock"})
"""Families whose every signal needs ``_TOOL`` in the file: a Converse loop always says
``toolUse`` or ``toolResult``, and a Strands module worth checking ``@tool``."""
_LOOP_SIGNALS: Final[dict[str, tuple[str, str]]] = {
    "anthropic": ("tool_use", r"\.messages\.(?:with_raw_response\.)?(?:create|stream|parse)\("),
    "openai_chat": (
        "tool_calls",
        r"\.completions\.(?:with_raw_response\.)?(?:create|stream|parse)\(",
    ),
    # a ``{"toolResult": ...}`` display or a ``["toolUse"]`` read: Bedrock's shapes, whose
    # client may be made in another module (``self.client.converse(...)``); an import of
    # ``boto3`` is no signal (most modules that import it never call Bedrock)
    "bedrock": ("tool", r"tool(?:Use|Result)"),
    "openai_responses": (
        "function_call",
        r"\.responses\.(?:with_raw_response\.|with_streaming_response\.)?"
        r"(?:create|stream|parse)\(",
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


@lru_cache(maxsize=64)
def _extra_pattern(package: str) -> tuple[re.Pattern[str], re.Pattern[bytes]]:
    pattern = _imported(re.escape(package))
    return re.compile(pattern), re.compile(pattern.encode("utf-8"))


def import_statements(text: _Text) -> _Text:
    """The lines of ``text`` that can belong to an import statement, joined by line breaks.

    Every line holding the word ``import``, with the lines a backslash joins to it (``from
    \\`` above ``openai import OpenAI``, ``import json, \\`` above ``openai``) and, after an
    ``import (``, the lines up to the closing parenthesis (``from .server import (`` …
    ``mcp``). Every import statement of the file is in the result, so an import pattern
    searched in it finds what it finds in the whole file, save prose that merely reads
    ``from openai`` without an ``import`` — which no rule reads as an import either. A
    notebook's raw JSON keeps a cell's source on the lines of its strings, which this
    keeps too.
    """
    newline, backslash, word, paren, close = _BYTE_MARKS if isinstance(text, bytes) else _MARKS
    find, rfind = text.find, text.rfind
    size = len(text)
    parts = []
    pos = find(word)
    while pos != -1:
        start = rfind(newline, 0, pos) + 1
        while start > 0:  # the line before ends with a backslash: the statement began there
            before = rfind(newline, 0, start - 1) + 1
            if not text[before : start - 1].rstrip().endswith(backslash):
                break
            start = before
        end = find(newline, pos)
        end = size if end == -1 else end
        while end < size and text[start:end].rstrip().endswith(backslash):
            following = find(newline, end + 1)  # the statement goes on below
            end = size if following == -1 else following
        opened = find(paren, pos, end)
        if opened != -1 and find(close, opened, end) == -1:
            closing = find(close, end)
            end = size if closing == -1 else closing + 1
        parts.append(text[start:end])
        pos = find(word, end)
    return newline.join(parts)


_MARKS: Final = ("\n", "\\", "import", "(", ")")
_BYTE_MARKS: Final = tuple(mark.encode("ascii") for mark in _MARKS)
_last: tuple[object, object] = (None, None)
"""The last text whose import statements were computed, and them: the families ask one
after another about the same decoded text (strings are immutable, so identity is
enough; one tuple, rebound at once, so threads never see a text with another's
statements)."""


def _statements_of(text: _Text) -> _Text:
    global _last
    seen, statements = _last
    if seen is not text:
        statements = import_statements(text)
        _last = (text, statements)
    return statements  # type: ignore[return-value]


@dataclass(frozen=True)
class _Tables(Generic[_Text]):
    """The compiled screens, loop signals and import patterns, for bytes or for text."""

    tool: _Text
    loop: dict[str, tuple[_Text, re.Pattern[_Text]]]
    finders: dict[str, tuple[Callable[[_Text], object], ...]]
    patterns: dict[str, re.Pattern[_Text]]
    requires: dict[str, tuple[_Text, ...]]
    conversation: _Text


_FOR_BYTES: Final = _Tables(
    _TOOL.encode("ascii"),
    _BYTE_LOOP,
    _BYTE_FINDERS,
    _BYTE_PATTERNS,
    {key: tuple(w.encode("ascii") for w in words) for key, words in _REQUIRES.items()},
    CONVERSATION.encode("ascii"),
)
_FOR_TEXT: Final = _Tables(
    _TOOL, _TEXT_LOOP, _TEXT_FINDERS, _TEXT_PATTERNS, dict(_REQUIRES), CONVERSATION
)


def has_signal(key: str, text: str | bytes, path: str, extra_imports: tuple[str, ...] = ()) -> bool:
    """Whether framework ``key`` could report anything in this file.

    ``extra_imports`` are further packages whose import is a signal too (the
    Chat Completions clients of ``[tool.toolret.openai-chat] extra-clients``):
    the same import patterns, built once per distinct setting, so the byte
    scan and the text check still agree.
    """
    if key == ANY_FRAMEWORK:  # the TRV9xx rules check every other family's tool functions
        return _any_signal(tuple(NEEDLES), text, path, extra_imports)
    gated = key in _LOOP_SIGNALS or bool(extra_imports)  # the signals behind ``_TOOL``
    gated = gated or key in _TOOL_GATED
    if isinstance(text, bytes):
        tool = gated and _FOR_BYTES.tool in text
        return _signal(key, text, path, tool, extra_imports, _FOR_BYTES)
    return _signal(key, text, path, gated and _TOOL in text, extra_imports, _FOR_TEXT)


def _any_signal(
    keys: tuple[str, ...], text: str | bytes, path: str, extra_imports: tuple[str, ...]
) -> bool:
    """Whether any of the families ``keys`` (none of them ``ANY_FRAMEWORK``) has a signal:
    ``"tool"`` is searched once for all of them, and ``extra_imports`` count for Chat
    Completions only."""
    if isinstance(text, bytes):
        return _any_in(keys, text, path, extra_imports, _FOR_BYTES)
    return _any_in(keys, text, path, extra_imports, _FOR_TEXT)


def _any_in(
    keys: tuple[str, ...],
    text: _Text,
    path: str,
    extra_imports: tuple[str, ...],
    tables: _Tables[_Text],
) -> bool:
    tool = tables.tool in text
    needles: dict[tuple[str, ...], bool] = {}  # families with the same screens search once
    return any(
        _signal(k, text, path, tool, extra_imports if k == "openai_chat" else (), tables, needles)
        for k in keys
    )


def _signal(
    key: str,
    text: _Text,
    path: str,
    tool: bool,
    extra_imports: tuple[str, ...],
    tables: _Tables[_Text],
    needles: dict[tuple[str, ...], bool] | None = None,
) -> bool:
    """Family ``key``'s signal in ``text`` (``tool``: whether ``_TOOL`` is in it;
    ``needles``: what the screens searched so far found, by screens)."""
    if key == "polyai" and polyai_layout(path) is not None:
        return True
    if tool:
        loop = tables.loop.get(key)
        if loop is not None and loop[0] in text and loop[1].search(text):
            return True
        if extra_imports and _has_extra_import(_statements_of(text), extra_imports):
            return True
    if key == "polyai" and tables.conversation in text:
        return True
    if key in _TOOL_GATED and not tool:
        return False
    statements = _statements_of(text)
    screens_of = _SCREENS_OF[key]
    found = needles.get(screens_of) if needles is not None else None
    if found is None:
        found = any(finder(statements) for finder in tables.finders[key])
        if needles is not None:
            needles[screens_of] = found
    if not found:
        return False
    pattern = tables.patterns.get(key)
    if pattern is not None and pattern.search(statements) is None:
        return False
    also = tables.requires.get(key)
    return also is None or any(word in text for word in also)


def _has_extra_import(statements: str | bytes, packages: tuple[str, ...]) -> bool:
    """An import of one of ``packages`` in a file's import statements (``import_statements``:
    a few lines, so the pattern, which has no literal prefix, is searched in them whole; a
    statement a backslash continues is joined there)."""
    if isinstance(statements, bytes):
        return any(_extra_pattern(p)[1].search(statements) for p in packages)
    return any(_extra_pattern(p)[0].search(statements) for p in packages)


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
    """Whether any of the frameworks ``keys`` has a signal in the raw file.

    ``ANY_FRAMEWORK``'s signal is every other family's, so with it in ``keys`` every
    family is asked, once each; the Chat Completions extra clients count in both."""
    extras = extra_imports_of("openai_chat", settings)
    families = tuple(NEEDLES) if ANY_FRAMEWORK in keys else keys
    return _any_signal(families, data, path, extras)
