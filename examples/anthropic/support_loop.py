"""A customer-support assistant's Messages API tool loop, written wrong.

Each function below holds one mistake seen in public Anthropic tool loops
(cookbook notebooks, courses, workshops, ports from Chat Completions).
`support_loop_fixed.py` is the same assistant written right.
"""

import json

import anthropic

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
    },
    {
        "name": "refund_order",
        "description": "Refund an order",
        "input_schema": {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    },
]


def lookup_order(order_id: str) -> dict:
    return {"order_id": order_id, "status": "shipped", "total": 42.5}


def refund_order(order_id: str) -> str:
    return f"Order {order_id} refunded"


TOOLS = {"lookup_order": lookup_order, "refund_order": refund_order}


def answer_ported_from_openai(question: str) -> str:
    """The id key kept from Chat Completions (`tool_call_id`): HTTP 400."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = json.dumps(TOOLS[block.name](**block.input))
            results.append(
                {
                    "type": "tool_result",
                    "tool_call_id": block.id,  # expect: TRV501
                    "content": output,
                }
            )
    messages.append({"role": "user", "content": results})
    final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return final.content[0].text


def answer_without_assistant_turn(question: str) -> str:
    """The tool results sent without the assistant turn that asked for them."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = json.dumps(TOOLS[block.name](**block.input))
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
    messages.append({"role": "user", "content": results})  # expect: TRV502
    final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return final.content[0].text


def answer_with_a_preamble(question: str) -> str:
    """A text block put before the tool results of the user message."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    results = [
        {
            "type": "tool_result",
            "tool_use_id": block.id,
            "content": json.dumps(TOOLS[block.name](**block.input)),
        }
        for block in response.content
        if block.type == "tool_use"
    ]
    messages.append(
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Here are the results:"},  # expect: TRV503
                *results,
            ],
        }
    )
    final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return final.content[0].text


def answer_with_tool_role(question: str) -> str:
    """OpenAI's `{"role": "tool"}` messages kept after porting to Anthropic."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    for block in response.content:
        if block.type == "tool_use":
            output = json.dumps(TOOLS[block.name](**block.input))
            messages.append(
                {
                    "role": "tool",  # expect: TRV504
                    "tool_use_id": block.id,
                    "content": output,
                }
            )
    final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return final.content[0].text


def answer_with_raw_dicts(question: str) -> str:
    """The tool's dict sent as the result's `content`."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use" and block.name == "lookup_order":
            order = lookup_order(**block.input)
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": block.id,
                    "content": order,  # expect: TRV505
                }
            )
    messages.append({"role": "user", "content": results})
    final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return final.content[0].text


def answer_with_silent_errors(question: str) -> str:
    """A failing tool reported with `is_error` and no message."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            try:
                output = json.dumps(TOOLS[block.name](**block.input))
                results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
            except Exception:
                results.append(
                    {
                        "type": "tool_result",
                        "tool_use_id": block.id,
                        "is_error": True,  # expect: TRV506
                        "content": "",
                    }
                )
    messages.append({"role": "user", "content": results})
    final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return final.content[0].text


def answer_first_tool_only(question: str) -> str:
    """Only the first `tool_use` answered: fine in a demo, HTTP 400 on parallel tool use."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    while response.stop_reason == "tool_use":
        tool_use = next(b for b in response.content if b.type == "tool_use")  # expect: TRV507
        output = json.dumps(TOOLS[tool_use.name](**tool_use.input))
        messages.append({"role": "assistant", "content": response.content})
        messages.append(
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": tool_use.id, "content": output}],
            }
        )
        response = client.messages.create(
            model=MODEL, max_tokens=1024, tools=tools, messages=messages
        )
    return response.content[0].text


def answer_and_stop_early(question: str) -> str:
    """A `break` left in the loop over the blocks after the first answer."""
    messages = [{"role": "user", "content": question}]
    response = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    results = []
    for block in response.content:
        if block.type == "tool_use":
            output = json.dumps(TOOLS[block.name](**block.input))
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
            break  # expect: TRV507
    messages.append({"role": "user", "content": results})
    final = client.messages.create(model=MODEL, max_tokens=1024, tools=tools, messages=messages)
    return final.content[0].text
