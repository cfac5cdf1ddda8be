"""TRV102 polyai-empty-dict-return."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.polyai.recognition import PolyAIFunction
from lint_rules.frameworks.polyai.returns import after_call_ended, navigated_before, returned_dicts
from lint_rules.model import Severity
from lint_rules.rules import Example, Finding, Rule


class PolyaiEmptyDictReturn(Rule):
    """
    ## What it does
    Checks for PolyAI functions that return an empty dict (`{}` or `dict()`)
    without having navigated or spoken first.

    ## Why is this bad?
    An empty dict tells the LLM nothing about what the function did, and the
    LLM "will typically … hallucinate" a result (PolyAI docs, *tool return
    values*). Return a `str` or a `content` key describing the outcome.

    Not reported when, on the way to the return, the function called
    `flow.goto_step(...)`, `conv.goto_flow(...)`, `conv.exit_flow()`,
    `conv.say(...)` or `conv.call_handoff(...)`, or passed `conv`/`flow` to a
    helper (PolyAI's own examples return `{}` after `flow.goto_step`); nor in
    `end_function`, which runs after the call ended.

    ## References
    - [PolyAI: tool return values](https://docs.poly.ai/)
    """

    code = "TRV102"
    name = "polyai-empty-dict-return"
    severity = Severity.WARNING
    framework = "polyai"
    message = "PolyAI function returns an empty dict: the LLM learns nothing"

    invalid = (
        Example(
            path="functions/save_email.py",
            code="""\
def save_email(conv, email: str):
    conv.state.email = email
    return {}
""",
        ),
        Example(
            path="functions/reset_state.py",
            code="""\
def reset_state(conv):
    if conv.state.done:
        conv.goto_flow("Goodbye")
        return {"content": "Moving on."}
    conv.state.attempts = 0
    return dict()
""",
        ),
    )
    valid = (
        Example(
            title="navigation before the empty dict (PolyAI's own pattern)",
            path="flows/booking/function_steps/collect_date.py",
            code="""\
def collect_date(conv, flow):
    conv.state.date = conv.entities.date
    flow.goto_step("Confirm booking")
    return {}
""",
        ),
        Example(
            title="spoke before returning",
            path="functions/greet.py",
            code="""\
def greet(conv):
    conv.say("Hello, thanks for calling.")
    return {}
""",
        ),
        Example(
            title="a helper given conv may navigate",
            path="functions/route_caller.py",
            code="""\
from routing import route


def route_caller(conv):
    route(conv)
    return {}
""",
        ),
        Example(
            title="a dict filled after it was created is not empty",
            path="functions/build_reply.py",
            code="""\
def build_reply(conv):
    reply = {}
    reply["utterance"] = "Done."
    return reply
""",
        ),
        Example(
            title="end_function runs after the call ended",
            path="functions/end_function.py",
            code="""\
def end_function(conv):
    conv.write_metric("ended", 1)
    return {}
""",
        ),
    )

    def check(self, context: PolyAIFunction, settings: Settings) -> Iterator[Finding]:
        if after_call_ended(context):
            return
        for returned in returned_dicts(context):
            shape = returned.shape
            if shape.entries or shape.open:
                continue
            if navigated_before(context, returned.site):
                continue
            yield Finding(
                node=returned.node,
                message=(
                    f"PolyAI function `{context.name}` returns an empty dict: the LLM learns "
                    "nothing and may invent a result; return a `str` or a `content` key"
                ),
            )
