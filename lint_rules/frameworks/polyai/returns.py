"""What PolyAI accepts from a function, and helpers the TRV1xx rules share.

Accepted returns (PolyAI docs ``tool-return-values.mdx``, ``return-values.mdx``;
polyai-adk 0.73.2 ``poly/docs/functions.md``): a ``str``, or a ``dict`` with
the keys below. ``None`` (a bare ``return``, falling off the end) is common in
PolyAI's own examples and tolerated.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from lint_rules.analysis.returns import ReturnSite
from lint_rules.analysis.shapes import Kind, Shape
from lint_rules.frameworks.polyai.recognition import FunctionKind, PolyAIFunction

ACCEPTED_KEYS = frozenset(
    {
        "content",
        "utterance",
        "utterance_channel",
        "handoff",
        "hangup",
        "listen",
        "variant",
        "end_turn",
        "transition",
    }
)
TRANSITION_KEYS = frozenset({"goto_flow", "goto_step", "exit_flow"})
UTTERANCE_CHANNELS = frozenset({"SPEECH", "DTMF"})


@dataclass(frozen=True)
class ReturnedDict:
    """A returned dict display whose literal keys are known."""

    site: ReturnSite
    node: cst.BaseExpression
    shape: Shape


def returned_dicts(tool: PolyAIFunction) -> Iterator[ReturnedDict]:
    for site, node, shape in tool.returned:
        if node is not None and shape.kind is Kind.DICT:
            yield ReturnedDict(site, node, shape)


def spoke_before(tool: PolyAIFunction, site: ReturnSite) -> bool:
    """``conv.say(...)`` — or a helper given ``conv``/``flow`` — can run before ``site``."""
    for call in site.calls_before:
        method = tool.method_call(call)
        if method == ("conv", "say") or tool.passes_context(call):
            return True
    return False


def navigated_before(tool: PolyAIFunction, site: ReturnSite) -> bool:
    """The function navigated or spoke before ``site`` (``flow.goto_step`` …)."""
    from lint_rules.frameworks.polyai.recognition import NAVIGATION_METHODS

    for call in site.calls_before:
        method = tool.method_call(call)
        if method is not None and method[1] in NAVIGATION_METHODS:
            return True
        if tool.passes_context(call):
            return True
    return False


def exited_flow_before(tool: PolyAIFunction, site: ReturnSite) -> bool:
    return any(tool.method_call(call) == ("conv", "exit_flow") for call in site.calls_before)


def after_call_ended(tool: PolyAIFunction) -> bool:
    """``end_function`` runs after the call ended: nothing it says is heard."""
    return tool.kind is FunctionKind.END


def closest_key(key: str, candidates: frozenset[str]) -> str | None:
    matches = difflib.get_close_matches(key, sorted(candidates), n=1, cutoff=0.6)
    if matches:
        return matches[0]
    normalised = key.replace("-", "_").replace(" ", "_").lower()
    return normalised if normalised in candidates else None


def has_utterance(shape: Shape) -> bool | None:
    """True/False when the dict certainly has / lacks an ``utterance``; None if unsure."""
    if shape.entry("utterance") is not None:
        return True
    return None if shape.open else False
