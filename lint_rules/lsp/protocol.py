"""pygls' protocol, made to answer every request: bad params, bad bodies, requests out of turn."""

from __future__ import annotations

import json
import logging
from typing import Any

from cattrs import ClassValidationError, transform_error
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol, lsp_method

from lint_rules.lsp.text import _applied

logger = logging.getLogger(__name__)


class _Answered:
    """What a request that was already answered with an error deserialises to."""

    jsonrpc = None


_ANSWERED = _Answered()


class ToolretProtocol(LanguageServerProtocol):
    """pygls' protocol, answering every request it is sent and reading bodies itself.

    * A request whose params cannot be deserialised: pygls would report the error out
      of band (``window/showMessage``) and lose the request's id, so the client
      waits for an answer forever; JSON-RPC 2.0 asks for an error response instead.
    * A body that is not UTF-8, not JSON or not a JSON-RPC message
      (:meth:`receive`): a parse error (-32700) or invalid request (-32600), with the
      request's id where one can be read, and the next message is read as usual.
    * The lifecycle, as the LSP specification has it: before ``initialize`` a request
      is answered ``ServerNotInitialized`` (-32002) and a notification other than
      ``exit`` is dropped; a second ``initialize`` and any request after ``shutdown``
      are answered ``InvalidRequest`` (-32600), never left unanswered.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initialize_received = False

    def receive(self, body: bytes) -> None:
        """Handle one message body as the transport cut it out; never raises an
        ``Exception`` (``SystemExit`` ends the server on ``exit``)."""
        try:
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError as error:
                self._refuse_undecodable(body, error)
                return
            try:
                data = json.loads(text)
            except (ValueError, RecursionError) as error:
                self._answer(None, JsonRpcParseError(f"Parse error: {_one_line(error)}"))
                return
            if not _is_message(data):
                self._refuse_invalid(data)
                return
            if not self._in_turn(data):
                return
            self.handle_message(self.structure_message(data))
        except JsonRpcException as error:  # a notification pygls could not deserialise
            logger.warning("Dropped a notification: %s", error.message)
            self._server._report_server_error(error, JsonRpcException)
        except BrokenPipeError:
            raise
        except Exception:
            logger.exception("Handling a message failed")

    def _refuse_undecodable(self, body: bytes, error: UnicodeDecodeError) -> None:
        reason = f"the message is not valid UTF-8 (byte {error.start} of {len(body)})"
        try:  # the id, if the rest of the message can be read
            data = json.loads(body.decode("utf-8", "replace"))
        except (ValueError, RecursionError):
            data = None
        msg_id = _message_id(data)
        if isinstance(data, dict) and isinstance(data.get("method"), str):
            if msg_id is None:
                logger.warning("Dropped a %r notification: %s", data["method"], reason)
                return
            logger.warning("Answered request %r: %s", msg_id, reason)
        elif msg_id is not None and msg_id in self._request_futures:
            # The client's answer to a request of ours: fail that request, or it waits forever.
            self._request_futures.pop(msg_id).set_exception(JsonRpcParseError(reason))
            logger.warning("The client's response to %r: %s", msg_id, reason)
            return
        self._answer(msg_id, JsonRpcParseError(f"Parse error: {reason}"))

    def _refuse_invalid(self, data: Any) -> None:
        msg_id = _message_id(data)
        if msg_id is None and isinstance(data, dict) and isinstance(data.get("method"), str):
            logger.warning("Dropped a %r notification that is not JSON-RPC 2.0", data["method"])
            return
        self._answer(msg_id, JsonRpcInvalidRequest("Invalid request: not a JSON-RPC 2.0 message"))

    def _answer(self, msg_id: int | str | None, error: JsonRpcException) -> None:
        """Answer request ``msg_id`` (``None``: one whose id is unknown) with ``error``."""
        if msg_id is None:  # pygls would leave the null id out; JSON-RPC wants it there
            logger.warning("Answered a message with id null: %s", error.message)
            error_object = {"code": error.code, "message": error.message}
            self._send_data({"jsonrpc": "2.0", "id": None, "error": error_object})
        else:
            self._send_response(msg_id, None, error.to_response_error())

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if not _is_request(data):
                raise  # a notification has no one to answer: pygls reports it
            if isinstance(error.__cause__, ClassValidationError):
                details = "; ".join(transform_error(error.__cause__, path="$.params"))
                error = JsonRpcInvalidParams(f"Invalid params for {data['method']}: {details}")
            logger.warning("Answered request %r with %s", data.get("id"), error.message)
            self._answer(_message_id(data), error)
            return _ANSWERED

    def _in_turn(self, data: dict[str, Any]) -> bool:
        """Whether a message may be handled now (before its params are deserialised: a
        request before ``initialize`` is ``ServerNotInitialized`` whatever its params)."""
        method = data.get("method")
        if method is None:  # a response
            return True
        if "id" not in data:  # a notification
            if method == types.EXIT or self.initialize_received:
                return True
            logger.warning("Dropped a %r notification sent before initialize", method)
            return False
        refusal: JsonRpcException | None = None
        if not self.initialize_received and method != types.INITIALIZE:
            refusal = JsonRpcServerNotInitialized(
                f"Server not initialized: {method} before initialize"
            )
        elif self.initialize_received and method == types.INITIALIZE:
            refusal = JsonRpcInvalidRequest("Invalid request: initialize was already sent")
        elif self._shutdown:
            refusal = JsonRpcInvalidRequest(f"Invalid request: {method} after shutdown")
        if refusal is None:
            return True
        logger.warning("Answered request %r: %s", data["id"], refusal.message)
        self._answer(_message_id(data), refusal)
        return False

    @lsp_method(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def lsp_notebook_document__did_change(
        self, params: types.DidChangeNotebookDocumentParams
    ) -> Any:
        """pygls' handler, given each changed cell's whole new text: pygls applies a
        cell's ranged change as a whole-text one when the sync kind is *full* (and the
        notebook sync has no kind of its own: clients send ranges), so the ranges are
        applied here first, on LSP lines (:func:`_applied`)."""
        cells = params.change.cells
        if cells is not None and cells.text_content:
            opened = {
                cell.uri: cell.text
                for cell in (cells.structure.did_open or [] if cells.structure else [])
            }
            for content in cells.text_content:
                uri = content.document.uri
                try:
                    text = opened.get(uri)
                    if text is None:
                        text = self.workspace.get_text_document(uri).source
                    codec = self.workspace.position_codec
                    for change in content.changes:
                        text = _applied(text, change, codec)
                except Exception:  # a cell the notebook never opened: pygls' business
                    logger.warning("A change to unknown notebook cell %s", uri)
                    continue
                content.changes = [types.TextDocumentContentChangeWholeDocument(text=text)]
        return (yield from super().lsp_notebook_document__did_change(params))

    def handle_message(self, message: Any) -> None:
        if message is _ANSWERED:
            return
        if getattr(message, "method", None) == types.INITIALIZE and hasattr(message, "id"):
            self.initialize_received = True
        super().handle_message(message)


def _is_request(data: dict[str, Any]) -> bool:
    return "jsonrpc" in data and "id" in data and "method" in data


def _is_message(data: Any) -> bool:
    """Whether ``data`` has a JSON-RPC 2.0 message's shape (its params are pygls' business)."""
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        return False
    if "method" in data:
        return isinstance(data["method"], str)
    return "id" in data and ("result" in data or "error" in data)


def _message_id(data: Any) -> int | str | None:
    """The id of a (possibly malformed) message, if it has a usable one."""
    msg_id = data.get("id") if isinstance(data, dict) else None
    if isinstance(msg_id, bool) or not isinstance(msg_id, int | str):
        return None
    return msg_id


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__
