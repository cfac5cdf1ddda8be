"""Glob patterns matched in time linear in the path: ruff's globs and gitignore's.

Translated into Python regular expressions, globs backtrack: ``*a*a*a*a*a*a*a*a*a*ab``
against a 40-character name of ``a`` takes seconds, two more ``*a`` minutes, and
that for every path of the walk. ruff's globset and git cannot be made to do that:
their matchers are automata. So are these. A pattern is read into tokens
(``parse_ruff_glob``, ``parse_gitignore_glob``), the tokens become a
nondeterministic automaton, and a path runs through the deterministic automaton
built from it as it is needed (RE2's lazy subset construction): one state per set
of NFA states met, each transition computed once and cached. A character costs
one dictionary lookup once the cache is warm and never more than one NFA step,
whatever the pattern; the cache is bounded, so a pathological pattern costs time
linear in the path, not memory without end.

A ``GlobSet`` holds many patterns in one automaton and says which matched last
(gitignore's rule: the last matching line wins), so a walk tests a path once per
set, however long the ``exclude`` list or the ``.gitignore``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

__all__ = [
    "Alternation",
    "GlobSet",
    "Star",
    "Token",
    "parse_gitignore_glob",
    "parse_ruff_glob",
]


Char: TypeAlias = "str | re.Pattern[str]"
"""What one character must be: itself (a one-character string) or a match of a
one-character pattern (``?``, a ``[...]`` class)."""

ANY: Final = re.compile(".", re.DOTALL)
"""Any character: ruff's ``?``."""
NOT_SLASH: Final = re.compile("[^/]")
"""Any character but ``/``: gitignore's ``?``."""


@dataclass(frozen=True, slots=True)
class Star:
    """Any run of characters, each a ``char`` (``*``)."""

    char: Char


@dataclass(frozen=True, slots=True)
class Directories:
    """Any number of leading directories, even none: ``**/`` (``(?:.*/)?``)."""


@dataclass(frozen=True, slots=True)
class Alternation:
    """One of the branches: ``{a,b}``."""

    branches: tuple[tuple[Token, ...], ...]


Token: TypeAlias = "Char | Star | Directories | Alternation"


# ---------------------------------------------------------------------------
# Reading patterns


def parse_ruff_glob(pattern: str) -> tuple[Token, ...]:
    """A ruff-style glob (matched in full) as tokens.

    ruff compiles ``exclude`` and ``per-file-ignores`` patterns with globset's
    defaults, where ``*`` and ``?`` also match ``/``; ``**/`` (at the start or
    after a ``/``) may match no directory at all; ``[...]`` and ``{a,b}`` work
    (a ``{`` within braces is literal); ``\\`` escapes. Raises ``ValueError``
    for an unclosed ``[`` or ``{`` and for a class that is not one (``[z-a]``).
    """
    tokens: list[Token] = []
    branches: list[tuple[Token, ...]] | None = None  # inside ``{...}``: the branches so far
    current = tokens
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**/", index) and (index == 0 or pattern[index - 1] == "/"):
            current.append(Directories())
            index += 3
        elif char == "*":
            current.append(Star(ANY))
            while index < len(pattern) and pattern[index] == "*":
                index += 1
        elif char == "?":
            current.append(ANY)
            index += 1
        elif char == "[":
            close = class_end(pattern, index)
            if close < 0:
                raise ValueError(f"unclosed character class in {pattern!r}")
            current.append(_class(pattern, index, close, exclude_slash=False))
            index = close + 1
        elif char == "{" and branches is None:
            if "}" not in pattern[index:]:
                raise ValueError(f"unclosed alternation in {pattern!r}")
            branches = []
            current = []
            index += 1
        elif char == "}" and branches is not None:
            branches.append(tuple(current))
            tokens.append(Alternation(tuple(branches)))
            branches = None
            current = tokens
            index += 1
        elif char == "," and branches is not None:
            branches.append(tuple(current))
            current = []
            index += 1
        elif char == "\\" and index + 1 < len(pattern):
            current.append(pattern[index + 1])
            index += 2
        else:
            current.append(char)
            index += 1
    if branches is not None:  # the only ``}`` was escaped or in a class
        raise ValueError(f"unclosed alternation in {pattern!r}")
    return tuple(tokens)


