"""TRV101 polyai-invalid-return-type."""

from __future__ import annotations

from collections.abc import Iterator

from lint_rules.analysis.shapes import Kind
from lint_rules.config import Settings
from lint_rules.frameworks.polyai.recognition import PolyAIFunction
from lint_rules.model import Applicability, Severity
from lint_rules.rules import Example, Finding, Rule, wrap_in_str

INVALID_KINDS = frozenset(
    {Kind.INT, Kind.FLOAT, Kind.BOOL, Kind.LIST, Kind.TUPLE, Kind.SET, Kind.BYTES, Kind.COMPLEX}
)
WRAPPABLE_KINDS = frozenset({Kind.INT, Kind.FLOAT})


class PolyaiInvalidReturnType(Rule):
    """
    ## What it does
    Checks for PolyAI Agent Studio functions that return something other than a
    `str`, a `dict` or `None`: an `int`, `float`, `bool`, `list`, `tuple`,
    `set`, `bytes` or `complex`.

    ## Why is this bad?
    Agent Studio hands a function's return value to the LLM only when it is a
    string or a dict of the documented keys. "Any other type – integer, list,
    boolean – will cause an error. The LLM will retry up to three times"
    (PolyAI docs, *tool return values*): the caller waits through the retries
    and the turn fails.

    Only values whose type is certain from the file are reported: literals,
    `len(...)`, arithmetic on known numbers, local variables assigned only such
    values, parameters annotated `int` or `float`, calls of functions of the
    same file whose returns all agree, and so on. Only a binding changes what a
    name is: `n = len(rows)` stays an `int` after `log.info("%s", n)` or
    `str(n)`, because passing a value somewhere never changes its type. A
    variable that is also assigned something else (`n = f"{n} rows"` in a
    branch), a loop variable, or a function that uses `exec`/`locals()` is not
    guessed at. A value toolret cannot infer is never reported.

    ## Fix safety
    For an `int` or `float` the fix wraps the returned expression in `str()`,
    which is what PolyAI's documentation tells users to do by hand: `return 45`
    becomes `return str(45)`, `return(45)` keeps its parentheses, and in
    `return 15 if busy else 5.5` each branch is wrapped on its own.

    At run time the function now returns the text `"45"` where it returned the
    number 45. That is a behaviour change, and exactly the one Agent Studio
    requires: it rejected the number (an error, and up to three retries) and
    hands the string to the LLM, which reads the same digits. The expression
    is evaluated as before — same calls, same order — and only its result is
    converted. The fix is safe because no working behaviour depended on the
    number: the function's caller, Agent Studio, never accepted it.

    Two things to know: a `float` is written by Python's `str()`, so
    `0.1 + 0.2` reads `0.30000000000000004` (use an f-string such as
    `f"{fee:.2f}"` to round); and code of your own that calls the function and
    computes with its result now gets a string. Other types (`bool`, `list`,
    …) have no automatic fix: decide what the LLM should be told.
    ## References
    - [PolyAI: tool return values](https://docs.poly.ai/)

    No fix is offered where `str` there is not the builtin: a module-level
    `str = ...`, a parameter or local named `str`, a `global str` rebound
    elsewhere, or a star import that could bind it. The diagnostic stays.
    """

    code = "TRV101"
    name = "polyai-invalid-return-type"
    severity = Severity.ERROR
    framework = "polyai"
    fix_applicability = Applicability.SAFE
    message = "PolyAI function returns a type Agent Studio rejects"

    invalid = (
        Example(
            path="functions/count_bookings.py",
            code="""\
def count_bookings(conv):
    bookings = conv.state.bookings or []
    return len(bookings)
""",
            fixed="""\
def count_bookings(conv):
    bookings = conv.state.bookings or []
    return str(len(bookings))
""",
        ),
        Example(
            path="functions/get_wait_time.py",
            code="""\
def get_wait_time(conv, party_size: int):
    if party_size > 8:
        return(45)
    return 15 if conv.state.busy else 5.5
""",
            fixed="""\
def get_wait_time(conv, party_size: int):
    if party_size > 8:
        return(str(45))
    return str(15) if conv.state.busy else str(5.5)
""",
        ),
        Example(
            title="a count that was logged first",
            path="functions/count_rows.py",
            code="""\
import logging

log = logging.getLogger(__name__)


def count_rows(conv):
    n = len(conv.state.rows or [])
    log.info("rows: %s", n)
    conv.state.row_count = n
    return n
""",
            fixed="""\
import logging

log = logging.getLogger(__name__)


def count_rows(conv):
    n = len(conv.state.rows or [])
    log.info("rows: %s", n)
    conv.state.row_count = n
    return str(n)
""",
        ),
        Example(
            title="a float parameter, rounded for the log",
            path="functions/quote_fee.py",
            code="""\
def quote_fee(conv, fee: float):
    conv.log.info(f"fee {round(fee)}")
    return fee
""",
            fixed="""\
def quote_fee(conv, fee: float):
    conv.log.info(f"fee {round(fee)}")
    return str(fee)
""",
        ),
        Example(
            path="flows/booking/functions/is_open.py",
            code="""\
def is_open(conv, flow):
    return conv.state.hour < 22
""",
        ),
        Example(
            path="functions/list_branches.py",
            code="""\
def list_branches(conv):
    return ["Camden", "Soho"]
""",
        ),
    )
    valid = (
        Example(
            title="a str, as the docs ask",
            path="functions/count_bookings.py",
            code="""\
def count_bookings(conv):
    bookings = conv.state.bookings or []
    return f"The caller has {len(bookings)} bookings."
""",
        ),
        Example(
            title="helpers in a function file may return anything",
            path="functions/check_hours.py",
            code="""\
def in_hours(conv) -> bool:
    return 9 <= conv.state.hour < 17


def check_hours(conv):
    if in_hours(conv):
        return "We are open."
    return {"utterance": "We are closed now.", "hangup": True}
""",
        ),
        Example(
            title="a value whose type cannot be inferred",
            path="functions/lookup_balance.py",
            code="""\
def lookup_balance(conv):
    balance = conv.api.get_balance(conv.state.account)
    return balance
""",
        ),
        Example(
            title="a list joined into a str",
            path="functions/summarise.py",
            code="""\
def summarise(conv):
    parts = ["Order"]
    parts.append(conv.state.order_id)
    return " ".join(parts)
""",
        ),
        Example(
            title="a count rebound to a sentence in a branch",
            path="functions/count_rows.py",
            code="""\
def count_rows(conv):
    n = len(conv.state.rows or [])
    if conv.state.verbose:
        n = f"You have {n} rows."
    return n
""",
        ),
        Example(
            title="a name rebound by a loop, or by code run through `exec`",
            path="functions/last_total.py",
            code="""\
def last_total(conv):
    total = 0
    for total in conv.state.totals:
        pass
    if conv.state.template:
        exec(conv.state.template)
    return total
""",
        ),
        Example(
            title="returns inside nested functions belong to them",
            path="functions/pick_slot.py",
            code="""\
def pick_slot(conv):
    def score(slot):
        return len(slot)

    best = max(conv.state.slots, key=score)
    return f"The best slot is {best}."
""",
        ),
        Example(
            title="a function not named like its file is a helper",
            path="functions/pick_slot.py",
            code="""\
def slot_count(conv):
    return 3
""",
        ),
    )

    def check(self, context: PolyAIFunction, settings: Settings) -> Iterator[Finding]:
        for _site, node, shape in context.returned:
            if node is None or shape.kind not in INVALID_KINDS:
                continue
            kind = shape.kind.value
            yield Finding(
                node=node,
                message=(
                    f"PolyAI function `{context.name}` returns `{kind}`; Agent Studio "
                    "accepts only a `str` or a `dict`"
                ),
                fix=wrap_in_str(node, context.module) if shape.kind in WRAPPABLE_KINDS else None,
            )
