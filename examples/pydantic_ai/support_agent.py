"""A bank-support agent: tools registered on the agent with decorators."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel
from pydantic_ai import Agent, ModelRetry, RunContext

from bank_database import DatabaseConn


@dataclass
class SupportDependencies:
    customer_id: int
    db: DatabaseConn


class SupportOutput(BaseModel):
    support_advice: str
    block_card: bool
    risk: int


class Transaction:
    """A row of the ledger, as the database driver returns it."""

    def __init__(self, amount: float, merchant: str) -> None:
        self.amount = amount
        self.merchant = merchant

    def __repr__(self) -> str:
        return f"Transaction({self.amount}, {self.merchant!r})"


support_agent = Agent(
    "openai:gpt-4o",
    deps_type=SupportDependencies,
    output_type=SupportOutput,
    instructions="You are a support agent in our bank.",
)


@support_agent.instructions
async def add_customer_name(ctx: RunContext[SupportDependencies]) -> str:
    customer_name = await ctx.deps.db.customer_name(id=ctx.deps.customer_id)
    return f"The customer's name is {customer_name!r}"


@support_agent.tool
async def customer_balance(ctx: RunContext[SupportDependencies], include_pending: bool) -> str:
    """Returns the customer's current account balance."""
    balance = await ctx.deps.db.customer_balance(
        id=ctx.deps.customer_id, include_pending=include_pending
    )
    return f"${balance:.2f}"


@support_agent.tool
async def card_status(card_number: str) -> str:  # expect: TRV801
    """Whether a card is active or blocked."""
    return "active" if card_number.endswith("7") else "blocked"


@support_agent.tool
def today() -> str:  # expect: TRV801
    """Today's date."""
    return datetime.now().date().isoformat()


@support_agent.tool_plain
async def exchange_rate(ctx: RunContext[SupportDependencies], currency: str) -> str:  # expect: TRV801
    """The exchange rate of a currency against the euro."""
    return str(await ctx.deps.db.rate(currency))


@support_agent.tool
async def recent_transactions(ctx: RunContext[SupportDependencies], limit: int = 5) -> list:
    """The customer's latest transactions."""
    rows = await ctx.deps.db.transactions(ctx.deps.customer_id, limit)
    return [Transaction(row.amount, row.merchant) for row in rows]  # expect: TRV803


@support_agent.tool
async def largest_transaction(ctx: RunContext[SupportDependencies]) -> dict:
    """The customer's largest transaction this month."""
    row = await ctx.deps.db.largest_transaction(ctx.deps.customer_id)
    return {"customer": ctx.deps.customer_id, "transaction": Transaction(row.amount, row.merchant)}  # expect: TRV803


@support_agent.tool_plain
def branch_hours(ctx, city: str) -> str:  # expect: TRV802
    """Opening hours of the branch in a city."""
    return f"The {city} branch is open 9:00-17:00"


@support_agent.tool
async def block_card(ctx: RunContext[SupportDependencies], card_number: str) -> str:
    """Block one of the customer's cards."""
    if not await ctx.deps.db.owns_card(ctx.deps.customer_id, card_number):
        return ModelRetry(f"Card {card_number} does not belong to this customer")  # expect: TRV901
    await ctx.deps.db.block_card(card_number)
    return f"Card {card_number} is blocked"
