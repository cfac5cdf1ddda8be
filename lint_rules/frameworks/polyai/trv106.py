"""TRV106 polyai-invalid-key-value."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from lint_rules.analysis.shapes import Kind, Shape
from lint_rules.config import Settings
from lint_rules.frameworks.polyai.recognition import NONE_RETURNING_METHODS, PolyAIFunction
from lint_rules.frameworks.polyai.returns import TRANSITION_KEYS, UTTERANCE_CHANNELS, returned_dicts
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_str

_STR_KEYS = ("content", "utterance", "variant")
_WRAPPABLE_KEYS = ("content", "utterance")
_BOOL_KEYS = ("hangup", "end_turn")
_DICT_KEYS = ("listen", "transition")


class PolyaiInvalidKeyValue(Rule):
    """
    ## What it does
    Checks the values of a PolyAI function's returned dict: `content`,
    `utterance` and `variant` must be strings, `hangup` and `end_turn` bools,
    `listen` and `transition` dicts, `transition` may only hold `goto_flow`,
    `goto_step` and `exit_flow`, and `utterance_channel` is `"SPEECH"` or
    `"DTMF"`. It also flags a value that is the result of a PolyAI method that
    returns `None`, such as `"transition": flow.goto_step("Confirm")`.

    ## Why is this bad?
    Agent Studio rejects values of the wrong type: the turn fails as if the
    function had raised. `flow.goto_step(...)` navigates and returns `None`, so
    putting its call inside the dict both navigates *and* returns a broken
    `transition`.

    Only values whose type is certain are reported; `None` is not reported for
    the string keys (a missing value is not a type error to be sure of).

    ## Fix safety
    An `int` or `float` value of `content` or `utterance` is wrapped in
    `str()`: `{"utterance": position}` becomes `{"utterance": str(position)}`.

    At run time the dict carries the text `"3"` instead of the number 3.
    Agent Studio rejected the number (the turn failed as if the function had
    raised) and speaks or passes on the text — the same digits. The value's
    expression is evaluated as before and only its result is converted, so the
    fix is safe. A wrong value for another key (`hangup`, `transition`, …) or
    a `None`-returning call has no automatic fix: what should happen there is
    a decision, not a conversion.

    No fix is offered where `str` there is not the builtin: a module-level
    `str = ...`, a parameter or local named `str`, a `global str` rebound
    elsewhere, or a star import that could bind it. The diagnostic stays.

    ## References
    - [PolyAI: return values](https://docs.poly.ai/)
    """

    code = "TRV106"
    name = "polyai-invalid-key-value"
    severity = Severity.ERROR
    framework = "polyai"
    fix_applicability = Applicability.SAFE
    message = "PolyAI function returns a key with a value of the wrong type"

    invalid = (
        Example(
            path="functions/queue_position.py",
            code="""\
def queue_position(conv):
    position = 3
    return {"utterance": position}
""",
            fixed="""\
def queue_position(conv):
    position = 3
    return {"utterance": str(position)}
""",
        ),
        Example(
            path="flows/booking/functions/confirm.py",
            code="""\
def confirm(conv, flow):
    return {"transition": flow.goto_step("Confirm booking")}
""",
        ),
        Example(
            path="functions/end_call.py",
            code="""\
def end_call(conv):
    return {"utterance": "Goodbye!", "hangup": "true"}
""",
        ),
        Example(
            path="functions/route.py",
            code="""\
def route(conv):
    return {"transition": {"goto_flw": "Billing"}}
""",
        ),
        Example(
            path="functions/keypad.py",
            code="""\
def keypad(conv):
    return {"utterance": "Please type your PIN.", "utterance_channel": "KEYPAD"}
""",
        ),
    )
    valid = (
        Example(
            path="flows/booking/functions/confirm.py",
            code="""\
def confirm(conv, flow):
    return {"transition": {"goto_flow": "Payments", "goto_step": "Take card"}}
""",
        ),
        Example(
            title="values of unknown type",
            path="functions/read_back.py",
            code="""\
def read_back(conv):
    return {"utterance": conv.state.summary, "hangup": conv.state.done}
""",
        ),
        Example(
            title="an empty utterance ends the turn on purpose",
            path="functions/silent_turn.py",
            code="""\
def silent_turn(conv):
    return {"utterance": "", "end_turn": False}
""",
        ),
        Example(
            title="numbers formatted into the text",
            path="functions/queue_position.py",
            code="""\
def queue_position(conv):
    position = 3
    return {"utterance": f"You are number {position} in the queue.", "utterance_channel": "SPEECH"}
""",
        ),
    )

    def check(self, context: PolyAIFunction, settings: Settings) -> Iterator[Finding]:
        for returned in returned_dicts(context):
            for entry in returned.shape.entries:
                node = entry.value_node
                if node is None:
                    continue
                none_call = _none_returning_call(context, node)
                if none_call is not None:
                    yield Finding(
                        node=node,
                        message=(
                            f"`{none_call}(...)` returns `None`: call it before the `return` "
                            f"and give `{entry.key}` a real value"
                        ),
                    )
                    continue
                problem = _problem(entry.key, entry.value)
                if problem is not None:
                    fix = None
                    if entry.key in _WRAPPABLE_KEYS and entry.value.kind in (Kind.INT, Kind.FLOAT):
                        fix = wrap_in_str(node, context.module)
                    yield Finding(node=node, message=problem, fix=fix)
                if entry.key == "transition" and entry.value.kind is Kind.DICT:
                    for inner in entry.value.entries:
                        if inner.key not in TRANSITION_KEYS and inner.key_node is not None:
                            yield Finding(
                                node=inner.key_node,
                                message=(
                                    f"`transition` accepts only `goto_flow`, `goto_step` and "
                                    f"`exit_flow`, not `{inner.key}`"
                                ),
                            )


def _problem(key: str, value: Shape) -> str | None:
    kind = value.kind
    if kind is Kind.UNKNOWN or kind is Kind.INSTANCE:
        return None
    if key in _STR_KEYS and kind not in (Kind.STR, Kind.NONE):
        return f"`{key}` must be a `str`, not `{kind.value}`"
    if key in _BOOL_KEYS and kind is not Kind.BOOL:
        return f"`{key}` must be a `bool`, not `{kind.value}`"
    if key in _DICT_KEYS and kind is not Kind.DICT:
        return f"`{key}` must be a `dict`, not `{kind.value}`"
    if key == "utterance_channel":
        if kind is not Kind.STR:
            return f'`utterance_channel` must be `"SPEECH"` or `"DTMF"`, not `{kind.value}`'
        if value.has_literal and value.literal not in UTTERANCE_CHANNELS:
            return f'`utterance_channel` must be `"SPEECH"` or `"DTMF"`, not `"{value.literal}"`'
    return None


def _none_returning_call(context: PolyAIFunction, node: cst.BaseExpression) -> str | None:
    if not isinstance(node, cst.Call):
        return None
    method = context.method_call(node)
    if method is None or method[1] not in NONE_RETURNING_METHODS:
        return None
    return f"{method[0]}.{method[1]}"
