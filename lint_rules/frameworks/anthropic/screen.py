"""Whether a module can hold an Anthropic Messages finding or a ``@beta_tool``
(``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView
from lint_rules.frameworks.loop_screens import role_may_be


def needs_libcst(view: ModuleView) -> bool:
    """Whether the code holds the string or name ``tool_result``; or ``messages``, and a
    display may have the role ``"tool"`` (``role_may_be``); or a function is decorated
    with ``beta_tool`` or ``beta_async_tool`` (under its imported name, whatever the
    module calls it).

    Rule by rule (``recognition.AnthropicFile``):

    - TRV501, TRV503, TRV505, TRV506 judge the ``tool_result`` blocks (``tool_results``):
      displays whose ``"type"`` is that literal — written, made by
      ``ToolResultBlockParam(type="tool_result", ...)``, ``dict(...)`` or a same-module
      helper whose display holds the literal or is given it. TRV502 and TRV507 judge the
      answers, which are those blocks (``answers``); TRV504 the messages those blocks
      reach.
    - TRV504 also reports a display whose ``"role"`` is the literal ``"tool"`` (written,
      or a typed constructor's or helper's display) added to a list a request of the
      scope sends as ``messages=``.
    - TRV508, and TRV901/TRV902 (``tool_functions``), judge the ``@beta_tool`` /
      ``@beta_async_tool`` functions, bare or called, resolved through the imports
      (``decorated_with``): the decorator ends in that name, or in a local alias of it.
    """
    return (
        view.has("tool_result")
        or (view.has("messages") and role_may_be(view, "tool"))
        or view.decorated_by("beta_tool", "beta_async_tool")
    )
