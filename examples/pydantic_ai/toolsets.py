"""Research tools shared by several agents: a FunctionToolset and Tool(...) objects."""

from __future__ import annotations

import httpx
from pydantic_ai import Agent, RunContext, Tool
from pydantic_ai.toolsets import FunctionToolset


def search_papers(ctx: RunContext[httpx.AsyncClient], query: str) -> str:
    """Search arXiv for papers."""
    return f"https://export.arxiv.org/api/query?search_query={query}"


def fetch_abstract(arxiv_id: str, ctx: RunContext[httpx.AsyncClient]) -> str:  # expect: TRV801
    """Fetch a paper's abstract."""
    return f"https://arxiv.org/abs/{arxiv_id}"


def cite(context, arxiv_id: str, style: str = "apa") -> str:  # expect: TRV802
    """Format a citation for a paper."""
    return f"[{arxiv_id}] ({style})"


def word_count(text: str) -> int:  # expect: TRV801
    """Count the words of a text."""
    return len(text.split())


research = FunctionToolset(tools=[search_papers, fetch_abstract, cite])


@research.tool
def now_utc() -> str:
    """The current UTC time (a plain function: Pydantic AI 1.x warns, 2.x raises)."""
    return "2026-01-01T00:00:00Z"


@research.tool_plain
def arxiv_url(arxiv_id: str) -> str:
    """The URL of a paper."""
    return f"https://arxiv.org/abs/{arxiv_id}"


writer = Agent(
    "anthropic:claude-sonnet-4-5",
    deps_type=httpx.AsyncClient,
    toolsets=[research],
    tools=[Tool(word_count, takes_ctx=True), Tool(arxiv_url, takes_ctx=False)],
)