def parse_gitignore_glob(pattern: str) -> tuple[Token, ...]:
    """A gitignore glob as tokens: ``*`` and ``?`` stop at ``/``; ``**/``, ``/**/`` and
    a final ``/**`` span directories (other runs of ``*`` are one ``*``); a ``[...]``
    class never matches ``/``, an unclosed ``[`` is literal; ``\\`` escapes."""
    tokens: list[Token] = []
    index = 0
    length = len(pattern)
    while index < length:
        char = pattern[index]
        if char == "*":
            run_end = index
            while run_end < length and pattern[run_end] == "*":
                run_end += 1
            whole_segment = (
                run_end - index == 2
                and (index == 0 or pattern[index - 1] == "/")
                and (run_end == length or pattern[run_end] == "/")
            )
            if whole_segment and run_end == length:
                tokens.append(Star(ANY))  # ``dir/**``: everything inside
                index = run_end
            elif whole_segment:
                tokens.append(Directories())
                index = run_end + 1
            else:
                tokens.append(Star(NOT_SLASH))
                index = run_end
        elif char == "?":
            tokens.append(NOT_SLASH)
            index += 1
        elif char == "[":
            close = class_end(pattern, index)
            if close < 0:
                tokens.append(char)
                index += 1
            else:
                try:
                    tokens.append(_class(pattern, index, close, exclude_slash=True))
                except ValueError:  # git's wildmatch matches nothing with a bad range
                    tokens.append(_NOTHING)
                index = close + 1
        elif char == "\\" and index + 1 < length:
            tokens.append(pattern[index + 1])
            index += 2
        else:
            tokens.append(char)
            index += 1
    return tuple(tokens)


_NOTHING: Final = re.compile("(?!)")


def class_end(pattern: str, start: int) -> int:
    """Index of the ``]`` closing the class opened at ``start``, or -1."""
    index = start + 1
    if index < len(pattern) and pattern[index] in "!^":
        index += 1
    if index < len(pattern) and pattern[index] == "]":
        index += 1  # a leading ``]`` is a member, not the end
    while index < len(pattern):
        if pattern[index] == "\\":
            index += 2
            continue
        if pattern[index] == "]":
            return index
        index += 1
    return -1


def _class(pattern: str, start: int, close: int, *, exclude_slash: bool) -> re.Pattern[str]:
    """The class ``pattern[start:close + 1]`` as a one-character pattern (``!`` or ``^``
    negates, ``a-z`` is a range, ``\\`` escapes). A single character is matched against
    it, so ``re`` has nothing to backtrack over."""
    body = pattern[start + 1 : close]
    negated = body[:1] in ("!", "^")
    if negated:
        body = body[1:]
    members: list[str] = []
    index = 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            members.append(re.escape(body[index + 1]))
            index += 2
            continue
        members.append("-" if char == "-" else re.escape(char))
        index += 1
    inner = "".join(members)
    if negated:
        regex = f"[^{inner}/]" if exclude_slash else f"[^{inner}]"
    else:
        regex = f"(?!/)[{inner}]" if exclude_slash else f"[{inner}]"
    try:
        return re.compile(regex, re.DOTALL)
    except re.error as error:
        raise ValueError(
            f"invalid character class `{pattern[start : close + 1]}` in {pattern!r}: {error.msg}"
        ) from None


# ---------------------------------------------------------------------------
# The automaton


_CACHE_LIMIT: Final = 4096
"""DFA states kept per set before the cache starts afresh (each costs a few hundred bytes)."""


