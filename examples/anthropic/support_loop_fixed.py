"""The support assistant of `support_loop.py`, written right, in the three common styles.

- `run_with_for_loop`: a `for block in response.content` loop that answers every
  `tool_use` block, the assistant turn appended first;
- `run_with_comprehension`: the results built by a list comprehension, the error
  results carrying their message;
- `run_with_tool_runner`: the SDK's tool runner, which sends the assistant turn and
  every result itself (its tools are in `runner_tools.py`).
"""

import json

import anthropic
from runner_tools import cancel_order, get_order_status

client = anthropic.Anthropic()
MODEL = "claude-sonnet-4-5"

tools = [
    {
        "name": "lookup_order",
        "description": "Look up an order by its id",
        "input_schema": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    }
]


def lookup_order(order_id: str) -> dict:
    return {"order_id": order_id, "status": "shipped", "total": 42.5}


TOOLS = {"lookup_order": lookup_order}


def call_tool(name: str, arguments: dict) -> str:
    return json.dumps(TOOLS[name](**arguments))


def run_with_for_loop(question: str) -> str:
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.messages.create(
            model=MODEL, max_tokens=1024, tools=tools, messages=messages
        )
        messages.append({"role": "assistant", "content": response.content})
        if response.stop_reason != "tool_use":
            return response.content[0].text
        results = []
        for block in response.content:
            if block.type != "tool_use":
                continue
            try:
                output = call_tool(block.name, block.input)
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
            except Exception as error:
                results.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": block.id,
                        "is_error": True,
                        "content": f"{type(error).__name__}: {error}",
                    }
                )
        messages.append(
            {"role": "user", "content": [*results, {"type": "text", "text": "Be brief."}]}
        )


def run_with_comprehension(question: str) -> str:
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        messages.append({"role": response.role, "content": response.content})
        results = [
            {
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": call_tool(block.name, block.input),
            }
            for block in response.content
            if block.type == "tool_use"
        ]
        messages.append({"role": "user", "content": results})
        response = client.messages.create(
            model=MODEL, max_tokens=1024, tools=tools, messages=messages
        )
    return response.content[0].text


def run_one_tool_at_a_time(question: str) -> str:
    """`next(...)` answers one block: right when parallel tool use is turned off."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(
        model=MODEL,
        max_tokens=1024,
        tools=tools,
        tool_choice={"type": "auto", "disable_parallel_tool_use": True},
        messages=messages,
    )
    if response.stop_reason != "tool_use":
        return response.content[0].text
    tool_use = next(b for b in response.content if b.type == "tool_use")
    result = {
        "type": "tool_result",
        "tool_use_id": tool_use.id,
        "content": call_tool(tool_use.name, tool_use.input),
    }
    final = client.messages.create(
        model=MODEL,
        max_tokens=1024,
        tools=tools,
        messages=[
            *messages,
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": [result]},
        ],
    )
    return final.content[0].text


def run_with_tool_runner(question: str) -> str:
    runner = client.beta.messages.tool_runner(
        model=MODEL,
        max_tokens=1024,
        tools=[get_order_status, cancel_order],
        messages=[{"role": "user", "content": question}],
    )
    last = None
    for message in runner:
        last = message
    return "".join(block.text for block in last.content if block.type == "text")
