"""The language server end to end: a real ``python -m lint_rules.lsp`` process driven by
pytest-lsp's client, as an editor would drive ``toolret lsp``."""

from __future__ import annotations

import asyncio
import re
import shutil
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")
pytest_lsp = pytest.importorskip("pytest_lsp", reason="pytest-lsp drives the server")

from lsprotocol import types  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "lint_rules.lsp"])

# A PolyAI function returning an int (TRV101) on a line with non-ASCII text before the
# return value: "é" is one UTF-16 unit, "🎉" two; toolret's columns count code points.
PREFIX = '    label = "café 🎉"; return '
SOURCE = (
    f"def count_bookings(conv):\n    bookings = conv.state.bookings or []\n{PREFIX}len(bookings)\n"
)
FIXED = SOURCE.replace("return len(bookings)", "return str(len(bookings))")

# One unsafe fix (TRV105: rename a key) and two safe ones (TRV101).
MIXED = """\
def count_bookings(conv):
    if conv.state.vip:
        return {"utterence": "Welcome back!"}
    bookings = conv.state.bookings or []
    if not bookings:
        return 0
    return len(bookings)
"""


# One server per client kind for the whole module (starting one costs about a second);
# each test works on documents of its own directory, so the tests stay independent.
in_module_loop = pytest.mark.asyncio(loop_scope="module")
INITIALIZED: dict[str, types.InitializeResult] = {}


@pytest_lsp.fixture(config=SERVER, scope="module")
async def push_client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    """A client without ``textDocument.diagnostic``: the server publishes."""
    await start(lsp_client, tmp_path_factory.mktemp("push"), pull=False)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def pull_client(
    lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[None]:
    """A client with ``textDocument.diagnostic``: it pulls, the server never publishes."""
    INITIALIZED["pull"] = await start(lsp_client, tmp_path_factory.mktemp("pull"), pull=True)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, loop_scope="module")
async def indexed_client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    """A server whose workspace is a copy of examples/openai_agents (cross-file facts)."""
    shutil.copytree(EXAMPLES / "openai_agents", tmp_path / "weather")
    await start(lsp_client, tmp_path / "weather", pull=False)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, loop_scope="module")
async def resolving_client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    """A push client that resolves a code action's ``edit`` (``codeAction/resolve``)."""
    await start(lsp_client, tmp_path, pull=False, resolve=True)
    yield
    await lsp_client.shutdown_session()


# ------------------------------------------------------------------ helpers


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def capabilities(*, pull: bool, resolve: bool = False) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        general=types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind.Utf16]
        ),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities() if pull else None,
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
            code_action=types.CodeActionClientCapabilities(
                is_preferred_support=True,
                resolve_support=(
                    types.ClientCodeActionResolveOptions(properties=["edit"]) if resolve else None
                ),
            ),
        ),
        workspace=types.WorkspaceClientCapabilities(
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
        ),
    )


async def start(
    client: LanguageClient, root: Path, *, pull: bool, resolve: bool = False
) -> types.InitializeResult:
    return await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities(pull=pull, resolve=resolve), root_uri=root.as_uri()
        )
    )


def function_file(root: Path, name: str = "count_bookings") -> str:
    """The URI of a PolyAI function file (``functions/<name>.py``) under ``root``."""
    path = root / "functions" / f"{name}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.as_uri()


def open_document(client: LanguageClient, uri: str, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )


def change_document(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def published_until(
    client: LanguageClient, uri: str, wanted: Callable[[list[str]], bool]
) -> list[str]:
    """The codes of ``uri``'s diagnostics, once a publication satisfies ``wanted``."""
    while True:
        codes = [str(d.code) for d in await published(client, uri)]
        if wanted(codes):
            return codes


async def published(client: LanguageClient, uri: str) -> Sequence[types.Diagnostic]:
    """Wait for the next ``publishDiagnostics`` of ``uri``."""
    while True:
        params = await asyncio.wait_for(
            client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=10
        )
        if params.uri == uri:
            return list(params.diagnostics)


async def code_actions(
    client: LanguageClient,
    uri: str,
    diagnostic: types.Diagnostic,
    only: list[str] | None = None,
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=only),
        )
    )
    return [action for action in result or [] if isinstance(action, types.CodeAction)]


