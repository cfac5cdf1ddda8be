"""The language server and Jupyter notebooks (LSP 3.17 notebook document sync): the
code cells of a notebook are checked as one module, as ``toolret check`` does, and each
cell gets its own diagnostics, positions and quick fixes. Driven end to end by
pytest-lsp's client, as in ``test_lsp.py``."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp drives the server")

from lsprotocol import types  # noqa: E402
from pygls.workspace.position_codec import PositionCodec  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402
from test_lsp import SERVER, apply, code_actions, pull, utf16  # noqa: E402
from test_lsp import capabilities as text_capabilities  # noqa: E402

from lint_rules.lsp import _applied  # noqa: E402

in_module_loop = pytest.mark.asyncio(loop_scope="module")

IMPORTS = 'import json\n\nimport anthropic\n\nclient = anthropic.Anthropic(name="café 🎉")'
TITLE = "# The tool loop"
LOOP = """\
%matplotlib inline
def run(messages):
    response = client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
    messages.append({"role": "assistant", "content": response.content})
    results = [
        {"type": "tool_result", "tool_call_id": b.id, "content": {"temp": 21}}
        for b in response.content
        if b.type == "tool_use"
    ]
    messages.append({"role": "user", "content": results})
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=1024, messages=messages)
"""
RESULT_ROW = 5  # 0-based line of the tool result in LOOP
FIXED_LOOP = LOOP.replace('"tool_call_id"', '"tool_use_id"').replace(
    '{"temp": 21}', 'json.dumps({"temp": 21})'
)


def capabilities(*, pull: bool) -> types.ClientCapabilities:
    made = text_capabilities(pull=pull)
    made.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities()
    )
    return made


async def start(client: LanguageClient, root: Path, *, pull: bool) -> types.InitializeResult:
    return await client.initialize_session(
        types.InitializeParams(capabilities=capabilities(pull=pull), root_uri=root.as_uri())
    )


INITIALIZED: dict[str, types.InitializeResult] = {}


@pytest_lsp.fixture(config=SERVER, scope="module")
async def push_client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    INITIALIZED["push"] = await start(lsp_client, tmp_path_factory.mktemp("push"), pull=False)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def pull_client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    await start(lsp_client, tmp_path_factory.mktemp("pull"), pull=True)
    yield
    await lsp_client.shutdown_session()


def cell_uri(notebook: Path, index: int) -> str:
    """A cell URI as VS Code makes them: the notebook's path and a fragment per cell."""
    return f"vscode-notebook-cell:{notebook.as_posix()}#W{index}sZmlsZQ%3D%3D"


def open_notebook(client: LanguageClient, notebook: Path, cells: list[tuple[str, str]]) -> None:
    """Open ``notebook`` with ``(language, text)`` cells (``markdown``: a markup cell)."""
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook.as_uri(),
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(
                        kind=types.NotebookCellKind.Markup
                        if language == "markdown"
                        else types.NotebookCellKind.Code,
                        document=cell_uri(notebook, index),
                    )
                    for index, (language, _) in enumerate(cells)
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(
                    uri=cell_uri(notebook, index), language_id=language, version=1, text=text
                )
                for index, (language, text) in enumerate(cells)
            ],
        )
    )


def change_cell(
    client: LanguageClient,
    notebook: Path,
    index: int,
    version: int,
    changes: list[types.TextDocumentContentChangeEvent],
) -> None:
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(
                uri=notebook.as_uri(), version=version
            ),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(
                                uri=cell_uri(notebook, index), version=version
                            ),
                            changes=changes,
                        )
                    ]
                )
            ),
        )
    )


def forget(client: LanguageClient, uris: set[str]) -> None:
    """Drop what was published for ``uris`` (before an action whose publication is awaited)."""
    for uri in uris:
        client.diagnostics.pop(uri, None)


async def published(client: LanguageClient, uris: set[str]) -> dict[str, list[types.Diagnostic]]:
    """What was published for each of ``uris`` since they were last forgotten (several
    cells are published at once: waiting for notifications one by one could miss some)."""

    async def all_there() -> None:
        while not uris <= set(client.diagnostics):
            await asyncio.sleep(0.02)

    await asyncio.wait_for(all_there(), timeout=10)
    found = {uri: list(client.diagnostics[uri]) for uri in uris}
    forget(client, uris)
    return found


def cells_of(edit: types.WorkspaceEdit | None) -> set[str]:
    assert edit is not None
    return {change.text_document.uri for change in edit.document_changes or []}  # type: ignore[union-attr]


# ------------------------------------------------------------------ push mode


