"""Shared example code of the LangChain rules."""

from __future__ import annotations

HEAD = """\
from langchain_core.tools import tool


"""