def offset(text: str, position: types.Position) -> int:
    """A UTF-16 LSP position as an index into ``text`` (LSP lines: ``\\n``, ``\\r\\n``, ``\\r``)."""
    lines = re.split(r"(?<=\r\n)|(?<=\r)(?!\n)|(?<=\n)", text)
    index = sum(len(line) for line in lines[: position.line])
    units = 0
    line = lines[position.line] if position.line < len(lines) else ""
    for char in line.rstrip("\r\n"):
        if units >= position.character:
            break
        units += utf16(char)
        index += 1
    return index


def apply(text: str, edit: types.WorkspaceEdit | None, uri: str) -> str:
    """Apply a workspace edit's text edits for ``uri`` the way a client does."""
    assert edit is not None
    edits: list[types.TextEdit] = []
    for change in edit.document_changes or []:
        assert isinstance(change, types.TextDocumentEdit)
        assert change.text_document.uri == uri
        edits.extend(e for e in change.edits if isinstance(e, types.TextEdit))
    edits.extend((edit.changes or {}).get(uri, []))
    spans = sorted(
        ((offset(text, e.range.start), offset(text, e.range.end), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


async def send_raw(client: LanguageClient, message: dict[str, Any]) -> Any:
    """Send a message as is: the client's own methods would refuse to serialise bad params.

    For a request, wait for its answer (registered where pygls matches responses).
    """
    protocol = client.protocol
    answer: Future[Any] = Future()
    if "id" in message:
        protocol._request_futures[message["id"]] = answer
    else:
        answer.set_result(None)
    protocol._send_data(message)
    return await asyncio.wait_for(asyncio.wrap_future(answer), timeout=10)


async def pull(
    client: LanguageClient, uri: str, previous: str | None = None
) -> types.DocumentDiagnosticReport:
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous
        )
    )


# ------------------------------------------------------------------ push mode


@in_module_loop
async def test_diagnostic_at_utf16_position_and_its_quick_fix(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    client = push_client
    uri = function_file(tmp_path)
    open_document(client, uri, SOURCE)
    (diagnostic,) = await published(client, uri)

    assert diagnostic.code == "TRV101"
    assert diagnostic.source == "toolret"
    assert diagnostic.severity == types.DiagnosticSeverity.Error
    assert diagnostic.code_description is None  # no documentation site configured: no link
    start_character = utf16(PREFIX)
    assert start_character == len(PREFIX) + 1  # the emoji is two UTF-16 units
    assert diagnostic.range == types.Range(
        start=types.Position(line=2, character=start_character),
        end=types.Position(line=2, character=start_character + len("len(bookings)")),
    )

    actions = await code_actions(client, uri, diagnostic)
    titles = [action.title for action in actions]
    # No fix-all for the light bulb's request (no ``only``): the client cannot resolve it.
    assert titles == ["toolret (TRV101): Wrap in `str()`", "Disable TRV101 for this line"]
    fix = actions[0]
    assert fix.kind == types.CodeActionKind.QuickFix
    assert fix.is_preferred is True
    assert list(fix.diagnostics or []) == [diagnostic]
    fixed = apply(SOURCE, fix.edit, uri)
    assert fixed == FIXED

    change_document(client, uri, 2, fixed)
    assert await published(client, uri) == []


@in_module_loop
async def test_noqa_action_silences_the_diagnostic(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    client = push_client
    uri = function_file(tmp_path)
    open_document(client, uri, SOURCE)
    (diagnostic,) = await published(client, uri)

    actions = await code_actions(client, uri, diagnostic, only=[types.CodeActionKind.QuickFix])
    (noqa,) = [action for action in actions if action.title == "Disable TRV101 for this line"]
    assert not noqa.is_preferred
    silenced = apply(SOURCE, noqa.edit, uri)
    assert silenced == SOURCE.replace("len(bookings)\n", "len(bookings)  # noqa: TRV101\n")

    change_document(client, uri, 2, silenced)
    assert await published(client, uri) == []

    # An existing directive is extended rather than duplicated.
    other = SOURCE.replace("len(bookings)\n", "len(bookings)  # noqa: TRV103\n")
    change_document(client, uri, 3, other)
    (diagnostic,) = await published(client, uri)
    actions = await code_actions(client, uri, diagnostic)
    (noqa,) = [action for action in actions if action.title.startswith("Disable")]
    assert apply(other, noqa.edit, uri).endswith("len(bookings)  # noqa: TRV103, TRV101\n")


@in_module_loop
async def test_fix_all_applies_safe_fixes_only(push_client: LanguageClient, tmp_path: Path) -> None:
    client = push_client
    uri = function_file(tmp_path)
    open_document(client, uri, MIXED)
    diagnostics = await published(client, uri)
    assert [d.code for d in diagnostics] == ["TRV105", "TRV101", "TRV101"]

    unsafe = await code_actions(client, uri, diagnostics[0])
    assert unsafe[0].title == "toolret (TRV105): Rename to `utterance` (unsafe fix)"
    assert not unsafe[0].is_preferred
    assert '"utterance"' in apply(MIXED, unsafe[0].edit, uri)

    (fix_all,) = await code_actions(
        client, uri, diagnostics[1], only=[types.CodeActionKind.SourceFixAll]
    )
    assert fix_all.kind == "source.fixAll.toolret"
    fixed = apply(MIXED, fix_all.edit, uri)
    assert fixed == MIXED.replace("return 0", "return str(0)").replace(
        "return len(bookings)", "return str(len(bookings))"
    )

    change_document(client, uri, 2, fixed)
    assert [d.code for d in await published(client, uri)] == ["TRV105"]


@in_module_loop
async def test_the_light_bulb_offers_fix_all_and_resolve_computes_it(
    resolving_client: LanguageClient, tmp_path: Path
) -> None:
    client = resolving_client
    uri = function_file(tmp_path)
    open_document(client, uri, MIXED)
    diagnostics = await published(client, uri)
    actions = await code_actions(client, uri, diagnostics[1])  # no ``only``: the light bulb
    (offered,) = [action for action in actions if action.kind == "source.fixAll.toolret"]
    assert offered.edit is None  # not computed for a glance
    resolved = await client.code_action_resolve_async(offered)
    assert apply(MIXED, resolved.edit, uri) == MIXED.replace("return 0", "return str(0)").replace(
        "return len(bookings)", "return str(len(bookings))"
    )


@in_module_loop
async def test_buffer_that_does_not_parse_keeps_the_last_diagnostics(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    client = push_client
    uri = function_file(tmp_path)
    open_document(client, uri, SOURCE)
    good = await published(client, uri)
    assert [d.code for d in good] == ["TRV101"]

    broken = SOURCE + "def half_typed(:\n"
    change_document(client, uri, 2, broken)
    assert await published(client, uri) == good  # no TRV001, nothing lost
    (diagnostic,) = good
    assert await code_actions(client, uri, diagnostic) == []  # its edits belong to older text

    change_document(client, uri, 3, FIXED + "def half_typed(:\n")
    assert await published(client, uri) == good
    change_document(client, uri, 4, FIXED)
    assert await published(client, uri) == []


@in_module_loop
async def test_malformed_request_gets_invalid_params_and_the_server_goes_on(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    client = push_client
    uri = function_file(tmp_path)

    with pytest.raises(JsonRpcException) as error:
        await send_raw(
            client,
            {
                "jsonrpc": "2.0",
                "id": "malformed",
                "method": types.TEXT_DOCUMENT_CODE_ACTION,
                "params": {"textDocument": {"uri": uri}, "range": "everything"},
            },
        )
    assert error.value.code == -32602  # InvalidParams
    assert "range" in error.value.message

    # A malformed notification has no answer; it must not stop the server either.
    await send_raw(
        client,
        {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_DID_OPEN, "params": {"textDocument": 42}},
    )

    # A document that is neither open nor on disk: an empty answer, not an error.
    for missing in ((tmp_path / "missing.py").as_uri(), "untitled:Untitled-1"):
        nothing = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=missing),
                range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                context=types.CodeActionContext(diagnostics=[]),
            )
        )
        assert nothing is None

    open_document(client, uri, SOURCE)
    (diagnostic,) = await published(client, uri)
    actions = await code_actions(client, uri, diagnostic)
    assert actions[0].title == "toolret (TRV101): Wrap in `str()`"


# ------------------------------------------------------------------ pull mode


@in_module_loop
async def test_pull_mode_answers_requests_and_never_pushes(
    pull_client: LanguageClient, tmp_path: Path
) -> None:
    client = pull_client
    assert INITIALIZED["pull"].capabilities.diagnostic_provider is not None
    uri = function_file(tmp_path)
    open_document(client, uri, SOURCE)

    report = await pull(client, uri)
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    (diagnostic,) = report.items
    assert diagnostic.code == "TRV101"
    assert diagnostic.range.start == types.Position(line=2, character=utf16(PREFIX))

    unchanged = await pull(client, uri, previous=report.result_id)
    assert isinstance(unchanged, types.RelatedUnchangedDocumentDiagnosticReport)

    # Not parsing: the last good diagnostics stay.
    change_document(client, uri, 2, SOURCE + "def half_typed(:\n")
    broken = await pull(client, uri)
    assert isinstance(broken, types.RelatedFullDocumentDiagnosticReport)
    assert broken.items == report.items

    change_document(client, uri, 3, FIXED)
    fixed = await pull(client, uri, previous=report.result_id)
    assert isinstance(fixed, types.RelatedFullDocumentDiagnosticReport)
    assert list(fixed.items) == []

    # The closest [tool.toolret] governs each file.
    project = tmp_path / "other"
    project.mkdir()
    (project / "pyproject.toml").write_text('[tool.toolret]\nignore = ["TRV101"]\n')
    ignored_uri = function_file(project)
    open_document(client, ignored_uri, SOURCE)
    ignored = await pull(client, ignored_uri)
    assert isinstance(ignored, types.RelatedFullDocumentDiagnosticReport)
    assert list(ignored.items) == []

    await asyncio.sleep(2 * 0.3)  # longer than the debounce: a push would have arrived
    assert client.diagnostics == {}


@in_module_loop
async def test_config_change_rechecks_open_documents(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    client = push_client
    uri = function_file(tmp_path)
    open_document(client, uri, SOURCE)
    assert [d.code for d in await published(client, uri)] == ["TRV101"]

    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.toolret]\nignore = ["TRV101"]\n')
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Created)]
        )
    )
    assert await published(client, uri) == []


