"""Shared example code of the Gemini rules: a client and a tool function."""

from __future__ import annotations

HEAD = """\
from google import genai
from google.genai import types

client = genai.Client()


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


"""
