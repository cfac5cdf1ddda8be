"""Shared example code of the Anthropic rules: a client and the classic weather tool."""

from __future__ import annotations

HEAD = """\
import json

import anthropic

client = anthropic.Anthropic()
tools = [
    {
        "name": "get_weather",
        "description": "Get the current weather in a city",
        "input_schema": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    }
]


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


"""