# ------------------------------------------------------------------ positions and edits


def test_positions_follow_lsp_lines_and_the_negotiated_encoding() -> None:
    from pygls.workspace.position_codec import PositionCodec

    from lint_rules.lsp import _LineIndex
    from lint_rules.model import Location

    # A lone \r ends a line (LSP, CPython, LibCST); a form feed or U+2028 does not.
    source = 'a = 1\rb = "\u2028x"\x0c; c = "🎉"; d\n'
    index = _LineIndex(source)
    utf16, utf32 = PositionCodec("utf-16"), PositionCodec("utf-32")
    column = source.split("\r")[1].index("d") + 1
    assert index.location(Location(row=2, column=column), utf16) == types.Position(1, column)
    assert index.location(Location(row=2, column=column), utf32) == types.Position(1, column - 1)


def test_text_edits_are_small_and_never_split_crlf() -> None:
    from pygls.workspace.position_codec import PositionCodec

    from lint_rules.lsp import text_edits

    codec = PositionCodec("utf-16")
    old = 'x = "é🎉"; return len(b)\r\n'
    new = 'x = "é🎉"; return str(len(b))\r\n'
    edits = text_edits(old, new, codec)
    assert [(e.range.start.character, e.range.end.character, e.new_text) for e in edits] == [
        (18, 18, "str("),
        (23, 23, ")"),  # before the last ")": as small, and equivalent
    ]
    assert apply_text(old, edits) == new

    # Replacing the \r of a \r\n pulls the whole line break into the edit.
    old, new = "a\r\nb\r\n", "a\nb\r\n"
    (edit,) = text_edits(old, new, codec)
    assert edit.range == types.Range(types.Position(0, 1), types.Position(1, 0))
    assert edit.new_text == "\n"
    assert apply_text(old, [edit]) == new


