"""TRV105 polyai-unknown-return-key."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.config import Settings
from lint_rules.frameworks.polyai.recognition import PolyAIFunction
from lint_rules.frameworks.polyai.returns import ACCEPTED_KEYS, closest_key, returned_dicts
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, replace_string_literal


class PolyaiUnknownReturnKey(Rule):
    """
    ## What it does
    Checks for keys in a PolyAI function's returned dict that Agent Studio does
    not know, and names the closest accepted key.

    ## Why is this bad?
    Agent Studio reads only `content`, `utterance`, `utterance_channel`,
    `handoff`, `hangup`, `listen`, `variant`, `end_turn` and `transition`
    (polyai-adk 0.73.2). Any other key is ignored: a misspelled `utterence`
    means nothing is said, a `hang_up` means the call goes on.

    ## Fix safety
    The fix renames the key to the accepted key with the closest spelling,
    keeping the quotes and prefix: `"utterence"` becomes `"utterance"`.

    At run time Agent Studio stops ignoring the entry and acts on it: its text
    is now spoken, a renamed `hangup` now ends the call, a `transition` now
    navigates. That is usually what was meant, but it is a guess from the
    spelling, and the entry starts to do something it never did — so the fix is
    unsafe and is applied only with `--unsafe-fixes`; review the diff. No fix
    is offered when no accepted key is close, or when the key is not a plain
    string literal.
    ## Options
    - `[tool.toolret.polyai] extra-return-keys`: keys a newer Agent Studio
      accepts that this list lacks.

    ## References
    - [PolyAI: return values](https://docs.poly.ai/)
    """

    code = "TRV105"
    name = "polyai-unknown-return-key"
    severity = Severity.WARNING
    framework = "polyai"
    fix_applicability = Applicability.UNSAFE
    message = "PolyAI function returns a key Agent Studio ignores"

    invalid = (
        Example(
            path="functions/confirm_booking.py",
            code="""\
def confirm_booking(conv):
    return {"utterence": "Your table is booked."}
""",
            fixed="""\
def confirm_booking(conv):
    return {"utterance": "Your table is booked."}
""",
        ),
        Example(
            path="functions/end_call.py",
            code="""\
def end_call(conv):
    return {"utterance": "Goodbye!", 'hang_up': True}
""",
            fixed="""\
def end_call(conv):
    return {"utterance": "Goodbye!", 'hangup': True}
""",
        ),
    )
    valid = (
        Example(
            path="functions/confirm_booking.py",
            code="""\
def confirm_booking(conv):
    return {"utterance": "Your table is booked.", "end_turn": False}
""",
        ),
        Example(
            title="dicts that are not returned, or are built by helpers",
            path="functions/confirm_booking.py",
            code="""\
def payload(conv):
    return {"booking_id": conv.state.booking_id}


def confirm_booking(conv):
    conv.api.post("/bookings", json={"party": conv.state.party})
    return {"content": "Booked."}
""",
        ),
        Example(
            title="keys computed at run time are not guessed at",
            path="functions/respond.py",
            code="""\
def respond(conv):
    key = "utterance" if conv.channel_type == "voice" else "content"
    return {key: "Done."}
""",
        ),
    )

    def check(self, context: PolyAIFunction, settings: Settings) -> Iterator[Finding]:
        accepted = ACCEPTED_KEYS | frozenset(settings.polyai.extra_return_keys)
        for returned in returned_dicts(context):
            for entry in returned.shape.entries:
                if entry.key in accepted or entry.key_node is None:
                    continue
                suggestion = closest_key(entry.key, ACCEPTED_KEYS)
                hint = f"; did you mean `{suggestion}`?" if suggestion else ""
                fix = (
                    replace_string_literal(entry.key_node, suggestion, f"Rename to `{suggestion}`")
                    if suggestion
                    else None
                )
                yield Finding(
                    node=entry.key_node,
                    message=f"Agent Studio ignores the return key `{entry.key}`{hint}",
                    fix=fix,
                )
