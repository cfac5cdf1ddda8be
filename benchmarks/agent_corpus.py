"""The real-agent corpus: a pinned list of public repositories' tool code, materialised here.

Usage: python benchmarks/agent_corpus.py DEST [--mirrors DIR]

Tutorials, SDK examples, samples and servers for every family toolret knows (Chat
Completions, Responses, Anthropic, MCP, Gemini, Bedrock / Strands, the Claude Agent SDK,
the Agents SDK, LangChain, browser-use), split over many modules, each pinned to one
commit. Nothing is vendored: each repository's ``.py`` files, notebooks and configuration
files (``pyproject.toml``, ``ruff.toml``, …: they set its target version) at its commit
are written under ``DEST/<owner>+<name>/``, from a local bare mirror when
``--mirrors`` holds one (``DIR/<owner>+<name>/repo`` or ``DIR/<owner>+<name>.git``),
else by fetching that one commit from GitHub (``git`` and network needed). A repository
that cannot be had is named on stderr and skipped: the corpus is then smaller, and the
benchmark's table says how many files it measured.

The list was chosen by size (8 to 300 ``.py`` files each, so that no single project
dominates) among the repositories the rule families were measured on.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from corpora import CorpusInfo, count_lines

PINNED: tuple[tuple[str, str], ...] = (
    ("Azure-Samples/python-openai-demos", "5c136e2dd46e13b847d55343c63ccaa7323b0509"),
    ("BFavier/aws-tools", "356cd05913b03ec0a8a3c511de4d3f87aadf4b4a"),
    ("DataTalksClub/llm-zoomcamp", "c85fa440791efd6c902f7f30ccedaae4483e3f9e"),
    ("Discovita/identity-generator", "20408017b47a826152fb359b02736979ec343775"),
    ("Discovita/testing-grounds", "e4668756a47e57d0e0143b89cbd1d82013a3ddf4"),
    ("GWSzeto/claude-agent-sdk-python-demos", "c07b7df72dca8b2a97e556457ccb671dd24bc8ba"),
    (
        "Harsha24798/BA-Web-Agent---React-FastAPI-Claude-Agent-SDK",
        "ab1cc469dab04c0b62e6ea55d6868d2033bca08b",
    ),
    ("HugoShaw/hermes_bedrock_agent", "0eefe069dca1667b64b10be5f1ee012c4eddc25b"),
    ("JasonZHS/gemini-practice", "ee725ca8d53028d85e7beab6fc75d3ab8008174d"),
    ("Jawad-hussain-kalwar/Shoptalk-mockbot", "3be4da4d1ec63738fa989365c15fa9c6c047656b"),
    ("MUHAMMEDRIZALKE/CBPA", "d56bcd574391721926863952db2519cb256358ea"),
    ("MichaelDik/StravaAgent2", "258cce1b531879236d792878c698e080061e945b"),
    ("NaufalSyakibb/CassanovaL-AI-Assistant", "3b4a7ba95556f3dae648805ddf9d44a3cb5262e1"),
    ("Okeysir198/P20260105-claude-agent-sdk", "d52e0a30d8ea7cbeb87d956562e150664a0b4afe"),
    ("ParsaShemirani/dastyaar", "74e57d8a1dce78f63ea07d7e690398a52b58999b"),
    (
        "Promptly-Technologies-LLC/openai-responses-python-quickstart",
        "77431c0edc8f514f8d15dd8a4b4425c5e4d24ca4",
    ),
    ("Rahuwale123/parbhani", "40a9eed7d020b7f2a0aaf0271d56b275e3601825"),
    ("StudioTenwu/PokeCraft", "ea0c8de9e05d63431e0f878d9627d493abf6b425"),
    ("SyedBurhan771/Claude-Agents", "a75f17853d10d8b31b9bace2ce8362ca7033f4fc"),
    ("TTTV273/Build_an_AI_Agent", "8b58cc04183812260149d1952987d14792cec432"),
    ("TerraCo89/Cernji-Agents", "440c0d9fe6bc435410ba283026f7286633413ff8"),
    ("Vinooj/astra", "587c6a07595da14dae7b70f81ddb23efdffe0b85"),
    ("William-SS-NZ/claude-agent-sdk-playground", "1a4300c0f2839b3b9a88797f96f8d81fc10fd7f2"),
    ("aaronwalker/strands-agents-demos", "34d20ed121add7d15d2f5f79de793d68aee5b039"),
    ("akilab/claude-agent-sdk-hands-on", "47ded90f99b4b48ac4a02309d21e5ff405d18364"),
    ("alexeygrigorev/toyaikit", "b4fa0fc368d8fd4dfb29dcca27afe188adf10709"),
    ("anshumanbh/securevibes", "9525df2d3a543cf09aa812fb9af56bb558462489"),
    ("anthropics/claude-agent-sdk-demos", "bd3afda1a0309574c9da0352c231f4c23899cdbd"),
    ("anthropics/claude-agent-sdk-python", "e8bde60164f9ef820068ec36ffe6b7be6bd8fd26"),
    ("anthropics/claude-cookbooks", "4b36a1e1f64361397f4cbe4fbc7cdace338f16f8"),
    ("anthropics/claude-quickstarts", "370e18d4a20ff5fd4bc1a6bf11d5105b2383977c"),
    ("austinmw/Bedrock-Toolkit", "43ba8b5df930a337832e50235d20902b75724a94"),
    ("aws-samples/bedrock-access-gateway", "95794585db942cf7ce9660f71edefe63ce6c9910"),
    ("aws-samples/bedrock-chat", "a739a6c0eff5d5048772165a3d9d5ee820a7865d"),
    ("aws-samples/serverless-rag-demo", "bf8477ed001ea100f953a5b47421b4f794414029"),
    ("awslabs/agent-squad", "8048bcf308fcc5f5768a9c2d4c3f139b0e81f4e6"),
    ("awslabs/amazon-bedrock-agentcore-samples", "8d214a6cdccb17ced72c039c5e0b8c73fdb1abf0"),
    ("bytedance/trae-agent", "e839e559ac61bdd0e057c375dd1dee391fee797d"),
    ("gabrielbriones/auto-bedrock-chat-fastapi", "cc03604f86df5cc9752e819a104f05b25421265a"),
    ("google/genai-processors", "d3e4e9e3a214ff34de4ef1fcc362668dea9e6e1a"),
    ("google/virtual-broadcast-production-assistant", "0ee1a12df05ffa3a3f06f2f8146ceb083692b61b"),
    ("google-gemini/computer-use-preview", "c93bb2d88b3d19d4170eb0c93817bdf1db843f80"),
    ("google-gemini/cookbook", "f1e7e3de6004e6ca604b174684ecf89d628ac6c4"),
    ("jaafar-ziab/weather-chatbot-backend", "ce757d4a87091262eb6bfed5e6a880258bb8ad10"),
    ("jamesward/Sample-Model-Context-Protocol-Demos", "6ad74e5c159b3b072da840791efe4a078e9cf3c5"),
    ("jianshaow/chatbot-demo", "b39e5323f794c0db4debe6577e45c787bcc0836b"),
    ("joy-void-joy/lup", "c06e807d8fcbddf8e3e955c66a6cf094aa2aa6a5"),
    ("keepprogress/springmvc-agent-analyzer", "fe4975a0ee1ad1af60f8ff7fc59e92a0a6b0d7a4"),
    ("khoj-ai/khoj", "ae229ca894c0b80ad84664afcfdde523b5e87057"),
    ("kyopark2014/strands-agent", "5b4e6e4b69b3593eab9e0dfa58dfe2375bcfcd1c"),
    ("langchain-ai/langchain-google", "75f75815e0fdb8b719a1cb576184cc4833a68a16"),
    ("lanyuer/lite-agent", "b3eace4cc164f30155a53f82e692f79666060f32"),
    ("llamastack/llama-stack-client-python", "b9c5ef86a79f188b50e62cc2b8dcef35c588d6cc"),
    ("lukacf/mcp-the-force", "1ca36bf7ea76986fd99380eef9307a5610d976cd"),
    ("madtank/ToolboxAI", "9c9fd7769e408d3bca197621714b17e522bcdb48"),
    ("matdac12/whatsapp_test01", "c2428f0cc53d40426f0e7c400011fdd686f0823c"),
    ("minsley/lobmob", "26175683a7ee665c1cca9b7051bb2027542e10ac"),
    (
        "mongodb-partners/Multi-Agent-Architectural-Guidance-Bedrock-AgentCore",
        "6f2554cc35027fcfa3bc7e727ed3339acbd9f327",
    ),
    ("mrtsvr-techloop/CRM_AI_MODULE", "4c57d403e9612c01473ea0895b259be2caf1650f"),
    ("mtmtnao-handson/claude-agent-sdk-handon", "8018d40a4aa89ecb8b2d709b4414b86997c0a9b2"),
    ("omnislash157/Enterprise_bot", "14753754ebece9e58319714fd9837898b5d457cc"),
    ("openai/gpt-oss", "7b583341fe16729127f6d5b94a7b09ccae97e1a1"),
    ("philschmid/gemini-samples", "0adfcc3c1d281937445ae17756a0a54eead1ca68"),
    ("ren8k/aws-bedrock-converse-app-use-tools", "3d36c2c6a160fea455bf9c4b73ebc275543bf059"),
    ("ryayoung/toolcall", "43d42cc06e85536cbf9c5b8ab34cbb30ea449ac0"),
    ("ryuk2098/claude-agent-sdk-implementation", "3a9812d9b033b945a402a89954d1b5a3e28ee17e"),
    ("satishk01/aws-strands-agent", "37bd9664a67f5faaf88556ecdc342b38184e89fa"),
    ("seekbot-ai/agent-todo-list-example", "3856cf24da68ed7317bc348ac9c17c5ae93639b3"),
    ("seziCZ/bedrock-mcp-agent", "158166295e8bbaf0b0a36d029c636545764d8051"),
    ("shyam-menon/AWS_AIEngineering", "3aff3b0e24f8b939eae368c964d3d588667e91c8"),
    ("simonw/llm", "f3f4f29c6e5e623c3776cbf6455dda2345638214"),
    ("sjehrick/ai_agent", "b0b4bb615179503d8910f03dc0ab0d6a4a50bbb9"),
    ("strands-agents/samples", "d07254ac4a4e42472777d53c48596f46fd864b5e"),
    ("strands-agents/tools", "bddfd3aac2bf1f43022d54019ca38a19306aa279"),
    ("vamsee9201/claude-agent-sdk-cloud-sessions", "4ebb949bc2772b1bb150d94c24f733c3b088ad59"),
    ("vishwak1002/WorkflowAndAgenticPatterns", "507796eaa197ad509fadbe32f7503bea3d3743cf"),
    ("xiaolai/claude-agent-sdk-skill-autoupdated", "26fc329bf4a2a1b6645a97de615983890a5f87b4"),
    ("yasui1992/mcp-bedrock-app", "ba8d80c131b8a2da1053845edc1a892ffb4b922b"),
    ("yurashapovalov/trading-agent", "eda13f07fba2f9a50235c79c984a92779786e98a"),
)
"""``(owner/name, commit)`` of each repository."""

_KEPT = (".py", ".ipynb")
_CONFIGS = frozenset(
    {"pyproject.toml", "setup.cfg", "ruff.toml", ".ruff.toml", "toolret.toml", ".toolret.toml"}
)
"""Kept too: a project's configuration sets its target version and selection."""


