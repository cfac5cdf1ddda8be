"""Whether a module can hold a browser-use action or ``ActionResult`` call
(``analysis.screen``)."""

from __future__ import annotations

from lint_rules.analysis.screen import ModuleView

PACKAGE = "browser_use"


def needs_libcst(view: ModuleView) -> bool:
    """Whether a decorator of the module ends in ``action``, or one of its callees can be
    browser-use's ``ActionResult``: its last name is ``ActionResult`` or a local imported
    as it, with an import from ``browser_use``.

    The family's one context (``BrowserUse.contexts``) exists only when the file has an
    action or an ``ActionResult(...)`` call (``recognition.BrowserUseFile``), and every
    rule, TRV201–TRV209, judges only those (an output model is read only for an action);
    ``tool_functions`` (TRV901/TRV902) are the actions.

    - An action is a ``def`` decorated ``@<x>.action(...)`` (``_Finder._action``: the
      decorator is a call of an attribute named ``action``): ``action`` is the last name
      of one of its decorators.
    - An ``ActionResult`` call is a call whose callee's qualified name through the
      imports is under ``browser_use`` and ends in ``ActionResult``
      (``is_action_result_name``): the callee's last attribute is ``ActionResult``, or it
      is a name imported as ``ActionResult``.
    """
    if view.decorated_by("action"):
        return True
    found = [(local, q) for local, q in view.import_pairs if _in_package(q)]
    if not found:
        return False
    if view.calls("ActionResult"):
        return True
    return any(q.endswith(".ActionResult") and local in view.called for local, q in found)


def _in_package(qualified: str) -> bool:
    return qualified == PACKAGE or qualified.startswith(PACKAGE + ".")
