"""Error handling in one place (3.12 syntax: a type alias, PEP 701 f-strings)."""

import logging
from typing import NoReturn

from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)

type Operation = str


def raise_tool_error(error: Exception, operation: Operation) -> NoReturn:
    """Turn any failure into a ToolError the client shows: never returns."""
    logger.warning(f"{operation} failed: {error!r}")
    raise ToolError(f"{f"{operation}".upper()} failed: {error}") from error


def log_error(error: Exception, context: dict[str, str]) -> None:
    """Only logs: a tool that ends with this falls off its end."""
    logger.error(f"{context["operation"]} failed: {error}")