def _files(git_dir: Path, commit: str) -> list[tuple[str, bytes]] | None:
    """The ``.py``, notebook and configuration files of ``commit`` (a snapshot's absent
    blobs skipped)."""
    listed = subprocess.run(
        ["git", f"--git-dir={git_dir}", "ls-tree", "-r", "-z", commit],
        capture_output=True,
        check=False,
    )
    if listed.returncode != 0:
        return None
    wanted: list[tuple[str, str]] = []
    for entry in listed.stdout.decode("utf-8", "surrogateescape").split("\0"):
        meta, _, path = entry.partition("\t")
        parts = meta.split()
        kept = path.endswith(_KEPT) or path.rsplit("/", 1)[-1] in _CONFIGS
        if len(parts) == 3 and parts[1] == "blob" and kept:
            wanted.append((parts[2], path))
    batch = subprocess.run(
        ["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
        input="".join(f"{sha}\n" for sha, _ in wanted).encode(),
        capture_output=True,
        check=False,
    )
    out, at, found = batch.stdout, 0, []
    for _, path in wanted:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if len(header) != 3:  # "<sha> missing"
            continue
        size = int(header[2])
        found.append((path, out[at : at + size]))
        at += size + 1
    return found


def _fetched(repo: str, commit: str) -> list[tuple[str, bytes]] | None:
    """The commit's files, fetched alone from GitHub into a temporary bare repository."""
    with tempfile.TemporaryDirectory() as tmp:
        git_dir = Path(tmp) / "repo.git"
        steps = (
            ["git", "init", "--quiet", "--bare", str(git_dir)],
            [
                "git",
                f"--git-dir={git_dir}",
                "fetch",
                "--quiet",
                "--depth=1",
                f"https://github.com/{repo}.git",
                commit,
            ],
        )
        for step in steps:
            if subprocess.run(step, capture_output=True, check=False).returncode != 0:
                return None
        return _files(git_dir, commit)


def _mirror(mirrors: Path | None, repo: str) -> Path | None:
    if mirrors is None:
        return None
    slug = repo.replace("/", "+")
    for candidate in (mirrors / slug / "repo", mirrors / f"{slug}.git", mirrors / slug):
        if (candidate / "HEAD").is_file():
            return candidate
    return None


def materialise(dest: Path, mirrors: Path | None = None) -> CorpusInfo:
    """Write the pinned repositories' Python files under ``dest``."""
    files = lines = repos = 0
    for repo, commit in PINNED:
        mirror = _mirror(mirrors, repo)
        found = _files(mirror, commit) if mirror is not None else None
        if found is None:
            found = _fetched(repo, commit)
        if found is None:
            print(f"agent corpus: {repo}@{commit[:10]} is not available, skipped", file=sys.stderr)
            continue
        repos += 1
        root = dest / repo.replace("/", "+")
        for path, content in found:
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
            if path.endswith(_KEPT):
                files += 1
                lines += count_lines(content)
    return CorpusInfo(
        "agents",
        dest,
        files,
        lines,
        f"real agent code: {repos} of {len(PINNED)} pinned public repositories "
        "(benchmarks/agent_corpus.py)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--mirrors", type=Path, help="a directory of local bare mirrors")
    args = parser.parse_args(argv)
    info = materialise(args.dest, args.mirrors)
    print(f"{info.files} files, {info.lines:,} lines: {info.description}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
