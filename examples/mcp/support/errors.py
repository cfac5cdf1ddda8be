"""Error handling kept in one place: every tool ends its ``except`` branch here."""

import logging
from typing import NoReturn

from fastmcp.exceptions import ToolError

logger = logging.getLogger(__name__)


def raise_tool_error(error: Exception, operation: str) -> NoReturn:
    """Turn any failure into a ToolError the client shows: never returns."""
    logger.warning("%s failed: %s", operation, error)
    raise ToolError(f"{operation} failed: {error}") from error


def log_error(error: Exception, operation: str) -> None:
    """Only logs: a tool that ends with this falls off its end."""
    logger.error("%s failed: %s", operation, error)
