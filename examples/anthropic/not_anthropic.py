"""The mistakes of `support_loop.py` in a module that does not import `anthropic`.

A home-made client with the same method names (`messages.create`) and its own
message format: not checked, nothing is reported.
"""

from my_llm import Client, beta_tool

client = Client()


def run(messages: list) -> None:
    response = client.messages.create(model="local", messages=messages, tools=[])
    tool_use = next(b for b in response.content if b.type == "tool_use")
    messages.append({"role": "assistant", "content": response.content})
    messages.append(
        {
            "role": "tool",
            "content": [
                {"type": "text", "text": "Results:"},
                {"type": "tool_result", "tool_call_id": tool_use.id, "content": {"ok": True}},
                {"type": "tool_result", "tool_use_id": tool_use.id, "is_error": True},
            ],
        }
    )
    client.messages.create(model="local", messages=messages, tools=[])


def run_without_assistant_turn(messages: list) -> None:
    response = client.messages.create(model="local", messages=messages, tools=[])
    results = []
    for block in response.content:
        if block.type == "tool_use":
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": "ok"})
            break
    messages.append({"role": "user", "content": results})
    client.messages.create(model="local", messages=messages, tools=[])


@beta_tool
def count(customer_id: str) -> int:
    return 3
