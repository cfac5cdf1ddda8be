"""Shared example code of the Responses rules: a client, a tool schema and its function."""

from __future__ import annotations

HEAD = """\
import json

from openai import OpenAI

client = OpenAI()
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


"""
