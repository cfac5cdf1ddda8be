"""Whether a module can hold a Chat Completions finding or registry tool (``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView
from lint_rules.frameworks.loop_screens import dispatch_registry, role_may_be


def needs_libcst(view: ModuleView) -> bool:
    """Whether the code holds the name or string ``tool_calls``, or a display may have
    the role ``"tool"`` (``role_may_be``), or a dispatch registry may be recognised
    (``dispatch_registry``).

    What the rules start from (``recognition.ChatFile``):

    - *tool messages* (TRV401, TRV406, TRV411's keys; TRV405, TRV408–TRV410 through the
      loops that hold them): displays whose ``"role"`` entry is the literal ``"tool"`` —
      written, made by a typed constructor or ``dict(role="tool")``, or by a same-module
      helper whose returned display holds that literal or a parameter given it
      (``role_may_be``).
    - *tool_calls expressions* (TRV405, TRV407, TRV408, TRV410, TRV411; the loops over
      them): ``X.tool_calls`` or ``X["tool_calls"]`` (or a name bound to one) — the name
      or string ``tool_calls``. A loop not over one is a loop only when one of its tool
      messages answers the loop variable (``"tool"`` again).
    - *registries* (TRV402, TRV403, TRV404, and the tool functions TRV901/TRV902 judge,
      ``registry_tools``): see ``dispatch_registry``. What another file's loop makes of
      this module's registries or functions (``registry_uses``, ``function_uses``) is a
      fact naming this file, which the screen never skips.
    """
    return view.has("tool_calls") or role_may_be(view, "tool") or dispatch_registry(view)
