"""The two benchmark corpora: a copy of the standard library and a generated tool-heavy tree.

Both are built in a scratch directory so that every tool sees exactly the same
files, no configuration file of the surrounding project applies, and toolret's
warm-cache run can write ``.toolret_cache/`` next to the files.
"""

from __future__ import annotations

import ast
import os
import random
import shutil
import sysconfig
from dataclasses import dataclass
from pathlib import Path

# Directory names that ruff, toolret or flake8 skip by default, plus where
# third-party code lives. Leaving them out of the copy means every tool walks
# the same files (the stdlib's own ``venv`` package would otherwise be checked
# by flake8 and Fixit but skipped by ruff and toolret).
SKIPPED_DIRS = frozenset(
    {
        ".bzr",
        ".direnv",
        ".eggs",
        ".git",
        ".git-rewrite",
        ".hg",
        ".ipynb_checkpoints",
        ".mypy_cache",
        ".nox",
        ".pants.d",
        ".pyenv",
        ".pytest_cache",
        ".pytype",
        ".ruff_cache",
        ".svn",
        ".toolret_cache",
        ".tox",
        ".venv",
        ".vscode",
        "CVS",
        "__pycache__",
        "__pypackages__",
        "_build",
        "buck-out",
        "build",
        "dist",
        "dist-packages",
        "node_modules",
        "site-packages",
        "venv",
    }
)


@dataclass(frozen=True)
class CorpusInfo:
    name: str
    root: Path
    files: int
    lines: int
    description: str


def count_lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)


def stdlib_dir() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def copy_stdlib(dest: Path, max_lines: int | None = None) -> CorpusInfo:
    """Copy every ``.py`` file of the running Python's stdlib, without site-packages.

    With ``max_lines``, stop after the first files (in walk order) that reach it.
    """
    source = stdlib_dir()
    files = lines = 0
    for dirpath, dirnames, filenames in os.walk(source):
        if max_lines is not None and lines >= max_lines:
            break
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in SKIPPED_DIRS and not d.endswith(".egg") and not d.startswith(".")
        )
        rel = Path(dirpath).relative_to(source)
        for filename in sorted(filenames):
            if not filename.endswith(".py"):
                continue
            src = Path(dirpath, filename)
            if not src.is_file() or (max_lines is not None and lines >= max_lines):
                continue
            data = src.read_bytes()
            target = dest / rel / filename
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            files += 1
            lines += count_lines(data)
    subset = "" if max_lines is None else f"the first {files} files of "
    return CorpusInfo(
        "stdlib",
        dest,
        files,
        lines,
        f"a copy of {subset}{source} (.py files; site-packages and directories the "
        "tools exclude by default left out)",
    )


# ---------------------------------------------------------------------------
# The generated tool-heavy corpus
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Domain:
    area: str
    entity: str
    key: str
    fields: tuple[str, ...]
    service: str
    agent: str


# area, entity, key, fields, backend module, agent name
_DOMAIN_TABLE = """
orders order order_id status,total,eta,items orders_api Orders
billing invoice invoice_id amount,due_date,balance,currency billing_client Billing
bookings booking booking_ref date,time,party_size,table booking_store Reservations
weather forecast city temperature,wind,humidity,outlook weather_service Weather
inventory product sku stock,price,warehouse,reorder_level inventory_db Inventory
flights flight flight_number gate,departure,seat,terminal flight_status Travel
support ticket ticket_id priority,assignee,state,summary helpdesk Support
calendar event event_id start,end,location,attendees calendar_api Scheduler
shipping parcel tracking_number carrier,location,eta,weight tracking_api Shipping
accounts customer account_number tier,email,phone,plan crm Accounts
pharmacy prescription rx_number medication,refills,dose,pickup pharmacy_api Pharmacy
hotel reservation confirmation_code room,nights,check_in,rate pms Concierge
insurance claim claim_number stage,payout,adjuster,deductible claims_api Claims
banking transfer transfer_id amount,payee,reference,fee core_banking Payments
parking permit plate zone,expiry,fine,bay permits_api Parking
energy meter meter_id reading,tariff,usage,supplier utility_api Energy
"""
DOMAINS = tuple(
    Domain(area, entity, key, tuple(fields.split(",")), service, agent)
    for area, entity, key, fields, service, agent in (
        line.split() for line in _DOMAIN_TABLE.strip().splitlines()
    )
)

