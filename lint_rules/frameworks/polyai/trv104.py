"""TRV104 polyai-handoff-without-utterance."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.config import Settings
from lint_rules.frameworks.polyai.recognition import PolyAIFunction
from lint_rules.frameworks.polyai.returns import (
    after_call_ended,
    has_utterance,
    returned_dicts,
    spoke_before,
)
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule

# conv.call_handoff(destination, reason=None, utterance=None, ...)
# (polyai-adk 0.73.2, poly/types/conversation.py:640-647): utterance is third.
_UTTERANCE_POSITION = 2


class PolyaiHandoffWithoutUtterance(Rule):
    """
    ## What it does
    Checks for PolyAI functions that hand the call off without telling the
    caller: a returned dict with a `handoff` key and no `utterance`, or
    `conv.call_handoff(...)` without an `utterance` argument.

    ## Why is this bad?
    The caller is transferred in silence and may hang up thinking the call
    dropped (PolyAI docs, *return values*; *conv object*:
    `call_handoff(destination, reason=None, utterance=None, ...)`). Add an
    `utterance` such as "Let me put you through to a colleague."

    Not reported when `conv.say(...)` (or a helper given `conv`) can run before
    a returned handoff, in `end_function`, or when the call passes `**kwargs`.

    ## References
    - [PolyAI: return values](https://docs.poly.ai/)
    """

    code = "TRV104"
    name = "polyai-handoff-without-utterance"
    severity = Severity.WARNING
    framework = "polyai"
    message = "PolyAI function hands off without saying anything"

    invalid = (
        Example(
            path="functions/transfer_to_agent.py",
            code="""\
def transfer_to_agent(conv):
    return {"handoff": True}
""",
        ),
        Example(
            path="functions/escalate.py",
            code="""\
def escalate(conv):
    conv.call_handoff("billing", "caller disputes a charge")
    return "Transferring."
""",
        ),
    )
    valid = (
        Example(
            path="functions/transfer_to_agent.py",
            code="""\
def transfer_to_agent(conv):
    return {"utterance": "Let me put you through.", "handoff": True}
""",
        ),
        Example(
            title="the utterance as a keyword or third positional argument",
            path="functions/escalate.py",
            code="""\
def escalate(conv):
    if conv.state.vip:
        return conv.call_handoff("vip", "vip caller", "Putting you through now.")
    return conv.call_handoff(
        destination="billing",
        utterance="One moment while I transfer you.",
    )
""",
        ),
        Example(
            title="arguments spread from a dict may hold the utterance",
            path="functions/escalate.py",
            code="""\
HANDOFF = {"destination": "billing", "utterance": "Transferring you now."}


def escalate(conv):
    return conv.call_handoff(**HANDOFF)
""",
        ),
        Example(
            title="spoke before the handoff",
            path="functions/transfer_to_agent.py",
            code="""\
def transfer_to_agent(conv):
    conv.say("Let me put you through.")
    return {"handoff": {"destination": "front_desk"}}
""",
        ),
    )

    def check(self, context: PolyAIFunction, settings: Settings) -> Iterator[Finding]:
        if after_call_ended(context):
            return
        for returned in returned_dicts(context):
            handoff = returned.shape.entry("handoff")
            if handoff is None or handoff.key_node is None:
                continue
            if handoff.value.is_truthy() is False:
                continue
            if has_utterance(returned.shape) is not False or spoke_before(context, returned.site):
                continue
            yield Finding(
                node=handoff.key_node,
                message=(
                    f"PolyAI function `{context.name}` hands off without an `utterance`: "
                    "the caller is transferred in silence"
                ),
            )
        for call in context.flow.calls:
            if context.method_call(call) != ("conv", "call_handoff"):
                continue
            if _passes_utterance(call):
                continue
            yield Finding(
                node=call,
                message=(
                    "`conv.call_handoff(...)` without an `utterance`: the caller is "
                    "transferred in silence"
                ),
            )


def _passes_utterance(call: cst.Call) -> bool:
    positional = 0
    for arg in call.args:
        if arg.star:
            return True  # *args / **kwargs may carry it
        if arg.keyword is not None:
            if arg.keyword.value == "utterance":
                return True
        else:
            positional += 1
    return positional > _UTTERANCE_POSITION
