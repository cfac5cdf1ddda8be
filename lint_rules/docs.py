"""Rule documentation pages, generated from each rule's docstring and examples.

``toolret rule TRV101`` prints the page; ``python -m lint_rules.docs`` writes
``docs/rules/*.md`` and a test checks the checked-in pages are up to date.
The docstring carries ruff's prose sections; the Example and Use instead
sections come from the rule's first ``invalid`` and ``valid`` examples, so
the documentation shows exactly what the tests prove.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from lint_rules.model import rule_url
from lint_rules.rules import EngineRule, Example, Rule, all_rules

FRAMEWORK_TITLES = {
    "engine": "toolret itself",
    "polyai": "PolyAI Agent Studio",
    "browser_use": "browser-use",
    "openai_agents": "OpenAI Agents SDK",
    "openai_chat": "OpenAI Chat Completions tool loops",
    "anthropic": "Anthropic Messages tool loops",
    "mcp": "MCP servers",
    "langchain": "LangChain and LangGraph",
    "pydantic_ai": "Pydantic AI",
    "openai_responses": "OpenAI Responses API tool loops",
    "google_genai": "Google Gen AI SDK (Gemini) function calling",
    "bedrock": "Bedrock Converse tool loops and Strands Agents tools",
    "claude_agent_sdk": "Claude Agent SDK in-process tools",
    "any_framework": "any framework (every family's tool functions)",
}
_SECTION = re.compile(r"^## (.+)$", re.MULTILINE)
# Sections after which the generated Example / Use instead go (ruff's order).
_BEFORE_EXAMPLES = ("What it does", "Why is this bad?", "Known problems")


def rule_page(rule: type[Rule]) -> str:
    doc = rule.documentation()
    sections = _split_sections(doc)
    lines = [f"# {rule.name} ({rule.code})", ""]
    lines.append(
        f"Derived from the **{FRAMEWORK_TITLES.get(rule.framework, rule.framework)}** rules."
    )
    lines.append("")
    facts = [f"Severity: `{rule.severity.value}`."]
    if not rule.default_enabled():
        facts.append(f"Off by default: enable it with `--select {rule.code}` or `extend-select`.")
    if rule.fix_applicability is not None:
        facts.append(f"Fix is sometimes available ({rule.fix_applicability.value}).")
    lines.append(" ".join(facts))
    lines.append("")
    examples_written = False
    for title, body in sections:
        if title not in _BEFORE_EXAMPLES and not examples_written:
            lines.extend(_example_sections(rule))
            examples_written = True
        lines.extend([f"## {title}", "", body.strip(), ""])
    if not examples_written:
        lines.extend(_example_sections(rule))
    return "\n".join(lines).rstrip() + "\n"


def _split_sections(doc: str) -> list[tuple[str, str]]:
    matches = list(_SECTION.finditer(doc))
    sections = []
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(doc)
        sections.append((match.group(1).strip(), doc[match.end() : end]))
    return sections


def _example_sections(rule: type[Rule]) -> list[str]:
    if issubclass(rule, EngineRule) or not rule.invalid:
        return []
    lines = ["## Example", ""]
    lines.extend(_code_block(rule.invalid[0]))
    fixed = next((e for e in rule.invalid if e.fixed is not None), None)
    lines.extend(["## Use instead", ""])
    lines.extend(_code_block(rule.valid[0] if rule.valid else rule.invalid[0]))
    if fixed is not None:
        lines.extend(["With the fix applied:", ""])
        lines.extend(_code_block(Example(code=fixed.fixed or "", path=fixed.path)))
    return lines


def _code_block(example: Example) -> list[str]:
    lines = []
    if example.path != "example.py":
        lines.append(f"`{example.path}`:")
        lines.append("")
    lines.extend(["```python", example.code.rstrip(), "```", ""])
    return lines


def index_page() -> str:
    lines = [
        "# Rules",
        "",
        "<!-- Generated from the rules' docstrings by `python -m lint_rules.docs`; do not"
        " edit. -->",
        "",
        "Every rule, with what it flags. A rule that is off by default runs when selected"
        " (`--extend-select`, or `extend-select` in the configuration).",
        "",
        "| code | name | what it flags | framework | severity | fix | default |",
        "|---|---|---|---|---|---|---|",
    ]
    for rule in all_rules():
        fix = rule.fix_applicability.value if rule.fix_applicability else ""
        default = "on" if rule.default_enabled() else "off"
        framework = FRAMEWORK_TITLES.get(rule.framework, rule.framework)
        flags = rule.message.replace("|", "\\|")  # a pipe would end the cell
        lines.append(
            f"| [{rule.code}]({rule.code}.md) | {rule.name} | {flags} | {framework} | "
            f"{rule.severity.value} | {fix} | {default} |"
        )
    return "\n".join(lines) + "\n"


def expected_files() -> dict[str, str]:
    """Relative path under ``docs/rules/`` → content."""
    files = {f"{rule.code}.md": rule_page(rule) for rule in all_rules()}
    files["README.md"] = index_page()
    return files


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, content in expected_files().items():
        target = directory / name
        if not target.exists() or target.read_text(encoding="utf-8") != content:
            target.write_text(content, encoding="utf-8")
            written.append(target)
    return written


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/rules")
    for path in write(target):
        print(f"wrote {path}")
    return 0


__all__ = ["expected_files", "index_page", "rule_page", "rule_url", "write"]

if __name__ == "__main__":
    raise SystemExit(main())
