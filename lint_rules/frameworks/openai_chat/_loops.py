"""Shared example code of the Chat Completions rules: the classic weather tool loop."""

from __future__ import annotations

HEAD = """\
import json

from openai import OpenAI

client = OpenAI()
tools = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


"""
