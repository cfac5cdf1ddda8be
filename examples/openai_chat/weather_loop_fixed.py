"""The weather / time / calculator tool loop written right: nothing is reported here."""

import json
from datetime import datetime

import openai
from openai import OpenAI
from pydantic import BaseModel

client = OpenAI()


class GetTime(BaseModel):
    """The current time in a city."""

    city: str


tools = [
    {
        "type": "function",
        "function": {
            "name": "get_current_weather",
            "description": "Get the current weather in a given location",
            "parameters": {
                "type": "object",
                "properties": {
                    "location": {"type": "string"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                },
                "required": ["location"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "calculate",
            "description": "Evaluate an arithmetic expression",
            "parameters": {
                "type": "object",
                "properties": {"expression": {"type": "string"}},
                "required": ["expression"],
            },
        },
    },
    openai.pydantic_function_tool(GetTime, name="get_time"),
]


def get_current_weather(location: str, unit: str = "celsius"):
    observed = datetime.now().isoformat()
    return {"location": location, "temperature": 21, "unit": unit, "observed": observed}


def calculate(expression: str) -> str:
    return str(eval(expression))  # noqa: S307 - a tutorial's calculator


def get_time(city: str) -> str:
    return datetime.now().strftime("%H:%M")


available_functions = {
    "get_current_weather": get_current_weather,
    "calculate": calculate,
    "get_time": get_time,
}


def run_conversation(question: str) -> str | None:
    """Every call answered, the assistant message appended once, then a second request."""
    messages: list = [{"role": "user", "content": question}]
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    response_message = response.choices[0].message
    if not response_message.tool_calls:
        return response_message.content
    messages.append(response_message)
    for tool_call in response_message.tool_calls:
        function = available_functions.get(tool_call.function.name)
        if function is None:
            content = f"Unknown tool {tool_call.function.name}"
        else:
            content = json.dumps(function(**json.loads(tool_call.function.arguments)))
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": content})
    response = client.chat.completions.create(model="gpt-4o", messages=messages)
    return response.choices[0].message.content


def run_one_call_at_a_time(messages: list) -> str | None:
    """`tool_calls[0]` is enough when parallel tool calls are switched off."""
    response = client.chat.completions.create(
        model="gpt-4o", messages=messages, tools=tools, parallel_tool_calls=False
    )
    message = response.choices[0].message
    if message.tool_calls:
        tool_call = message.tool_calls[0]
        result = available_functions[tool_call.function.name](
            **json.loads(tool_call.function.arguments)
        )
        messages.append(message)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result)}
        )
    return message.content


def find_calculation(message):
    """A loop that only searches the calls: not an answer loop."""
    for tool_call in message.tool_calls:
        if tool_call.function.name == "calculate":
            return tool_call
    return None
