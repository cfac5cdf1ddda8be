"""Fixit rules for the benchmark (enabled only through the config run.py generates)."""

from fixit_rules.return_int import ReturnIntLiteral

__all__ = ["ReturnIntLiteral"]
