"""The classic weather / time / calculator tool loop, written wrong.

Modelled on the Chat Completions function-calling tutorials: each function
below holds one of the mistakes seen in public code. `weather_loop_fixed.py`
is the same assistant written right.
"""

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
    openai.pydantic_function_tool(GetTime),  # expect: TRV403
]


def get_current_weather(location: str, unit: str = "celsius"):
    return {"location": location, "temperature": 21, "observed": datetime.now()}  # expect: TRV402


def calculate(expr: str) -> str:
    return str(eval(expr))  # noqa: S307 - a tutorial's calculator


def get_time(city: str) -> str:
    return datetime.now().strftime("%H:%M")


available_functions = {
    "get_current_weather": get_current_weather,
    "calculate": calculate,  # expect: TRV404
    "get_time": get_time,  # expect: TRV403
}


def run_conversation(question: str) -> str | None:
    """Answers only the first call: fine in a demo, HTTP 400 on two parallel calls."""
    messages = [{"role": "user", "content": question}]
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    response_message = response.choices[0].message
    if response_message.tool_calls:
        tool_call = response_message.tool_calls[0]  # expect: TRV405
        function = available_functions[tool_call.function.name]
        result = function(**json.loads(tool_call.function.arguments))
        messages.append(response_message)
        messages.append(
            {"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result)}
        )
        response = client.chat.completions.create(model="gpt-4o", messages=messages)
    return response.choices[0].message.content


def answer_calls(messages: list, response) -> None:
    """The assistant message appended per call, and every answer claiming the first id."""
    message = response.choices[0].message
    for tool_call in message.tool_calls:
        messages.append(message)  # expect: TRV407
        args = json.loads(tool_call.function.arguments)
        messages.append(
            {
                "role": "tool",
                "tool_call_id": message.tool_calls[0].id,  # expect: TRV408
                "content": json.dumps(available_functions[tool_call.function.name](**args)),
            }
        )


def collect_answers(message) -> list:
    """A `return` indented into the loop: only the first call is answered."""
    answers = []
    for tool_call in message.tool_calls:
        args = json.loads(tool_call.function.arguments)
        result = available_functions[tool_call.function.name](**args)
        answers.append({"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(result)})
        return answers  # expect: TRV409


def answer_known_tools(messages: list, message) -> None:
    """Unknown tool names skipped: those calls are left unanswered."""
    messages.append(message)
    for tool_call in message.tool_calls:
        if tool_call.function.name not in ("get_current_weather", "calculate"):
            continue  # expect: TRV409
        args = json.loads(tool_call.function.arguments)
        weather = {"location": args["location"], "forecast": "sunny"}
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": weather})  # expect: TRV401


def follow_up(messages: list, message, result: str):
    """A tool message without `tool_call_id`."""
    messages.append(message)
    messages.append({"role": "tool", "name": "get_time", "content": result})  # expect: TRV406
    return client.chat.completions.create(model="gpt-4o", messages=messages)