@in_module_loop
async def test_capabilities_ask_for_the_python_cells_of_notebooks(
    push_client: LanguageClient,
) -> None:
    sync = INITIALIZED["push"].capabilities.notebook_document_sync
    assert isinstance(sync, types.NotebookDocumentSyncOptions)
    (selector,) = sync.notebook_selector
    assert isinstance(selector, types.NotebookDocumentFilterWithNotebook)
    assert selector.notebook == "*"
    assert [cell.language for cell in selector.cells or []] == ["python"]
    assert sync.save


@in_module_loop
async def test_cells_checked_as_one_module_with_diagnostics_per_cell(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    client = push_client
    notebook = tmp_path / "loop.ipynb"
    first, loop = cell_uri(notebook, 0), cell_uri(notebook, 2)
    forget(client, {first, loop})
    open_notebook(client, notebook, [("python", IMPORTS), ("markdown", TITLE), ("python", LOOP)])
    shown = await published(client, {first, loop})
    assert shown[first] == []  # the client is told a clean cell is clean
    diagnostics = shown[loop]
    assert [d.code for d in diagnostics] == ["TRV501", "TRV505"]
    # Rows relative to the cell (0-based in LSP), after the IPython line; UTF-16 columns.
    line = LOOP.splitlines()[RESULT_ROW]
    assert diagnostics[0].range.start == types.Position(RESULT_ROW, line.index('"tool_call_id"'))

    # The rule's fix and the noqa action edit that cell only, IPython lines kept.
    rename = (await code_actions(client, loop, diagnostics[0]))[0]
    assert rename.title == "toolret (TRV501): Rename to `tool_use_id` (unsafe fix)"
    assert cells_of(rename.edit) == {loop}
    renamed = apply(LOOP, rename.edit, loop)
    assert renamed == LOOP.replace('"tool_call_id"', '"tool_use_id"')
    silence = [
        a for a in await code_actions(client, loop, diagnostics[0]) if a.title.startswith("Disable")
    ]
    assert [a.title for a in silence] == ["Disable TRV501 for this line"]
    silenced = apply(LOOP, silence[0].edit, loop).splitlines()
    assert silenced[RESULT_ROW].endswith("  # noqa: TRV501")
    assert silenced[0] == "%matplotlib inline"

    # A ranged change, as clients send for cells, applied on LSP lines.
    start = LOOP.index('"tool_call_id"')
    row = LOOP[:start].count("\n")
    column = start - (LOOP.rindex("\n", 0, start) + 1)
    forget(client, {first, loop})
    change_cell(
        client,
        notebook,
        2,
        2,
        [
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    types.Position(row, column),
                    types.Position(row, column + len('"tool_call_id"')),
                ),
                text='"tool_use_id"',
            )
        ],
    )
    codes = [d.code for d in (await published(client, {loop}))[loop]]
    assert codes == ["TRV505"]

    # Closing the notebook clears every cell.
    forget(client, {first, loop})
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=notebook.as_uri()),
            cell_text_documents=[
                types.TextDocumentIdentifier(uri=cell_uri(notebook, i)) for i in range(3)
            ],
        )
    )
    cleared = await published(client, {first, loop})
    assert cleared == {first: [], loop: []}


SERVER_CELL = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("demo")\n'
ADD = "@mcp.tool\ndef add(a: int, b: int) -> int:\n    return a + b\n"
SUB = "!pip list\n@mcp.tool\ndef sub(a: int, b: int) -> int:\n    return a - b"


