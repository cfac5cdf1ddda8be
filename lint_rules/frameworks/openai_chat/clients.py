"""The Chat Completions clients toolret knows, each with its own contract (RULES.md
TRV4xx "OpenAI-compatible clients"; research: shared/design/frameworks-providers.md §3).

``groq`` and ``together`` are clones of ``openai``: OpenAI's contract, unchanged.
``litellm`` translates a request per provider: the rules apply, and say so for
OpenAI-backed models. Mistral's SDK validates messages before sending: a non-string
tool ``content`` is a client-side ``ValidationError``. Ollama's tool calls have no
``id`` and its tool messages are keyed by ``tool_name``: the rules about ids and
answered calls (whose consequence is OpenAI's HTTP 400) do not apply to it — TRV411
covers its own mistake — and a non-string ``content`` is a client-side
``ValidationError`` too.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Contract:
    """What a client does with the messages the rules check."""

    package: str
    title: str
    rejects: str
    """How a request the rules report fails, in the findings' words (``HTTP 400``)."""
    bad_content: str
    """How a tool message whose ``content`` is not a string fails (TRV401)."""
    ids: bool = True
    """Tool calls carry ids that each must be answered (TRV405–TRV410 apply)."""

    def say(self, message: str) -> str:
        """A finding's message in this client's words."""
        return message if self.rejects == "HTTP 400" else message.replace("HTTP 400", self.rejects)


OPENAI = Contract("openai", "OpenAI", "HTTP 400", "HTTP 400")
CLIENTS: dict[str, Contract] = {
    "openai": OPENAI,
    "groq": Contract("groq", "Groq", "HTTP 400", "HTTP 400"),
    "together": Contract("together", "Together", "HTTP 400", "HTTP 400"),
    "litellm": Contract(
        "litellm",
        "litellm",
        "HTTP 400 for OpenAI-backed models",
        "HTTP 400 for OpenAI-backed models",
    ),
    "mistralai": Contract(
        "mistralai", "Mistral", "HTTP 400", "a client-side `ValidationError` of `mistralai`"
    ),
    "ollama": Contract(
        "ollama",
        "Ollama",
        "no error: the model never sees the missing results",
        "a client-side `ValidationError` of `ollama`",
        ids=False,
    ),
}
COMPATIBLE = tuple(name for name in CLIENTS if name != "openai")
"""The OpenAI-compatible clients recognised by default (imports, as ``openai``'s)."""

MIXED = Contract("", "", "HTTP 400", "an error", ids=False)
"""A module that imports Ollama beside a client with ids: which client sends which
message is not read, so no rule that depends on it speaks."""


def contract_of(imported: set[str]) -> Contract:
    """The contract of a module that imports the client packages ``imported`` (any
    other configured client, or a client made in another module: OpenAI's)."""
    if "ollama" in imported:
        return CLIENTS["ollama"] if imported == {"ollama"} else MIXED
    if "openai" in imported or "groq" in imported or "together" in imported:
        return (
            OPENAI
            if "openai" in imported
            else CLIENTS["groq" if "groq" in imported else "together"]
        )
    for name in ("mistralai", "litellm"):
        if name in imported:
            return CLIENTS[name]
    return OPENAI
