"""A Chat Completions loop in Python 3.12 syntax (PEP 701 f-strings)."""

import json

from openai import OpenAI

client = OpenAI()
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


def get_weather(city: str) -> str:
    report = {"city": city, "sky": "clear"}
    return f"{report["city"]}: {report["sky"]}"


def run(question: str) -> str:
    messages = [{"role": "user", "content": question}]
    while True:
        response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=TOOLS)
        message = response.choices[0].message
        if not message.tool_calls:
            return message.content or ""
        messages.append(message)
        for call in message.tool_calls:
            arguments = json.loads(call.function.arguments)
            result = get_weather(**arguments)
            print(f"{call.function.name}({arguments["city"]}) -> {result}")
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
            break  # expect: TRV409
