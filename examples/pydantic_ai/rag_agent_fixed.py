"""An agentic-RAG assistant written right: every context tool takes `RunContext` first."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel
from pydantic_ai import Agent, ModelRetry, RunContext, Tool


@dataclass
class RagDeps:
    pool: object
    top_k: int = 5


class Chunk(BaseModel):
    document: str
    text: str
    score: float


@dataclass
class Citation:
    document: str
    page: int


agent = Agent("openai:gpt-4o-mini", deps_type=RagDeps, system_prompt="Answer from the docs.")


@agent.tool
async def vector_search(ctx: RunContext[RagDeps], query: str) -> list[Chunk]:
    """Search the knowledge base."""
    rows = await ctx.deps.pool.search(query, ctx.deps.top_k)
    if not rows:
        raise ModelRetry(f"Nothing matches {query!r}; try other words")
    return [Chunk(document=r.doc, text=r.text, score=r.score) for r in rows]


@agent.tool
async def cite(ctx, document: str, page: int) -> Citation:
    """A citation for a page of a document (an unannotated first parameter is the context)."""
    return Citation(document, page)


@agent.tool_plain
def word_count(text: str) -> dict:
    """Count the words of a text."""
    return {"words": len(text.split())}


def summarise(context: str, max_words: int = 60) -> str:
    """Summarise a passage."""
    return " ".join(context.split()[:max_words])


def page_count(ctx: RunContext[RagDeps], document: str) -> int:
    """How many pages a document has."""
    return ctx.deps.pool.pages(document)


reviewer = Agent(
    "openai:gpt-4o-mini",
    deps_type=RagDeps,
    tools=[summarise, page_count, Tool(word_count, takes_ctx=False)],
)