def apply_text(text: str, edits: list[types.TextEdit]) -> str:
    uri = "file:///t.py"
    return apply(text, types.WorkspaceEdit(changes={uri: edits}), uri)


# ------------------------------------------------------------------ whole-project facts


@in_module_loop
async def test_cross_file_facts_come_from_the_workspace_index(
    indexed_client: LanguageClient, tmp_path: Path
) -> None:
    client = indexed_client
    root = tmp_path / "weather"
    uri = (root / "behaviors.py").as_uri()
    open_document(client, uri, (root / "behaviors.py").read_text())
    # TRV305 and TRV312 need main.py's agents: only the project index knows them.
    codes = await published_until(client, uri, lambda codes: "TRV305" in codes)
    assert {"TRV303", "TRV304", "TRV305", "TRV306", "TRV312"} <= set(codes)

    # main.py loses its agents on disk: the index follows and the open file is re-checked.
    main = root / "main.py"
    agents = main.read_text()
    main.write_text("print('no agents here')\n")
    changed = types.FileEvent(uri=main.as_uri(), type=types.FileChangeType.Changed)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[changed]))
    codes = await published_until(client, uri, lambda codes: "TRV305" not in codes)
    assert "TRV312" not in codes
    assert "TRV303" in codes  # same-file facts stay

    main.write_text(agents)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[changed]))
    codes = await published_until(client, uri, lambda codes: "TRV305" in codes)
    assert "TRV312" in codes


