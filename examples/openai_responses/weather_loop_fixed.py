"""The same assistant written right, in the three styles real Responses code uses."""

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


def whole_history(question: str) -> str:
    """`input += response.output`, then one output per function call."""
    input_items: list = [{"role": "user", "content": question}]
    while True:
        response = client.responses.create(model=MODEL, input=input_items, tools=tools)
        calls = [item for item in response.output if item.type == "function_call"]
        if not calls:
            return response.output_text
        input_items += response.output
        for call in calls:
            input_items.append(
                {
                    "type": "function_call_output",
                    "call_id": call.call_id,
                    "output": get_weather(**json.loads(call.arguments)),
                }
            )


def chained(question: str) -> str:
    """`previous_response_id`, the outputs built by a comprehension."""
    response = client.responses.create(model=MODEL, input=question, tools=tools)
    outputs = [
        {
            "type": "function_call_output",
            "call_id": item.call_id,
            "output": get_weather(**json.loads(item.arguments)),
        }
        for item in response.output
        if item.type == "function_call"
    ]
    final = client.responses.create(
        model=MODEL, previous_response_id=response.id, input=outputs, tools=tools
    )
    return final.output_text


def output_for(item) -> dict:
    """A helper that completes the item after the literal."""
    output = {"type": "function_call_output", "output": get_weather(**json.loads(item.arguments))}
    output["call_id"] = item.call_id
    return output
