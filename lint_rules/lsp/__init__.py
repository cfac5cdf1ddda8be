"""``toolret lsp``: a language server (pygls 2.x) with diagnostics as you type and quick fixes.

Install it with the ``lsp`` extra (``pip install -e 'path/to/toolret[lsp]'`` in a
clone) and point any LSP client at ``toolret lsp`` (or ``python -m lint_rules.lsp``), which speaks
JSON-RPC on stdin/stdout.

What it does
------------
* Diagnostics for Python documents on open, change (debounced by
  :data:`DEBOUNCE_SECONDS`) and save, from the same ``check_source`` as the CLI,
  run off the event loop so it keeps answering requests: on a worker thread, or,
  for a document of ``scheduler.ISOLATE_CHARS`` or more, in a child process that is
  killed when a newer text supersedes it (LibCST holds the GIL for seconds on a
  large module; a small document's requests never wait for it).
* *Pull* diagnostics (``textDocument/diagnostic``) when the client declares the
  ``textDocument.diagnostic`` capability, *push* (``publishDiagnostics``)
  otherwise; never both, or the client would show every finding twice.
* Code actions: the rule's fix as a quick fix (a safe fix is the preferred
  action; an unsafe one is offered too, titled "(unsafe fix)", and not
  preferred, so "auto fix" never applies it unasked), "Disable TRVxxx for this
  line" (adds or extends the ``# noqa`` on the diagnostic's noqa row), and
  ``source.fixAll.toolret`` (every safe fix, pass after pass, like ``toolret fix``).
  Fix-all is computed only for a request that names its kind (``only``, as
  ``editor.codeActionsOnSave`` sends); the light bulb's unfiltered request gets it
  without its edit where the client supports ``codeAction/resolve``, which then
  computes it, and not at all elsewhere.
  A fix is applied by the fix engine (``lint_rules.fixes``) and sent as the
  minimal edits between the text before and after, so the editor gets exactly
  what ``toolret fix`` would write.
* Jupyter notebooks, through LSP 3.17's notebook document sync (pygls keeps the
  notebook and its cell documents; the server asks for the Python cells of every
  notebook): on open, change (debounced) and save, the code cells are checked as
  one module, built as ``toolret check`` builds a ``.ipynb`` file's
  (``lint_rules.notebook``: IPython lines as placeholders, magic cells skipped),
  and each cell gets its own diagnostics at positions in the cell; pulled
  diagnostics are answered per cell as well. Quick fixes, ``# noqa`` and fix-all
  are applied to the module and sent as edits of the cells they change. A cell
  that does not parse keeps its last good diagnostics while the others are
  checked. A ``.ipynb`` file opened as a plain text document (its JSON) gets none.
* Positions in the encoding negotiated with the client (UTF-16 unless it offers
  another): toolret's code-point columns are converted line by line. Lines end
  at ``\\n``, ``\\r\\n`` or ``\\r``, as in LSP, CPython and LibCST.
* A buffer that does not parse (the engine's TRV001) keeps showing its last good
  diagnostics: code being typed rarely parses, and findings that blink out on
  every keystroke are useless. TRV001 itself is never shown (the editor's Python
  support reports syntax errors), and no fix or noqa action is offered until the
  buffer parses again, since the last good edits belong to older text.
* Settings: the closest ``[tool.toolret]`` / ``toolret.toml`` to each document,
  as for the CLI. They are read again when a config file changes: the server
  asks the client to watch them (where it supports dynamic registration) and
  also reacts to a config file saved in the editor. Files that
  ``exclude`` / ``extend-exclude`` match (applied as with ``--force-exclude``)
  get no diagnostics.
* Whole-project facts: the PolyAI directory facts (prompts and YAML) of each
  document's project, re-validated by file stats on every check, and the
  Python cross-file facts of ``toolret check``'s project index (the
  ``Agent(...)`` in ``main.py`` that gives a behaviour function in
  ``behaviors.py`` its output type). The index covers the workspace folders:
  built on the worker thread after ``initialized``, then kept up to date file by
  file from saves and watched-file events (the saved text, not unsaved
  buffers, as in ``toolret check``): a changed file's facts replace its old ones
  and only what they can change is derived again (``ProjectIndex.update``). The
  open documents whose view of the index changed are checked again. The build
  runs in slices of :data:`_INDEX_SLICE` seconds with the checks of newly
  opened documents let in first, so a document opened on a fresh
  server shows its same-file diagnostics at once, checked without the index as
  the flake8 plugin checks; once the index is ready the open documents are
  checked again with it, and published again where that changed anything.
* It never dies on a bad request. pygls 2.1 deserialises a message before it
  knows which request it answers, and on failure only shows a message: the
  request would never be answered. :class:`ToolretProtocol` answers it with the
  JSON-RPC error (``InvalidParams``, -32602, for params that do not fit the
  method's type) and goes on with the next message.
* It never goes deaf on bad input. The server reads stdin itself (pygls' reader
  loses framing for good, or exits): a frame without ``Content-Length``, garbage,
  a length that swallows the next message or one too large to hold are skipped
  up to the next ``Content-Length`` header (:class:`_Framer`); a body that is not
  UTF-8, JSON or a JSON-RPC message is answered -32700/-32600 where it has an id.
  The lifecycle is the specification's: ``ServerNotInitialized`` (-32002) before
  ``initialize``, ``InvalidRequest`` after ``shutdown``; it exits 0 on ``exit``
  after ``shutdown``, 1 otherwise, with a line on stderr if stdin just closes, and
  at once: a check under way is abandoned and its child killed.

Document sync is *full*, not incremental: pygls 2.1 applies incremental changes
on ``str.splitlines`` lines, which also break at form feeds, ``\\x1c``-``\\x1e``,
``\\x85`` and ``\\u2028``/``\\u2029``, so an edit below such a character lands on the
wrong line. Full sync costs one copy of the buffer per change and is always right.

The package, by idea (as ruff's server separates session, scheduler and handlers):

* :mod:`.framing` and :mod:`.protocol` — reading frames from stdin, answering every
  request whatever it holds;
* :mod:`.text` — LSP positions and minimal edits;
* :mod:`.state` — what is known about each document and notebook;
* :mod:`.scheduler` — where checks run: a worker thread for most documents, a child
  process (cancellable: killed when superseded) for large ones;
* :mod:`.base`, :mod:`.indexing`, :mod:`.documents`, :mod:`.notebooks`,
  :mod:`.actions`, :mod:`.server` — the server, one layer per idea, each a subclass
  of the one before: shared state, the project index, text documents, notebooks,
  code actions, then lifecycle and features.
"""

from __future__ import annotations

try:
    import lsprotocol  # noqa: F401
    import pygls  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError(
        "toolret lsp needs the language-server extra: pip install -e 'path/to/toolret[lsp]'"
        " (from a clone of toolret: it is not on a package index)"
    ) from error

from lint_rules.lsp.actions import _with_noqa
from lint_rules.lsp.base import DEBOUNCE_SECONDS, FIX_ALL_KIND
from lint_rules.lsp.framing import _Framer
from lint_rules.lsp.protocol import ToolretProtocol
from lint_rules.lsp.server import ToolretLanguageServer, main
from lint_rules.lsp.text import _applied, _LineIndex, text_edits

__all__ = [
    "DEBOUNCE_SECONDS",
    "FIX_ALL_KIND",
    "ToolretLanguageServer",
    "ToolretProtocol",
    "_Framer",
    "_LineIndex",
    "_applied",
    "_with_noqa",
    "main",
    "text_edits",
]