@in_module_loop
async def test_a_saved_file_without_facts_of_its_own_updates_the_index(
    indexed_client: LanguageClient, tmp_path: Path
) -> None:
    # models.py has no signal: the index parsed it only because main.py's agent names
    # its class. Saved without that class, it changes behaviors.py's findings.
    client = indexed_client
    root = tmp_path / "weather"
    uri = (root / "behaviors.py").as_uri()
    open_document(client, uri, (root / "behaviors.py").read_text())
    codes = await published_until(client, uri, lambda codes: "TRV305" in codes)
    models = root / "models.py"
    original = models.read_text()
    open_document(client, models.as_uri(), original)
    for version, (text, wanted) in enumerate([("WeatherReport = None\n", False), (original, True)]):
        models.write_text(text)
        change_document(client, models.as_uri(), version + 2, text)
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(models.as_uri())
            )
        )
        codes = await published_until(
            client, uri, lambda codes, wanted=wanted: ("TRV305" in codes) == wanted
        )
        assert "TRV312" in codes  # main.py's other agent: unchanged


def package(root: Path, modules: dict[str, str]) -> list[Path]:
    """A project at ``root`` with a package ``pkg`` of these modules; their paths."""
    (root / "pyproject.toml").write_text("")
    (root / "pkg").mkdir()
    paths = []
    for name, text in modules.items():
        path = root / "pkg" / name
        path.write_text(text)
        paths.append(path)
    return paths


HELPERS = """\
class ToolError(Exception):
    pass


def fail(op):
    raise ToolError(op)
"""
TOOL = """\
from mcp.server.fastmcp import FastMCP

from pkg.errors import fail

mcp = FastMCP("x")


@mcp.tool()
def lookup(x: str) -> str:
    try:
        return x.upper()
    except AttributeError:
        fail("lookup")
"""


@in_module_loop
async def test_an_edit_to_an_imported_helper_rechecks_the_tool_module(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    # ``fail`` always raises, so ``lookup`` never falls off its end. Edited (unsaved) to
    # return, the open tool module is checked again: TRV602; closed, the disk counts.
    client = push_client
    errors, tool = package(tmp_path, {"errors.py": HELPERS, "server.py": TOOL})
    open_document(client, tool.as_uri(), TOOL)
    assert await published(client, tool.as_uri()) == []
    open_document(client, errors.as_uri(), HELPERS)
    returning = HELPERS.replace("raise ToolError(op)", "print(op)")
    change_document(client, errors.as_uri(), 2, returning)
    codes = await published_until(client, tool.as_uri(), lambda codes: codes != [])
    assert codes == ["TRV602"]
    change_document(client, errors.as_uri(), 3, HELPERS)
    assert await published_until(client, tool.as_uri(), lambda codes: codes == []) == []

    # On disk, with the buffer closed: a watched-file change re-checks the reader too.
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(
            text_document=types.TextDocumentIdentifier(errors.as_uri())
        )
    )
    errors.write_text(returning)
    changed = types.FileEvent(uri=errors.as_uri(), type=types.FileChangeType.Changed)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[changed]))
    codes = await published_until(client, tool.as_uri(), lambda codes: codes != [])
    assert codes == ["TRV602"]


REGISTERED_TOOLS = """\
def search(q: str) -> str:
    return {"q": q}
"""
REGISTERING_SERVER = """\
from fastmcp import FastMCP

from pkg.tools import search

mcp = FastMCP("x", tools=[search])
"""


@in_module_loop
async def test_a_registration_in_another_module_makes_and_unmakes_a_tool(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    # ``tools.py`` imports nothing of MCP: its function is a tool because ``server.py``
    # registers it (the workspace index). The server changes on disk: re-checked.
    client = push_client
    server, tools = package(
        tmp_path, {"server.py": REGISTERING_SERVER, "tools.py": REGISTERED_TOOLS}
    )
    folder = types.WorkspaceFolder(uri=tmp_path.as_uri(), name="registering")
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(added=[folder], removed=[])
        )
    )
    open_document(client, tools.as_uri(), REGISTERED_TOOLS)
    codes = await published_until(client, tools.as_uri(), lambda codes: codes != [])
    assert codes == ["TRV602"]
    server.write_text(REGISTERING_SERVER.replace("tools=[search]", "tools=[]"))
    changed = types.FileEvent(uri=server.as_uri(), type=types.FileChangeType.Changed)
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(changes=[changed]))
    assert await published_until(client, tools.as_uri(), lambda codes: codes == []) == []