VERBS = (
    *("get", "lookup", "fetch", "check", "find", "list", "cancel", "update", "confirm"),
    *("count", "quote", "track", "summarise", "validate", "describe", "refresh", "estimate"),
    "search",
)
FLOWS = ("intake", "verification", "escalation", "payment", "follow_up", "onboarding", "triage")
MODELS = ("gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini")


class Names:
    """Unique identifiers within one file (and unique file stems across the corpus)."""

    def __init__(self, rng: random.Random, taken: set[str]) -> None:
        self.rng = rng
        self.taken = taken

    def make(self, *parts: str) -> str:
        base = "_".join(p for p in parts if p)
        name, n = base, 2
        while name in self.taken:
            name = f"{base}_{n}"
            n += 1
        self.taken.add(name)
        return name


def _indent(lines: list[str], level: int = 1) -> list[str]:
    pad = "    " * level
    return [pad + line if line else "" for line in lines]


class FileBuilder:
    """One generated file: tool functions of all four frameworks around one domain."""

    def __init__(self, rng: random.Random, domain: Domain, stem: str, star_header: bool) -> None:
        self.rng = rng
        self.d = domain
        self.stem = stem
        self.star_header = star_header
        self.names = Names(rng, {stem, "tools", "client", "logger", "TOOLS", "REGISTRY"})
        self.helpers: list[list[str]] = []
        self.actions: list[list[str]] = []
        self.agent_tools: list[tuple[str, list[str]]] = []
        self.chat_tools: list[tuple[str, str, str, list[str]]] = []
        self.record_class = self.names.make(domain.entity.title().replace("_", "") + "Record")
        self.poly: list[str] = []
        self.behaviour_name = ""
        self.behaviour_lines: list[str] = []
        self.loop_params: tuple[str, str, int, str, bool] = ("", "", 0, "", False)
        self.responses_params: tuple[str, str, str] | None = None
        self.gemini_params: tuple[str, str] | None = None
        self.bedrock_params: tuple[str, str] | None = None

    # -- small vocabulary helpers ------------------------------------------------------
    def field(self) -> str:
        return self.rng.choice(self.d.fields)

    def verb(self) -> str:
        return self.rng.choice(VERBS)

    def sentence(self) -> str:
        d = self.d
        return self.rng.choice(
            (
                f"Look up the {d.entity} by its {d.key.replace('_', ' ')}",
                f"Tell the user the {self.field().replace('_', ' ')} of a {d.entity}",
                f"Check whether a {d.entity} can still be changed",
                f"Summarise the {d.entity} for the customer",
                f"Find the latest {d.entity} on the account",
                f"Confirm the {self.field().replace('_', ' ')} with the {d.area} system",
            )
        )

    # -- blocks --------------------------------------------------------------------------
    def helper(self) -> list[str]:
        d, rng = self.d, self.rng
        prefix = rng.choice(("_load", "_normalise", "_format", "_parse", "_fetch"))
        name = self.names.make(prefix, d.entity, self.field())
        f1, f2 = rng.sample(d.fields, 2)
        variant = rng.randrange(4)
        if variant == 0:
            body = [
                f"def {name}({d.key}: str) -> dict:",
                f'    """Fetch one {d.entity} from the {d.area} backend, or an empty dict."""',
                "    try:",
                f"        raw = {d.service}.get({d.key}.strip().upper(), timeout=5)",
                "    except TimeoutError:",
                f'        logger.warning("timeout fetching %s", {d.key})',
                "        return {}",
                "    if raw is None:",
                "        return {}",
                f'    return {{"{f1}": raw.get("{f1}"), "{f2}": raw.get("{f2}"), "id": {d.key}}}',
            ]
        elif variant == 1:
            body = [
                f"def {name}(value: str | None) -> str:",
                "    if not value:",
                '        return "unknown"',
                '    cleaned = " ".join(value.split())',
                f"    if len(cleaned) > {rng.randint(40, 120)}:",
                f'        cleaned = cleaned[: {rng.randint(30, 39)}] + "..."',
                "    return cleaned",
            ]
        elif variant == 2:
            body = [
                f"def {name}(records: list[dict]) -> list[dict]:",
                "    seen = set()",
                "    result = []",
                "    for record in records:",
                f'        key = record.get("{d.key}")',
                "        if key in seen:",
                "            continue",
                "        seen.add(key)",
                f'        record["{f1}"] = str(record.get("{f1}", "")).strip()',
                "        result.append(record)",
                f'    return sorted(result, key=lambda r: r.get("{f2}") or "")',
            ]
        else:
            currency = rng.choice(("GBP", "USD", "EUR"))
            digits = rng.choice((0, 2))
            body = [
                f'def {name}(amount: float, currency: str = "{currency}") -> str:',
                '    symbol = {"GBP": "£", "USD": "$", "EUR": "€"}.get(currency, currency + " ")',
                f'    return f"{{symbol}}{{amount:,.{digits}f}}"',
            ]
        self.helpers.append(body)
        return body

    def polyai_function(self) -> list[str]:
        d, rng = self.d, self.rng
        param = d.key
        sig_conv = "conv: Conversation" if self.star_header else "conv"
        f1, f2 = rng.sample(d.fields, 2)
        deco: list[str] = []
        if self.star_header:
            deco = [
                f'@func_description("{self.sentence()}")',
                f'@func_parameter("{param}", "The {d.entity}\'s {param.replace("_", " ")}")',
            ]
        head = [*deco, f"def {self.stem}({sig_conv}, {param}: str):"]
        spoken_key = param.replace("_", " ")
        lookup = [
            f"    {d.entity} = {d.service}.get({param})",
            f"    if {d.entity} is None:",
            "        conv.state.failed_lookups = (conv.state.failed_lookups or 0) + 1",
            f'        return f"I could not find a {d.entity} with {spoken_key} {{{param}}}."',
        ]
        variant = rng.randrange(9)
        if variant == 0:  # correct: a plain string
            tail = [
                f"    conv.state.{d.entity}_{f1} = {d.entity}.{f1}",
                f'    return f"The {f1.replace("_", " ")} is {{{d.entity}.{f1}}} and the '
                f'{f2.replace("_", " ")} is {{{d.entity}.{f2}}}."',
            ]
        elif variant == 1:  # TRV101: an int
            tail = [
                f"    matches = [x for x in {d.entity}.history if x.{f1}]",
                "    conv.state.match_count = len(matches)",
                "    return len(matches)",
            ]
        elif variant == 2:  # TRV103: hangup without utterance
            tail = [
                f'    if {d.entity}.{f1} == "closed":',
                f'        conv.write_metric("{d.area.upper()}_CLOSED")',
                '        return {"hangup": True}',
                f'    return {{"content": f"{f2}: {{{d.entity}.{f2}}}"}}',
            ]
        elif variant == 3:  # TRV102: empty dict
            tail = [
                f"    conv.state.last_{d.entity} = {param}",
                f"    {d.service}.touch({param})",
                "    return {}",
            ]
        elif variant == 4:  # TRV105: unknown key
            tail = [
                f'    summary = f"{{{d.entity}.{f1}}} / {{{d.entity}.{f2}}}"',
                '    return {"utterance": "Here is what I found.", "message": summary}',
            ]
        elif variant == 5:  # correct: navigation then empty dict
            flow = rng.choice(FLOWS)
            tail = [
                f"    if not {d.entity}.{f1}:",
                f'        conv.goto_flow("{flow}")',
                "        return {}",
                f'    conv.say(f"Your {d.entity} is {{{d.entity}.{f2}}}.")',
                '    return {"content": "The caller has been told the status."}',
            ]
        elif variant == 6:  # TRV104: handoff without utterance
            tail = [
                f'    if {d.entity}.{f1} in ("disputed", "escalated"):',
                f'        conv.state.handoff_reason = "{d.area.upper()}_ESCALATION"',
                f'        return {{"handoff": {{"type": "{d.agent.upper()}_DESK", '
                '"reason": "escalated"}}',
                f'    return {{"utterance": f"All good with {{{param}}}.", '
                f'"content": str({d.entity}.{f2})}}',
            ]
        elif variant == 7:  # correct: try/except with json content
            tail = [
                "    try:",
                f"        details = {d.service}.details({param})",
                "    except Exception:",
                f'        logger.exception("details failed for %s", {param})',
                '        return "Sorry, that system is not answering right now."',
                f'    return {{"content": json.dumps({{"{f1}": details.{f1}, '
                f'"{f2}": details.{f2}}})}}',
            ]
        else:  # TRV106: wrong value type
            tail = [
                f"    conv.state.{d.entity} = {param}",
                '    return {"utterance": "One moment.", "listen": "'
                + rng.choice(("yes", "later"))
                + '"}',
            ]
        return [*head, *lookup, *tail]

    def browser_action(self) -> list[str]:
        d, rng = self.d, self.rng
        name = self.names.make(self.verb(), d.entity, rng.choice(("page", "web", "site", "")))
        f1, f2 = rng.sample(d.fields, 2)
        is_async = rng.random() < 0.7
        defn = "async def" if is_async else "def"
        aw = "await " if is_async else ""
        selector = rng.choice((f".{d.entity}-row", f"#{d.area}-table tr", f"[data-{f1}]"))
        head = [f'@tools.action("{self.sentence()} on the {d.area} portal")']
        variant = rng.randrange(10)
        if variant == 9:  # TRV209
            head.append(f"{defn} {name}({d.key}: str, **options):")
        else:
            head.append(f"{defn} {name}({d.key}: str, browser_session):")
        if variant == 9:
            body = [
                f"    rows = {d.service}.search({d.key}, **options)",
                "    return json.dumps([row.title for row in rows])",
            ]
            return head + body
        body = [
            f"    page = {aw}browser_session.must_get_current_page()",
            f'    rows = {aw}page.get_elements_by_css_selector("{selector}")',
        ]
        if variant == 0:  # TRV201 int
            body += ["    if not rows:", "        return 0", "    return len(rows)"]
        elif variant == 1:  # TRV201 dict
            body += [f'    return {{"{d.key}": {d.key}, "{f1}": len(rows)}}']
        elif variant == 2:  # TRV202
            body += [
                "    if not rows:",
                f'        return ActionResult(error="No {d.entity} rows on the page")',
                '    return ActionResult(success=True, extracted_content="Found the rows")',
            ]
        elif variant == 3:  # TRV203
            body += [f'    return ActionResult(f"{{len(rows)}} {d.entity} rows")']
        elif variant == 4:  # TRV204
            body += [f'    return ActionResult(content=f"{f1} for {{{d.key}}} is visible")']
        elif variant == 5:  # TRV205
            body += ["    return ActionResult(extracted_content=len(rows), include_in_memory=True)"]
        elif variant == 6:  # TRV207
            body += [
                "    if not rows:",
                f'        return ActionResult(error="{d.entity} not found", is_done=True)',
                '    return ActionResult(extracted_content="ok")',
            ]
        elif variant == 7:  # correct, json content + memory
            body += [
                "    texts = []",
                "    for row in rows:",
                f"        texts.append({aw}row.inner_text())",
                "    return ActionResult(",
                f'        extracted_content=json.dumps({{"{f1}": texts[:5], "{d.key}": {d.key}}}),',
                f'        long_term_memory=f"Read {{len(texts)}} {d.entity} rows",',
                "    )",
            ]
        else:  # correct, a str
            body += [
                "    if not rows:",
                f'        return f"No {d.entity} matching {{{d.key}}}"',
                f'    return f"{{len(rows)}} rows; first {f2}: {{{aw}rows[0].inner_text()}}"',
            ]
        return head + body

    def agent_tool(self) -> tuple[str, list[str]]:
        d, rng = self.d, self.rng
        name = self.names.make(self.verb(), d.entity, self.field())
        f1, f2 = rng.sample(d.fields, 2)
        deco = rng.choice(
            (
                "@function_tool",
                f'@function_tool(name_override="{name}_tool")',
                "@function_tool(strict_mode=False)",
            )
        )
        is_async = rng.random() < 0.4
        defn = "async def" if is_async else "def"
        ctx = rng.random() < 0.5
        params = f"ctx: RunContextWrapper[dict], {d.key}: str" if ctx else f"{d.key}: str"
        variant = rng.randrange(6)
        ret = (" -> str", " -> dict", " -> int", "", " -> str", " -> list[str]")[variant]
        lines = [
            deco,
            f"{defn} {name}({params}){ret}:",
            f'    """{self.sentence()}.',
            "",
            "    Args:",
            f"        {d.key}: the {d.entity}'s identifier.",
            '    """',
        ]
        if ctx:
            lines.append(f'    ctx.context["last_{d.entity}"] = {d.key}')
        lines.append(f"    record = {d.service}.get({d.key})")
        if variant in (0, 4):
            lines += [
                "    if record is None:",
                f'        return "No such {d.entity}."',
                f'    return f"{f1}={{record.{f1}}}, {f2}={{record.{f2}}}"',
            ]
        elif variant == 1:
            lines += [f'    return {{"{f1}": record.{f1}, "{f2}": record.{f2}, "found": True}}']
        elif variant == 2:
            lines += [f"    return len(record.{f1} or [])"]
        elif variant == 3:
            lines += [
                "    if record is None:",
                "        return None",
                f"    return {self.record_class}({d.key}={d.key}, {f1}=record.{f1})",
            ]
        else:
            lines += [f"    return [str(x) for x in record.{f1}]"]
        return name, lines

    def behaviour(self) -> tuple[str, list[str]]:
        d, rng = self.d, self.rng
        name = self.names.make("stop_after", d.entity, self.field())
        target = self.agent_tools[0][0] if self.agent_tools else d.entity
        variant = rng.randrange(4)
        lines = [
            f"def {name}(context: RunContextWrapper, results: list[FunctionToolResult])"
            " -> ToolsToFinalOutputResult:",
            "    for result in results:",
            f'        if result.tool.name == "{target}" and result.output:',
        ]
        if variant == 0:
            lines += [
                "            return ToolsToFinalOutputResult(is_final_output=True, "
                "final_output=result.output)",
                "    return ToolsToFinalOutputResult(is_final_output=False, final_output=None)",
            ]
        elif variant == 1:
            lines += [
                '            return {"is_final_output": True, "final_output": result.output}',
                "    return ToolsToFinalOutputResult(is_final_output=False)",
            ]
        elif variant == 2:
            lines += ["            return True", "    return False"]
        else:
            lines += [
                f'            logger.info("final output from %s", "{target}")',
                "            return ToolsToFinalOutputResult(True, result.output)",
                "    return ToolsToFinalOutputResult(is_final_output=False, final_output=None)",
            ]
        return name, lines

    def chat_tool(self) -> tuple[str, str, str, list[str]]:
        d, rng = self.d, self.rng
        name = self.names.make(self.verb(), d.entity, rng.choice(("info", "details", "")))
        f1, f2 = rng.sample(d.fields, 2)
        description = self.sentence()
        variant = rng.randrange(4)
        lines = [f"def {name}({d.key}: str) -> {('str', 'dict', 'str', 'int')[variant]}:"]
        lines.append(f"    record = {d.service}.get({d.key})")
        if variant == 0:
            lines += [
                "    if record is None:",
                f'        return json.dumps({{"error": "unknown {d.entity}"}})',
                f'    return json.dumps({{"{f1}": record.{f1}, "{f2}": record.{f2}}})',
            ]
        elif variant == 1:
            lines += [f'    return {{"{f1}": record.{f1}, "{f2}": record.{f2}}}']
        elif variant == 2:
            lines += [f'    return f"{d.entity} {{{d.key}}}: {{record.{f1}}}"']
        else:
            lines += ["    if record is None:", "        return 0", f"    return record.{f1}_count"]
        return name, d.key, description, lines

    def chat_section(self) -> list[str]:
        d = self.d
        schema = ["TOOLS = ["]
        for name, param, description, _ in self.chat_tools:
            schema += [
                "    {",
                '        "type": "function",',
                '        "function": {',
                f'            "name": "{name}",',
                f'            "description": "{description}.",',
                '            "parameters": {',
                '                "type": "object",',
                f'                "properties": {{"{param}": {{"type": "string"}}}},',
                f'                "required": ["{param}"],',
                "            },",
                "        },",
                "    },",
            ]
        schema.append("]")
        registry = ["REGISTRY = {", *[f'    "{n}": {n},' for n, *_ in self.chat_tools], "}"]
        loop_name, content, rounds, model, mutable_default = self.loop_params
        # Some loops carry a mutable default (flake8-bugbear's B006), as real code does.
        history = (
            "history: list[dict] = []" if mutable_default else "history: list[dict] | None = None"
        )
        loop = [
            f"def {loop_name}(question: str, {history}) -> str:",
            f'    messages = [{{"role": "system", "content": "You are the {d.agent} assistant."}}]',
            "    messages += history or []",
            '    messages.append({"role": "user", "content": question})',
            f"    for _ in range({rounds}):",
            "        response = client.chat.completions.create(",
            f'            model="{model}", messages=messages, tools=TOOLS',
            "        )",
            "        message = response.choices[0].message",
            "        if not message.tool_calls:",
            '            return message.content or ""',
            "        messages.append(message)",
            "        for tool_call in response.choices[0].message.tool_calls:",
            "            function = REGISTRY.get(tool_call.function.name)",
            "            if function is None:",
            '                result = {"error": f"unknown tool {tool_call.function.name}"}',
            "            else:",
            "                arguments = json.loads(tool_call.function.arguments or '{}')",
            "                result = function(**arguments)",
            "            messages.append(",
            '                {"role": "tool", "tool_call_id": tool_call.id, '
            f'"content": {content}}}',
            "            )",
            '    return "I could not finish that request."',
        ]
        return [*schema, "", "", *registry, "", "", *loop]

    def responses_section(self) -> list[str]:
        """A Responses API loop over the same tools: the flat schema made from ``TOOLS``,
        the whole output sent back, each call answered (now and then with the item's
        ``id`` instead of its ``call_id``, or an unserialised result)."""
        if self.responses_params is None:
            return []
        loop_name, content, call_id = self.responses_params
        _, _, rounds, model, _ = self.loop_params
        return [
            'RESPONSES_TOOLS = [{"type": "function", **tool["function"]} for tool in TOOLS]',
            "",
            "",
            f"def {loop_name}(question: str) -> str:",
            '    input_items: list = [{"role": "user", "content": question}]',
            f"    for _ in range({rounds}):",
            "        response = client.responses.create(",
            f'            model="{model}", input=input_items, tools=RESPONSES_TOOLS',
            "        )",
            '        calls = [item for item in response.output if item.type == "function_call"]',
            "        if not calls:",
            "            return response.output_text",
            "        input_items += response.output",
            "        for call in calls:",
            "            function = REGISTRY.get(call.name)",
            "            if function is None:",
            '                result = {"error": f"unknown tool {call.name}"}',
            "            else:",
            "                result = function(**json.loads(call.arguments or '{}'))",
            "            input_items.append(",
            f'                {{"type": "function_call_output", "call_id": call.{call_id}, '
            f'"output": {content}}}',
            "            )",
            '    return "I could not finish that request."',
        ]

    def gemini_section(self) -> list[str]:
        """A google-genai manual loop over the same registry: the model's turn appended,
        every call answered (now and then with the tool's bare result, TRG001)."""
        if self.gemini_params is None:
            return []
        loop_name, response = self.gemini_params
        _, _, rounds, _, _ = self.loop_params
        return [
            "gemini = genai.Client()",
            "GEMINI_CONFIG = types.GenerateContentConfig(",
            "    tools=[types.Tool(function_declarations=[",
            '        types.FunctionDeclaration(name=t["function"]["name"]) for t in TOOLS',
            "    ])],",
            "    automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),",
            ")",
            "",
            "",
            f"def {loop_name}(question: str) -> str:",
            "    prompt = types.Part.from_text(text=question)",
            '    contents: list = [types.Content(role="user", parts=[prompt])]',
            f"    for _ in range({rounds}):",
            "        response = gemini.models.generate_content(",
            '            model="gemini-2.5-flash", contents=contents, config=GEMINI_CONFIG',
            "        )",
            "        if not response.function_calls:",
            '            return response.text or ""',
            "        contents.append(response.candidates[0].content)",
            "        parts = []",
            "        for call in response.function_calls:",
            "            result = str(REGISTRY[call.name](**(call.args or {})))",
            "            parts.append(",
            "                types.Part.from_function_response(",
            f"                    name=call.name, response={response}",
            "                )",
            "            )",
            '        contents.append(types.Content(role="user", parts=parts))',
            '    return "I could not finish that request."',
        ]

    def bedrock_section(self) -> list[str]:
        """A Bedrock Converse loop over the same registry: the assistant message appended,
        every ``toolUse`` block answered (now and then with a bare string, TRB001)."""
        if self.bedrock_params is None:
            return []
        loop_name, content = self.bedrock_params
        _, _, rounds, _, _ = self.loop_params
        return [
            'bedrock = boto3.client("bedrock-runtime", region_name="us-east-1")',
            "TOOL_CONFIG = {",
            '    "tools": [',
            '        {"toolSpec": {"name": t["function"]["name"], "inputSchema": {"json": {}}}}',
            "        for t in TOOLS",
            "    ]",
            "}",
            "",
            "",
            f"def {loop_name}(question: str) -> str:",
            '    messages = [{"role": "user", "content": [{"text": question}]}]',
            f"    for _ in range({rounds}):",
            "        response = bedrock.converse(",
            '            modelId="anthropic.claude-3-5-sonnet-20240620-v1:0",',
            "            messages=messages,",
            "            toolConfig=TOOL_CONFIG,",
            "        )",
            '        message = response["output"]["message"]',
            "        messages.append(message)",
            '        if response["stopReason"] != "tool_use":',
            '            return "".join(b.get("text", "") for b in message["content"])',
            "        results = []",
            '        for block in message["content"]:',
            '            if "toolUse" in block:',
            '                use = block["toolUse"]',
            '                result = str(REGISTRY[use["name"]](**use["input"]))',
            '                answer = {"toolUseId": use["toolUseId"], "content": ' + content + "}",
            '                results.append({"toolResult": answer})',
            '        messages.append({"role": "user", "content": results})',
            '    return "I could not finish that request."',
        ]

    def record_dataclass(self) -> list[str]:
        d = self.d
        f1 = self.rng.choice(d.fields)
        return [
            "@dataclass",
            f"class {self.record_class}:",
            f"    {d.key}: str",
            f"    {f1}: object = None",
            "",
            "    def describe(self) -> str:",
            f'        return f"{d.entity} {{self.{d.key}}}: {{self.{f1}}}"',
        ]

    # -- assembly ------------------------------------------------------------------------
    def render(self, target_lines: int) -> str:
        """The file's text: the required blocks, then more tools until ~``target_lines``."""
        rng = self.rng
        self.poly = self.polyai_function()
        self.helper()
        self.actions.append(self.browser_action())
        self.agent_tools.append(self.agent_tool())
        self.chat_tools.append(self.chat_tool())
        self.behaviour_name, self.behaviour_lines = self.behaviour()
        self.loop_params = (
            self.names.make("run", self.d.area, "assistant"),
            rng.choice(("json.dumps(result)", "result", "str(result)")),
            rng.randint(3, 8),
            rng.choice(MODELS),
            rng.random() < 0.3,
        )
        if rng.random() < 0.5:
            self.responses_params = (
                self.names.make("respond", self.d.area),
                rng.choice(("json.dumps(result)", "str(result)", "json.dumps(result)", "result")),
                rng.choice(("call_id", "call_id", "call_id", "id")),
            )
        if rng.random() < 0.3:
            self.gemini_params = (
                self.names.make("gemini", self.d.area),
                rng.choice(('{"result": result}', '{"result": result}', "result")),
            )
        if rng.random() < 0.25:
            self.bedrock_params = (
                self.names.make("converse", self.d.area),
                rng.choice(('[{"text": result}]', '[{"text": result}]', "result")),
            )
        adders = (
            lambda: self.actions.append(self.browser_action()),
            lambda: self.agent_tools.append(self.agent_tool()),
            lambda: self.chat_tools.append(self.chat_tool()),
            self.helper,
        )
        text = self._assemble()
        while True:
            rng.choice(adders)()
            candidate = self._assemble()
            if candidate.count("\n") > target_lines:
                return text
            text = candidate

    def _assemble(self) -> str:
        d = self.d
        header = [
            f'"""{d.agent} tools: PolyAI function `{self.stem}`, browser-use actions,',
            f'Agents SDK tools and a Chat Completions loop for the {d.area} domain."""',
            "",
            "from __future__ import annotations",
            "",
            "import json",
            "import logging",
            "from dataclasses import dataclass",
            "",
        ]
        if self.star_header:
            header += ["from _gen import *  # <AUTO GENERATED>", ""]
        header += [
            "from agents import (",
            "    Agent,",
            "    FunctionToolResult,",
            "    RunContextWrapper,",
            "    ToolsToFinalOutputResult,",
            "    function_tool,",
            ")",
            "from browser_use import ActionResult, Tools",
            "from openai import OpenAI",
            *(["import boto3"] if self.bedrock_params else []),
            *(
                ["from google import genai", "from google.genai import types"]
                if self.gemini_params
                else []
            ),
            "",
            f"from services import {d.service}",
            "",
            "logger = logging.getLogger(__name__)",
            "tools = Tools()",
            "client = OpenAI()",
        ]
        agent_var = f"{d.area}_agent"
        agent = [
            f"{agent_var} = Agent(",
            f'    name="{d.agent} agent",',
            f'    instructions="Help the user with their {d.entity}. Use the tools.",',
            f"    tools=[{', '.join(n for n, _ in self.agent_tools)}],",
            f"    tool_use_behavior={self.behaviour_name},",
            ")",
        ]
        blocks: list[list[str]] = [
            header,
            self.record_dataclass(),
            *self.helpers,
            self.poly,
            *self.actions,
            *(lines for _, lines in self.agent_tools),
            self.behaviour_lines,
            agent,
            *(lines for *_, lines in self.chat_tools),
            self.chat_section(),
        ]
        if self.responses_params is not None:
            blocks.append(self.responses_section())
        if self.gemini_params is not None:
            blocks.append(self.gemini_section())
        if self.bedrock_params is not None:
            blocks.append(self.bedrock_section())
        out: list[str] = []
        for i, block in enumerate(blocks):
            if i:
                out += ["", ""]
            out += block
        return "\n".join(out) + "\n"


