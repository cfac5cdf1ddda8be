"""A Responses API weather assistant, ported from Chat Completions and Anthropic code:
one mistake of the Responses contract per function."""

import json

from openai import OpenAI

client = OpenAI()
MODEL = "gpt-4.1"
tools = [
    {
        "type": "function",
        "name": "get_weather",
        "description": "Get the current weather in a city",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    }
]


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


def chat_port(question: str) -> str:
    """Chat Completions' `tool_call_id`, kept from the port."""
    input_items: list = [{"role": "user", "content": question}]
    response = client.responses.create(model=MODEL, input=input_items, tools=tools)
    input_items += response.output
    for item in response.output:
        if item.type == "function_call":
            result = get_weather(**json.loads(item.arguments))
            input_items.append(
                {
                    "type": "function_call_output",
                    "tool_call_id": item.call_id,  # expect: TRR006
                    "output": result,
                }
            )
    return client.responses.create(model=MODEL, input=input_items, tools=tools).output_text


def anthropic_port(question: str) -> str:
    """Anthropic's `tool_use_id`, with `previous_response_id` chaining."""
    response = client.responses.create(model=MODEL, input=question, tools=tools)
    outputs = []
    for item in response.output:
        if item.type == "function_call":
            outputs.append(
                {
                    "type": "function_call_output",
                    "tool_use_id": item.call_id,  # expect: TRR006
                    "output": get_weather(**json.loads(item.arguments)),
                }
            )
    final = client.responses.create(
        model=MODEL, previous_response_id=response.id, input=outputs, tools=tools
    )
    return final.output_text


def no_id(question: str) -> str:
    """No id at all: nothing ties the output to its call."""
    response = client.responses.create(model=MODEL, input=question, tools=tools)
    outputs = [
        {
            "type": "function_call_output",  # expect: TRR006
            "output": get_weather(**json.loads(item.arguments)),
        }
        for item in response.output
        if item.type == "function_call"
    ]
    final = client.responses.create(
        model=MODEL, previous_response_id=response.id, input=outputs, tools=tools
    )
    return final.output_text


def item_id(question: str) -> str:
    """Chat Completions' `tool_call.id`: the item's `fc_…` id, not its `call_…` id."""
    response = client.responses.create(model=MODEL, input=question, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    outputs = [
        {
            "type": "function_call_output",
            "call_id": call.id,  # expect: TRR003
            "output": get_weather(**json.loads(call.arguments)),
        }
        for call in calls
    ]
    final = client.responses.create(
        model=MODEL, previous_response_id=response.id, input=outputs, tools=tools
    )
    return final.output_text


CHAT_TOOLS = [
    {  # expect: TRR001
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


def chat_schema(question: str) -> str:
    """Chat Completions' nested tool schema: the request is rejected before any call."""
    return client.responses.create(model=MODEL, input=question, tools=CHAT_TOOLS).output_text


def dict_output(question: str) -> str:
    """The tool's dict result sent as it is, not as a JSON string."""
    response = client.responses.create(model=MODEL, input=question, tools=tools)
    outputs = []
    for item in response.output:
        if item.type == "function_call":
            city = json.loads(item.arguments)["city"]
            weather = {"city": city, "sky": "sunny", "celsius": 21}
            outputs.append(
                {
                    "type": "function_call_output",
                    "call_id": item.call_id,
                    "output": weather,  # expect: TRR002
                }
            )
    final = client.responses.create(
        model=MODEL, previous_response_id=response.id, input=outputs, tools=tools
    )
    return final.output_text


def first_call_only(question: str) -> str:
    """Only the first function call answered, while the whole output is sent back."""
    input_items: list = [{"role": "user", "content": question}]
    response = client.responses.create(model=MODEL, input=input_items, tools=tools)
    call = next(item for item in response.output if item.type == "function_call")
    input_items += response.output
    input_items.append(
        {
            "type": "function_call_output",
            "call_id": call.call_id,  # expect: TRR004
            "output": get_weather(**json.loads(call.arguments)),
        }
    )
    return client.responses.create(model=MODEL, input=input_items, tools=tools).output_text


def chat_messages(question: str) -> str:
    """Chat Completions' tool message kept in a Responses history."""
    input_items: list = [{"role": "user", "content": question}]
    response = client.responses.create(model=MODEL, input=input_items, tools=tools)
    input_items += response.output
    for item in response.output:
        if item.type == "function_call":
            input_items.append(
                {  # expect: TRR005
                    "role": "tool",
                    "tool_call_id": item.call_id,
                    "content": get_weather(**json.loads(item.arguments)),
                }
            )
    return client.responses.create(model=MODEL, input=input_items, tools=tools).output_text


def reasoning_dropped(question: str) -> str:
    """A reasoning model's calls sent back without the reasoning items before them."""
    input_items: list = [{"role": "user", "content": question}]
    response = client.responses.create(model="o4-mini", input=input_items, tools=tools)
    calls = [item for item in response.output if item.type == "function_call"]
    input_items += calls  # expect: TRR007
    for call in calls:
        input_items.append(
            {
                "type": "function_call_output",
                "call_id": call.call_id,
                "output": get_weather(**json.loads(call.arguments)),
            }
        )
    return client.responses.create(model="o4-mini", input=input_items, tools=tools).output_text
