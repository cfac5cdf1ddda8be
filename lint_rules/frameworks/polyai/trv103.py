"""TRV103 polyai-hangup-without-utterance."""

from __future__ import annotations

from collections.abc import Iterator

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

_SAY_PHRASE_PROJECT = {
    "agent_settings/rules.txt": "Use {{fn:end_call}} when the caller is done.\n",
    "voice/phrase_filtering.yaml": """\
phrase_filtering:
  - id: goodbye
    phrases:
      - Goodbye
    function: end_call
    say_phrase: true
""",
}


class PolyaiHangupWithoutUtterance(Rule):
    """
    ## What it does
    Checks for PolyAI functions that return a dict with a truthy `hangup` and
    no `utterance`, when nothing was said before.

    ## Why is this bad?
    `{"hangup": True}` ends the call at once. Without an `utterance` the caller
    hears nothing: the line simply goes dead (PolyAI docs, *return values*).
    Say goodbye in the same dict: `{"utterance": "Goodbye!", "hangup": True}`.

    Not reported when `conv.say(...)` (or a helper given `conv`) can run before
    the return, in `end_function`, or for a function that a phrase filter with
    `say_phrase: true` triggers (it runs after that phrase was spoken).

    ## References
    - [PolyAI: return values](https://docs.poly.ai/)
    """

    code = "TRV103"
    name = "polyai-hangup-without-utterance"
    severity = Severity.WARNING
    framework = "polyai"
    message = "PolyAI function hangs up without saying anything"

    invalid = (
        Example(
            path="functions/end_call.py",
            code="""\
def end_call(conv):
    conv.state.ended_by_agent = True
    return {"hangup": True}
""",
        ),
        Example(
            title="a misspelled utterance does not count",
            path="functions/transfer_failed.py",
            code="""\
def transfer_failed(conv):
    return {"utterence": "Sorry, nobody is available.", "hangup": True}
""",
        ),
    )
    valid = (
        Example(
            path="functions/end_call.py",
            code="""\
def end_call(conv):
    return {"utterance": "Thanks for calling, goodbye!", "hangup": True}
""",
        ),
        Example(
            title="spoke before hanging up",
            path="functions/end_call.py",
            code="""\
def end_call(conv):
    conv.say("Thanks for calling, goodbye!")
    return {"hangup": True}
""",
        ),
        Example(
            title="a phrase filter spoke first (say_phrase: true)",
            path="functions/end_call.py",
            files=_SAY_PHRASE_PROJECT,
            code="""\
def end_call(conv):
    return {"hangup": True}
""",
        ),
        Example(
            title="hangup that is not certainly truthy",
            path="functions/maybe_end.py",
            code="""\
def maybe_end(conv):
    return {"hangup": conv.state.should_end}
""",
        ),
        Example(
            title="a spread may carry the utterance",
            path="functions/finish.py",
            code="""\
GOODBYE = {"utterance": "Goodbye!"}


def finish(conv):
    return {**GOODBYE, "hangup": True}
""",
        ),
    )

    def check(self, context: PolyAIFunction, settings: Settings) -> Iterator[Finding]:
        if after_call_ended(context) or context.runs_after_spoken_phrase:
            return
        for returned in returned_dicts(context):
            hangup = returned.shape.entry("hangup")
            if hangup is None or hangup.key_node is None or hangup.value.is_truthy() is not True:
                continue
            if has_utterance(returned.shape) is not False:
                continue
            if spoke_before(context, returned.site):
                continue
            yield Finding(
                node=hangup.key_node,
                message=(
                    f"PolyAI function `{context.name}` hangs up without an `utterance`: "
                    "the caller hears nothing before the line goes dead"
                ),
            )
