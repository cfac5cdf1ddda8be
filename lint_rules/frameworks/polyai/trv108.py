"""TRV108 polyai-conflicting-actions."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.polyai.recognition import PolyAIFunction
from lint_rules.frameworks.polyai.returns import exited_flow_before, returned_dicts
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class PolyaiConflictingActions(Rule):
    """
    ## What it does
    Checks for a returned dict that both hangs up and hands off, and for a
    `transition` returned after `conv.exit_flow()` on the same path.

    ## Why is this bad?
    Agent Studio performs only one of the two actions, and which one is not
    what the code says. PolyAI's anti-patterns guide: "use either
    `conv.exit_flow()` and return content or a transition/goto, not both."

    ## References
    - [PolyAI: anti-patterns](https://docs.poly.ai/)
    """

    code = "TRV108"
    name = "polyai-conflicting-actions"
    severity = Severity.WARNING
    framework = "polyai"
    message = "PolyAI function asks for two conflicting actions"

    invalid = (
        Example(
            path="functions/transfer_or_end.py",
            code="""\
def transfer_or_end(conv):
    return {"utterance": "Transferring you.", "hangup": True, "handoff": True}
""",
        ),
        Example(
            path="flows/booking/functions/finish_booking.py",
            code="""\
def finish_booking(conv, flow):
    conv.exit_flow()
    return {"content": "Booked.", "transition": {"goto_flow": "Upsell"}}
""",
        ),
    )
    valid = (
        Example(
            path="flows/booking/functions/finish_booking.py",
            code="""\
def finish_booking(conv, flow):
    conv.exit_flow()
    return "Booking complete. Ask if there is anything else."
""",
        ),
        Example(
            title="exit on one branch, transition on another",
            path="flows/booking/functions/finish_booking.py",
            code="""\
def finish_booking(conv, flow):
    if conv.state.cancelled:
        conv.exit_flow()
        return "Cancelled."
    return {"transition": {"goto_step": "Confirm"}}
""",
        ),
        Example(
            title="hangup explicitly off",
            path="functions/transfer.py",
            code="""\
def transfer(conv):
    return {"utterance": "Transferring.", "handoff": True, "hangup": False}
""",
        ),
    )

    def check(self, context: PolyAIFunction, settings: Settings) -> Iterator[Finding]:
        for returned in returned_dicts(context):
            shape = returned.shape
            hangup, handoff = shape.entry("hangup"), shape.entry("handoff")
            if (
                hangup is not None
                and handoff is not None
                and hangup.value.is_truthy() is True
                and handoff.value.is_truthy() is True
            ):
                second = max((hangup, handoff), key=lambda e: shape.entries.index(e))
                if second.key_node is not None:
                    yield Finding(
                        node=second.key_node,
                        message="`hangup` and `handoff` in one return: only one of them happens",
                    )
            transition = shape.entry("transition")
            if (
                transition is not None
                and transition.key_node is not None
                and exited_flow_before(context, returned.site)
            ):
                yield Finding(
                    node=transition.key_node,
                    message=(
                        "`transition` returned after `conv.exit_flow()`: use either the exit "
                        "or the transition, not both"
                    ),
                )
