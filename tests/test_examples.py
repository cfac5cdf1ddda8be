"""The bundled example projects report exactly what their ``# expect:`` comments say.

Every wrong line in ``examples/`` carries ``# expect: TRV101[, TRV103]`` on the
line where the diagnostic starts; correct code carries none. The CLI and the
flake8 plugin must both report exactly that set — except expectations marked
``(project)`` (``# expect: TRV305 (project)``): they need a fact from another
file (the ``Agent(...)`` in ``main.py`` that uses a behaviour function of
``behaviors.py``), which only ``toolret check``'s whole-project mode has;
flake8 checks one file at a time and must not report them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EXPECT = re.compile(
    r"#\s*expect:\s*(TR[A-Z]\d{3}(?:\s*\(project\))?(?:\s*,\s*TR[A-Z]\d{3}(?:\s*\(project\))?)*)"
)
Finding = tuple[str, int, str]


def expected(directory: Path, prefix: str, *, project: bool = True) -> set[Finding]:
    """The expectations; ``project=False`` leaves out those marked ``(project)``."""
    found: set[Finding] = set()
    for file in sorted(directory.rglob("*.py")):
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                for item in match.group(1).split(","):
                    code, _, marker = item.strip().partition(" ")
                    if marker.strip() == "(project)" and not project:
                        continue
                    if code.startswith(prefix):
                        found.add((str(file.relative_to(ROOT)), number, code))
    return found


def toolret_findings(directory: Path, select: str) -> set[Finding]:
    result = subprocess.run(
        [sys.executable, "-m", "lint_rules", "check", str(directory.relative_to(ROOT)),
         "--select", select, "--output-format", "json", "--no-cache"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    return {
        (str(Path(d["filename"]).relative_to(ROOT)), d["location"]["row"], d["code"])
        for d in json.loads(result.stdout)
    }


def flake8_findings(directory: Path, select: str) -> set[Finding]:
    result = subprocess.run(
        [sys.executable, "-m", "flake8", "--select", select, "--format",
         "%(path)s|%(row)d|%(code)s", str(directory.relative_to(ROOT))],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    findings = set()
    for line in result.stdout.splitlines():
        path, row, code = line.split("|")
        findings.add((str(Path(path)), int(row), code))
    return findings


@pytest.mark.parametrize(
    ("example", "prefix", "count"),
    [
        ("polyai", "TRV1", 8),
        ("browser_use", "TRV2", 9),
        ("openai_agents", "TRV3", 12),
        ("openai_chat", "TRV4", 9),
        ("anthropic", "TRV5", 8),
        ("mcp", "TRV6", 7),
        ("langchain", "TRV7", 6),
        ("pydantic_ai", "TRV8", 3),
        ("openai_agents", "TRV9", 2),
        ("openai_responses", "TRR0", 7),
        ("google_genai", "TRG0", 4),
        ("google_genai", "TRG1", 1),
        ("bedrock", "TRB0", 8),
        ("bedrock", "TRB1", 2),
        ("claude_agent_sdk", "TRC0", 6),
    ],
)
def test_toolret_reports_exactly_the_expected_findings(
    example: str, prefix: str, count: int
) -> None:
    directory = EXAMPLES / example
    want = expected(directory, prefix)
    assert {code for _, _, code in want} >= {f"{prefix}{n:02d}" for n in range(1, count + 1)}
    assert toolret_findings(directory, prefix) == want


@pytest.mark.parametrize(
    ("example", "prefix"),
    [
        ("polyai", "TRV1"),
        ("browser_use", "TRV2"),
        ("openai_agents", "TRV3"),
        ("openai_chat", "TRV4"),
        ("anthropic", "TRV5"),
        ("mcp", "TRV6"),
        ("langchain", "TRV7"),
        ("pydantic_ai", "TRV8"),
        ("openai_agents", "TRV9"),
        ("openai_responses", "TRR"),
        ("google_genai", "TRG"),
        ("bedrock", "TRB"),
        ("claude_agent_sdk", "TRC"),
    ],
)
def test_flake8_reports_the_same_set(example: str, prefix: str) -> None:
    directory = EXAMPLES / example
    assert flake8_findings(directory, prefix) == expected(directory, prefix, project=False)


def test_flake8_default_selection_hides_info_rules() -> None:
    plain = subprocess.run(
        [sys.executable, "-m", "flake8", str((EXAMPLES / "polyai").relative_to(ROOT))],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "TRV101" in plain.stdout and "TRV107" not in plain.stdout
