"""TRV107 polyai-modifier-without-utterance."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.polyai.recognition import PolyAIFunction
from lint_rules.frameworks.polyai.returns import after_call_ended, has_utterance, returned_dicts
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class PolyaiModifierWithoutUtterance(Rule):
    """
    ## What it does
    Checks for `utterance_channel`, `end_turn: False` or `listen` in a returned
    dict that has no `utterance`.

    ## Why is this bad?
    These keys modify how an utterance is delivered (over DTMF, without ending
    the turn, listening for a particular input). Without an `utterance` they
    have nothing to act on and are silently ignored (PolyAI docs, *return
    values*). Legal, so this rule is off by default (`info`); select `TRV107`
    to enable it.

    ## References
    - [PolyAI: return values](https://docs.poly.ai/)
    """

    code = "TRV107"
    name = "polyai-modifier-without-utterance"
    severity = Severity.INFO
    framework = "polyai"
    message = "A delivery modifier is returned without an utterance"

    invalid = (
        Example(
            path="functions/ask_pin.py",
            code="""\
def ask_pin(conv):
    return {"content": "Ask for the PIN.", "utterance_channel": "DTMF"}
""",
        ),
        Example(
            path="functions/keep_talking.py",
            code="""\
def keep_talking(conv):
    return {"content": "Booking saved.", "end_turn": False}
""",
        ),
    )
    valid = (
        Example(
            path="functions/ask_pin.py",
            code="""\
def ask_pin(conv):
    return {"utterance": "Please type your PIN.", "utterance_channel": "DTMF"}
""",
        ),
        Example(
            title="end_turn: True needs no utterance",
            path="functions/keep_talking.py",
            code="""\
def keep_talking(conv):
    return {"content": "Booking saved.", "end_turn": True}
""",
        ),
        Example(
            title="the utterance may come from a spread",
            path="functions/ask_pin.py",
            code="""\
def ask_pin(conv):
    base = conv.state.prompt
    return {**base, "utterance_channel": "DTMF"}
""",
        ),
    )

    def check(self, context: PolyAIFunction, settings: Settings) -> Iterator[Finding]:
        if after_call_ended(context):
            return
        for returned in returned_dicts(context):
            if has_utterance(returned.shape) is not False:
                continue
            for entry in returned.shape.entries:
                if entry.key_node is None:
                    continue
                if entry.key == "end_turn" and entry.value.literal is not False:
                    continue
                if entry.key not in ("utterance_channel", "end_turn", "listen"):
                    continue
                yield Finding(
                    node=entry.key_node,
                    message=f"`{entry.key}` has no effect without an `utterance`",
                )