def test_unfixable_rules_get_no_quick_fix(tmp_path: Path) -> None:
    # `unfixable` as for `toolret check --fix`: still reported, no fix offered.
    from lint_rules.lsp import ToolretLanguageServer

    (tmp_path / "functions").mkdir()
    tool = tmp_path / "functions" / "count.py"
    source = "def count(conv):\n    return 3\n"
    tool.write_text(source, encoding="utf-8")
    server = ToolretLanguageServer()
    (before,) = server._check(tool.as_uri(), source)
    assert before.code == "TRV101" and before.fix is not None
    (tmp_path / "toolret.toml").write_text('unfixable = ["TRV101"]\n', encoding="utf-8")
    server = ToolretLanguageServer()
    (after,) = server._check(tool.as_uri(), source)
    assert after.code == "TRV101" and after.fix is None
    assert server._fix_all(tool.as_uri(), source) == source


ANTHROPIC_LOOP = """\
import json

import anthropic

client = anthropic.Anthropic()


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


@in_module_loop
async def test_anthropic_loop_diagnostics_and_unsafe_quick_fixes(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    """A new family goes through the same engine paths: diagnostics, and its unsafe fixes
    offered as quick fixes but not preferred."""
    client = push_client
    uri = (tmp_path / "loop.py").as_uri()
    open_document(client, uri, ANTHROPIC_LOOP)
    diagnostics = await published(client, uri)
    assert [d.code for d in diagnostics] == ["TRV501", "TRV505"]
    rename = (await code_actions(client, uri, diagnostics[0]))[0]
    assert rename.title == "toolret (TRV501): Rename to `tool_use_id` (unsafe fix)"
    assert not rename.is_preferred
    fixed = apply(ANTHROPIC_LOOP, rename.edit, uri)
    assert '"tool_use_id": b.id' in fixed
    dumps = (await code_actions(client, uri, diagnostics[1]))[0]
    assert '"content": json.dumps({"temp": 21})' in apply(ANTHROPIC_LOOP, dumps.edit, uri)
    fixed = fixed.replace('{"temp": 21}', 'json.dumps({"temp": 21})')
    change_document(client, uri, 2, fixed)
    assert await published(client, uri) == []


RESPONSES_LOOP = """\
import json

from openai import OpenAI

client = OpenAI()


def run(question, tools):
    response = client.responses.create(model="gpt-4.1", input=question, tools=tools)
    outputs = [
        {"type": "function_call_output", "call_id": item.id, "output": {"temp": 21}}
        for item in response.output
        if item.type == "function_call"
    ]
    return client.responses.create(
        model="gpt-4.1", previous_response_id=response.id, input=outputs, tools=tools
    )
"""


@in_module_loop
async def test_responses_loop_safe_and_unsafe_quick_fixes(
    push_client: LanguageClient, tmp_path: Path
) -> None:
    """The TRR prefix goes through the same paths: TRR003's safe fix is the preferred quick
    fix, TRR002's unsafe one is offered but not preferred; fixed, the file is clean."""
    client = push_client
    uri = (tmp_path / "loop.py").as_uri()
    open_document(client, uri, RESPONSES_LOOP)
    diagnostics = await published(client, uri)
    assert sorted(str(d.code) for d in diagnostics) == ["TRR002", "TRR003"]
    by_code = {str(d.code): d for d in diagnostics}
    call_id = (await code_actions(client, uri, by_code["TRR003"]))[0]
    assert call_id.title == "toolret (TRR003): Use the item's `call_id`"
    assert call_id.is_preferred is True
    fixed = apply(RESPONSES_LOOP, call_id.edit, uri)
    assert '"call_id": item.call_id' in fixed
    dumps = (await code_actions(client, uri, by_code["TRR002"]))[0]
    assert not dumps.is_preferred
    assert '"output": json.dumps({"temp": 21})' in apply(RESPONSES_LOOP, dumps.edit, uri)
    fixed = fixed.replace('{"temp": 21}', 'json.dumps({"temp": 21})')
    change_document(client, uri, 2, fixed)
    assert await published(client, uri) == []