@in_module_loop
async def test_fix_all_edits_every_cell_it_changes_and_noqa_works_per_cell(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    client = push_client
    notebook = tmp_path / "server.ipynb"
    add, sub = cell_uri(notebook, 1), cell_uri(notebook, 2)
    forget(client, {add, sub})
    open_notebook(client, notebook, [("python", SERVER_CELL), ("python", ADD), ("python", SUB)])
    shown = await published(client, {add, sub})
    assert [d.code for d in shown[add]] == [d.code for d in shown[sub]] == ["TRV601"]
    assert shown[sub][0].range.start == types.Position(1, 1)  # after the shell line
    (fix_all,) = await code_actions(client, sub, shown[sub][0], only=["source.fixAll.toolret"])
    assert fix_all.kind == "source.fixAll.toolret"
    assert cells_of(fix_all.edit) == {add, sub}
    assert apply(ADD, only_for(fix_all.edit, add), add) == ADD.replace("@mcp.tool", "@mcp.tool()")
    assert apply(SUB, only_for(fix_all.edit, sub), sub) == SUB.replace("@mcp.tool", "@mcp.tool()")

    # A noqa comment on a cell's line silences that line only.
    forget(client, {add, sub})
    change_cell(
        client,
        notebook,
        1,
        2,
        [
            types.TextDocumentContentChangeWholeDocument(
                text=ADD.replace("tool\n", "tool  # noqa\n")
            )
        ],
    )
    shown = await published(client, {add, sub})
    assert shown[add] == [] and [d.code for d in shown[sub]] == ["TRV601"]

    # Cells added and removed: the new cell is checked with the others, the removed
    # one is cleared.
    new = cell_uri(notebook, 3)
    forget(client, {add, sub, new})
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(
                uri=notebook.as_uri(), version=3
            ),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    structure=types.NotebookDocumentCellChangeStructure(
                        array=types.NotebookCellArrayChange(
                            start=2,
                            delete_count=1,
                            cells=[
                                types.NotebookCell(kind=types.NotebookCellKind.Code, document=new)
                            ],
                        ),
                        did_open=[
                            types.TextDocumentItem(
                                uri=new, language_id="python", version=1, text=ADD
                            )
                        ],
                        did_close=[types.TextDocumentIdentifier(uri=sub)],
                    )
                )
            ),
        )
    )
    shown = await published(client, {add, sub, new})
    assert shown[add] == [] and shown[sub] == []
    assert [d.code for d in shown[new]] == ["TRV601"]


def only_for(edit: types.WorkspaceEdit | None, uri: str) -> types.WorkspaceEdit:
    assert edit is not None
    return types.WorkspaceEdit(
        document_changes=[
            change
            for change in edit.document_changes or []
            if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri
        ]
    )


@in_module_loop
async def test_a_cell_that_does_not_parse_keeps_its_last_diagnostics(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    client = push_client
    notebook = tmp_path / "broken.ipynb"
    first, loop = cell_uri(notebook, 0), cell_uri(notebook, 1)
    forget(client, {first, loop})
    open_notebook(client, notebook, [("python", IMPORTS), ("python", LOOP)])
    before = (await published(client, {first, loop}))[loop]
    forget(client, {first, loop})
    change_cell(
        client,
        notebook,
        1,
        2,
        [types.TextDocumentContentChangeWholeDocument(text=LOOP + "def half_typed(:\n")],
    )
    after = await published(client, {first, loop})
    assert after == {first: [], loop: before}
    # Its fixes are gone with the text they belonged to.
    assert await code_actions(client, loop, before[0]) == []


# ------------------------------------------------------------------ pull mode


@in_module_loop
async def test_pull_mode_answers_for_cells_and_not_for_notebook_json(
    pull_client: LanguageClient, tmp_path: Path
) -> None:
    client = pull_client
    notebook = tmp_path / "pulled.ipynb"
    open_notebook(client, notebook, [("python", IMPORTS), ("markdown", TITLE), ("python", LOOP)])
    report = await pull(client, cell_uri(notebook, 2))
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert [d.code for d in report.items] == ["TRV501", "TRV505"]
    again = await pull(client, cell_uri(notebook, 2), report.result_id)
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    first = await pull(client, cell_uri(notebook, 0))
    assert isinstance(first, types.RelatedFullDocumentDiagnosticReport) and list(first.items) == []

    # A notebook opened as a text document is JSON: nothing is reported in the JSON.
    text = tmp_path / "as_text.ipynb"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=text.as_uri(), language_id="json", version=1, text='{"cells": []}'
            )
        )
    )
    plain = await pull(client, text.as_uri())
    assert isinstance(plain, types.RelatedFullDocumentDiagnosticReport) and list(plain.items) == []


# ------------------------------------------------------------------ units


def test_ranged_cell_changes_apply_on_lsp_lines() -> None:
    """Form feeds and U+2028 are no line breaks in LSP (``str.splitlines`` breaks at them);
    ``\\r`` alone is one; columns are UTF-16 units."""
    codec = PositionCodec(encoding=types.PositionEncodingKind.Utf16)
    text = "a = 1\x0c\r\nb = '🎉\u2028'; c = 2\rd = 3\n"
    change = types.TextDocumentContentChangePartial(
        range=types.Range(
            types.Position(1, utf16("b = '🎉\u2028'; c = ")),
            types.Position(1, utf16("b = '🎉\u2028'; c = 2")),
        ),
        text="20",
    )
    assert _applied(text, change, codec) == text.replace("c = 2", "c = 20")
    end = types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(9, 0), types.Position(9, 0)), text="e = 4\n"
    )
    assert _applied(text, end, codec) == text + "e = 4\n"
    whole = types.TextDocumentContentChangeWholeDocument(text="x = 1\n")
    assert _applied(text, whole, codec) == "x = 1\n"
