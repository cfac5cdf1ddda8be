"""``python -m lint_rules.lsp.child``: one isolated check or fix-all for the language server.

Reads a pickled :class:`~lint_rules.lsp.scheduler.IsolatedRequest` from stdin and writes
a pickled :class:`~lint_rules.lsp.scheduler.IsolatedResult` to stdout, then exits: the
server's :class:`~lint_rules.lsp.scheduler.Isolated` starts one per check of a large
document and kills it when the check is no longer wanted. Only the server talks to it.
"""

from __future__ import annotations

import os
import pickle
import sys
import threading
import time

from lint_rules import fixes
from lint_rules.analysis.index import ModuleFacts
from lint_rules.analysis.project import Project
from lint_rules.analysis.summaries import SummaryStore
from lint_rules.engine import check_source
from lint_rules.lsp.scheduler import IsolatedRequest, IsolatedResult
from lint_rules.model import Diagnostic


def answer(request: IsolatedRequest) -> IsolatedResult:
    """The check (or the fix-all) of ``request``, as the server's worker would answer it."""
    summaries = SummaryStore()
    project = Project(revalidate=False, index=request.index, summaries=summaries)
    if request.index is not None:  # a file another file's fact names: parsed here

        def extract_named(path: str, data: bytes) -> ModuleFacts:
            from lint_rules.frameworks.index_facts import extract

            return extract(path, data, project)

        request.index.extract = extract_named

    def check(text: str) -> list[Diagnostic]:
        found = check_source(text, request.path, request.settings, project)
        return fixes.without_unfixable(request.settings, found)

    if request.kind == "fix":
        return IsolatedResult([], frozenset(), fixes.fix_source(request.source, check).source)
    found = check(request.source)
    return IsolatedResult(found, frozenset(summaries.take_deps(request.path)))


def _end_with(parent: int) -> None:
    """On a daemon thread: end at once when the server that started us is gone (it
    exited, or was killed, before it could kill us): never a check nobody reads."""
    while os.getppid() == parent:
        time.sleep(0.1)
    os._exit(1)


def main() -> None:
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()
    request = pickle.loads(sys.stdin.buffer.read())  # from the server that started us
    result = answer(request)
    sys.stdout.buffer.write(pickle.dumps(result))
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