class _Nfa:
    """Thompson's construction: each node consumes one character or has epsilon edges."""

    __slots__ = ("accept", "chars", "closures", "edges")

    def __init__(self) -> None:
        self.chars: list[Char | None] = []
        """What a consuming node reads; ``None`` for an epsilon (or accepting) node."""
        self.edges: list[list[int]] = []
        self.accept: list[int] = []
        """The index of the pattern a node accepts, or -1."""
        self.closures: dict[int, frozenset[int]] = {}

    def node(self, char: Char | None, edges: list[int], accept: int = -1) -> int:
        self.chars.append(char)
        self.edges.append(edges)
        self.accept.append(accept)
        return len(self.chars) - 1

    def sequence(self, tokens: Sequence[Token], follow: int) -> int:
        """The entry of ``tokens``, which go on to ``follow``; built back to front."""
        for token in reversed(tokens):
            if isinstance(token, Star):
                loop = self.node(None, [])
                self.edges[loop] = [self.node(token.char, [loop]), follow]
                follow = loop
            elif isinstance(token, Directories):
                loop = self.node(None, [])
                self.edges[loop] = [self.node(ANY, [loop]), self.node("/", [follow])]
                follow = self.node(None, [follow, loop])
            elif isinstance(token, Alternation):
                entries = [self.sequence(branch, follow) for branch in token.branches]
                follow = self.node(None, entries)
            else:
                follow = self.node(token, [follow])
        return follow

    def closure(self, node: int) -> frozenset[int]:
        """The consuming and accepting nodes reachable from ``node`` by epsilon edges."""
        found = self.closures.get(node)
        if found is not None:
            return found
        reached: set[int] = set()
        seen = {node}
        stack = [node]
        while stack:
            current = stack.pop()
            if self.chars[current] is not None or self.accept[current] >= 0:
                reached.add(current)
                continue
            for target in self.edges[current]:
                if target not in seen:
                    seen.add(target)
                    stack.append(target)
        found = frozenset(reached)
        self.closures[node] = found
        return found


class _States:
    """The DFA built so far: state 0 matches nothing more, state 1 is the start."""

    __slots__ = ("ids", "results", "sets", "transitions")

    def __init__(self, start: frozenset[int], nfa: _Nfa) -> None:
        self.sets: list[frozenset[int]] = []
        self.ids: dict[frozenset[int], int] = {}
        self.transitions: list[dict[str, int]] = []
        self.results: list[int] = []
        self.add(frozenset(), nfa)
        self.add(start, nfa)

    def add(self, nodes: frozenset[int], nfa: _Nfa) -> int:
        state = len(self.sets)
        self.sets.append(nodes)
        self.ids.setdefault(nodes, state)  # an empty start is state 1, but leads to 0
        self.transitions.append({})
        self.results.append(max((nfa.accept[node] for node in nodes), default=-1))
        return state


class GlobSet:
    """Patterns (as tokens) compiled into one automaton, each matched against a whole text.

    ``last_match(text)``: the index of the last pattern that matches, or -1. Safe to
    share between threads (the cache grows under a lock); pickled as its patterns (a
    worker process builds its own cache).
    """

    __slots__ = ("_lock", "_nfa", "_patterns", "_start", "_states")

    def __init__(self, patterns: Sequence[Sequence[Token]]) -> None:
        self._patterns = tuple(tuple(tokens) for tokens in patterns)
        nfa = _Nfa()
        entries = [
            nfa.sequence(tokens, nfa.node(None, [], accept=index))
            for index, tokens in enumerate(patterns)
        ]
        start = nfa.node(None, entries)
        self._nfa = nfa
        self._start = nfa.closure(start)
        self._states = _States(self._start, nfa)
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[type[GlobSet], tuple[tuple[tuple[Token, ...], ...]]]:
        return (GlobSet, (self._patterns,))

    def last_match(self, text: str) -> int:
        states = self._states
        transitions = states.transitions
        state = 1
        for char in text:
            following = transitions[state].get(char)
            if following is None:
                following = self._step(states, state, char)
            if not following:
                return -1  # no pattern can match whatever follows
            state = following
        return states.results[state]

    def matches(self, text: str) -> bool:
        return self.last_match(text) >= 0

    def _step(self, states: _States, state: int, char: str) -> int:
        """The state after ``char``, computed from the NFA and cached."""
        nfa = self._nfa
        with self._lock:
            known = states.transitions[state].get(char)
            if known is not None:
                return known
            reached: set[int] = set()
            for node in states.sets[state]:
                wanted = nfa.chars[node]
                if wanted is None:
                    continue  # accepting: nothing to read
                if wanted == char if isinstance(wanted, str) else wanted.match(char):
                    reached |= nfa.closure(nfa.edges[node][0])
            nodes = frozenset(reached)
            following = states.ids.get(nodes)
            if following is None:
                if len(states.sets) >= _CACHE_LIMIT and self._states is states:
                    # Later texts start afresh; this one finishes with the old cache.
                    self._states = _States(self._start, nfa)
                following = states.add(nodes, nfa)
            states.transitions[state][char] = following
            return following