def generate_tool_corpus(dest: Path, target_lines: int, seed: int = 20240) -> CorpusInfo:
    """Write a deterministic tool-heavy tree of PolyAI-layout files under ``dest``.

    Every file is ``<package>/functions/<stem>.py`` (or a flow's ``functions`` /
    ``function_steps`` folder) defining ``def <stem>(conv, ...)`` plus browser-use
    actions, Agents SDK function tools with a ``tool_use_behavior`` function, a
    Chat Completions tool loop, in half of them a Responses API loop over the same
    tools, in about a third a google-genai loop and in a quarter a Bedrock Converse
    loop; about a third of the return sites
    are wrong.
    """
    rng = random.Random(seed)
    stems: set[str] = set()
    files = lines = 0
    while lines < target_lines:
        domain = rng.choice(DOMAINS)
        package = f"{domain.area}_agent"
        where = rng.random()
        if where < 0.6:
            folder = dest / package / "functions"
        else:
            flow = rng.choice(FLOWS)
            sub = "functions" if where < 0.85 else "function_steps"
            folder = dest / package / "flows" / flow / sub
        stem = Names(rng, stems).make(rng.choice(VERBS), domain.entity, rng.choice(domain.fields))
        builder = FileBuilder(rng, domain, stem, star_header=rng.random() < 0.5)
        text = builder.render(rng.randint(170, 400))
        ast.parse(text)  # the generator must only write valid Python
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{stem}.py").write_text(text, encoding="utf-8")
        files += 1
        lines += text.count("\n")
    return CorpusInfo(
        "tools",
        dest,
        files,
        lines,
        f"generated (seed {seed}): every file has PolyAI, browser-use, Agents SDK "
        "and Chat Completions tool code, half of them a Responses API loop, a third a "
        "google-genai loop, a quarter a Bedrock Converse loop",
    )


def remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
