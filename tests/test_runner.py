"""The runner: prefilter equivalence, cache validity, parallel determinism."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from lint_rules import engine, runner
from lint_rules.cache import ResultCache
from lint_rules.config import SettingsResolver
from lint_rules.frameworks import index_facts
from lint_rules.model import Diagnostic
from lint_rules.rules import EngineRule, all_rules

ROOT = Path(__file__).resolve().parent.parent


def corpus(tmp_path: Path) -> Path:
    """The bundled examples, every rule example, and files that hold no tool at all."""
    target = tmp_path / "corpus"
    shutil.copytree(ROOT / "examples", target / "examples")
    for rule in all_rules():
        if issubclass(rule, EngineRule):
            continue
        for kind in ("invalid", "valid"):
            for index, example in enumerate(getattr(rule, kind)):
                base = target / "rules" / f"{rule.code}-{kind}-{index}"
                (base / example.path).parent.mkdir(parents=True, exist_ok=True)
                (base / example.path).write_text(example.code)
                for name, text in example.files.items():
                    (base / name).parent.mkdir(parents=True, exist_ok=True)
                    (base / name).write_text(text)
    plain = target / "plain"
    plain.mkdir()
    (plain / "broken.py").write_text("def broken(:\n")
    (plain / "app.py").write_text("def count(conv):\n    return 3\n")
    (plain / "latin.py").write_bytes(b"# coding: latin-1\nx = '\xe9'\n")
    (plain / "functions").mkdir()
    (plain / "functions" / "count.py").write_text("def count(conv):\n    return 3\n")
    return target


def findings(result: runner.RunResult) -> list[tuple[str, int, int, str, str]]:
    return [
        (d.filename, d.location.row, d.location.column, d.code, d.message)
        for d in result.diagnostics
    ]


def run(paths: list[Path], **kwargs: object) -> runner.RunResult:
    resolver = SettingsResolver(overrides=lambda s: s.with_overrides(select=["ALL"]))
    return runner.run(paths, resolver, **kwargs)  # type: ignore[arg-type]


def test_prefilter_changes_nothing(tmp_path: Path) -> None:
    target = corpus(tmp_path)
    with_prefilter = run([target])
    without = run([target], use_prefilter=False)
    assert findings(with_prefilter) == findings(without)
    assert with_prefilter.diagnostics, "the corpus has findings"
    assert with_prefilter.parsed < without.parsed, "the prefilter skipped something"


def test_parallel_output_is_identical_and_ordered(tmp_path: Path) -> None:
    target = corpus(tmp_path)
    serial = run([target], jobs=1)
    parallel = run([target], jobs=2)
    assert findings(serial) == findings(parallel)
    names = [f.path for f in serial.files]
    assert names == sorted(names, key=lambda p: Path(p).parts)


def test_the_workers_are_forked_before_any_file_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forked worker's memory starts as its parent's: forked before the run holds the
    files' bytes, the largest worker (the run's peak memory) does not carry them."""
    import multiprocessing

    target = corpus(tmp_path)
    workers_at_first_read: list[int] = []
    real = runner.read_regular

    def reading(path: str | Path) -> bytes:
        if not workers_at_first_read:
            workers_at_first_read.append(len(multiprocessing.active_children()))
        return real(path)

    monkeypatch.setattr(runner, "read_regular", reading)
    assert findings(run([target], jobs=2)) == findings(run([target], jobs=1))
    assert workers_at_first_read == [2]


def test_warm_cache_reuses_results_and_sees_changes(tmp_path: Path) -> None:
    target = corpus(tmp_path)
    cache_dir = tmp_path / "cache"
    cold = run([target], cache=ResultCache(cache_dir))
    assert cold.cached == 0
    warm = run([target], cache=ResultCache(cache_dir))
    assert warm.parsed == 0 and warm.cached == warm.checked
    assert findings(warm) == findings(cold)

    edited = target / "plain" / "functions" / "count.py"
    assert [f for f in findings(warm) if f[0] == str(edited)]
    edited.write_text("def count(conv):\n    return 'three'\n")
    os.utime(edited, ns=(1, 1))
    after = run([target], cache=ResultCache(cache_dir))
    assert after.parsed == 1
    assert [f for f in findings(after) if f[0] == str(edited)] == []


def test_a_warm_run_opens_no_file_until_its_text_is_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = corpus(tmp_path)
    cache_dir = tmp_path / "cache"
    cold = run([target], cache=ResultCache(cache_dir))
    opened: list[str] = []
    real_open = open

    def spy(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(file).endswith((".py", ".ipynb")):
            opened.append(str(file))
        return real_open(file, *args, **kwargs)

    real_os_open = os.open

    def os_spy(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        # every source is read through fileio.read_regular
        if str(file).endswith((".py", ".ipynb")):
            opened.append(str(file))
        return real_os_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", spy)
    monkeypatch.setattr("lint_rules.fileio.os.open", os_spy)
    warm = run([target], cache=ResultCache(cache_dir))
    assert warm.cached == warm.checked and opened == []
    # Code frames and fixes still get the text the diagnostics were computed on.
    assert dict(warm.sources) == dict(cold.sources) and cold.sources
    assert sorted(opened) == sorted(f.path for f in warm.files)


def test_cache_is_keyed_by_settings(tmp_path: Path) -> None:
    target = corpus(tmp_path) / "plain"
    cache_dir = tmp_path / "cache"
    all_on = run([target], cache=ResultCache(cache_dir))
    assert [d.code for d in all_on.diagnostics] == ["TRV101"]
    resolver = SettingsResolver(overrides=lambda s: s.with_overrides(ignore=["TRV101"]))
    ignored = runner.run([target], resolver, cache=ResultCache(cache_dir))
    assert ignored.diagnostics == []


def test_polyai_prompt_change_invalidates_cached_results(tmp_path: Path) -> None:
    root = tmp_path / "agent"
    (root / "agent_settings").mkdir(parents=True)
    rules = root / "agent_settings" / "rules.txt"
    rules.write_text("Use {{fn:other}}.\n")
    (root / "functions").mkdir()
    (root / "functions" / "in_hours.py").write_text("def in_hours(conv):\n    return 3\n")
    cache_dir = tmp_path / "cache"
    assert run([root], cache=ResultCache(cache_dir)).diagnostics == []  # a helper
    rules.write_text("Use {{fn:other}} and {{fn:in_hours}}.\n")
    now_a_tool = run([root], cache=ResultCache(cache_dir))
    assert [d.code for d in now_a_tool.diagnostics] == ["TRV101"]


def test_cache_file_is_valid_json_and_merged_by_concurrent_runs(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for directory in (a, b):
        (directory / "functions").mkdir(parents=True)
        (directory / "functions" / "count.py").write_text("def count(conv):\n    return 3\n")
    cache_dir = tmp_path / "cache"
    first, second = ResultCache(cache_dir), ResultCache(cache_dir)  # both start empty
    run([a], cache=first)
    run([b], cache=second)
    (stored,) = cache_dir.glob("v*.json")
    entries = json.loads(stored.read_text())["files"]
    assert {Path(p).parts[-3] for p in entries} == {"a", "b"}
    # Two runs that both read the existing file: the one saving second merges what the
    # first wrote (a save re-reads only a file replaced since it was read)
    c, d = tmp_path / "c", tmp_path / "d"
    for directory in (c, d):
        (directory / "functions").mkdir(parents=True)
        (directory / "functions" / "count.py").write_text("def count(conv):\n    return 3\n")
    third, fourth = ResultCache(cache_dir), ResultCache(cache_dir)
    run([c], cache=third)
    run([d], cache=fourth)
    entries = json.loads(stored.read_text())["files"]
    assert {Path(p).parts[-3] for p in entries} == {"a", "b", "c", "d"}
    run([c], cache=third)  # unchanged since its own save: nothing lost either
    assert len(json.loads(stored.read_text())["files"]) == 4


@pytest.mark.parametrize("fmt", ["json"])
def test_cached_diagnostics_round_trip(tmp_path: Path, fmt: str) -> None:
    functions = tmp_path / "functions"
    functions.mkdir()
    (functions / "count.py").write_text("def count(conv):\n    return 3\n")
    cache_dir = tmp_path / "cache"
    cold = run([tmp_path / "functions"], cache=ResultCache(cache_dir)).diagnostics
    warm = run([tmp_path / "functions"], cache=ResultCache(cache_dir)).diagnostics
    assert warm == cold and isinstance(warm[0], Diagnostic) and warm[0].fix is not None


def test_progress_sees_every_parsed_file_in_order(tmp_path: Path) -> None:
    target = corpus(tmp_path)
    seen: list[tuple[int, str]] = []
    totals: list[int] = []

    class Recorder:
        def track(self, results, total):  # type: ignore[no-untyped-def]
            totals.append(total)
            for result in results:
                seen.append((total, result.path))
                yield result

    result = run([target], progress=Recorder(), jobs=2)
    # One bar per pass (the second re-checks what other files' facts changed).
    assert len(seen) == result.parsed == sum(totals)


def test_only_files_that_can_hold_facts_are_parsed_for_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "plain.py").write_text("import agents_of_shield\nx = 1\n" * 50)
    (tmp_path / "main.py").write_text(
        "from agents import Agent\n\ndef stop(ctx, results):\n    return 1\n\n"
        "agent = Agent(name='a', tool_use_behavior=stop)\n"
    )
    shipped: list[str] = []
    original = index_facts.extract_parsed

    def recording(module, data, project=None):  # type: ignore[no-untyped-def]
        shipped.append(module.path)
        return original(module, data, project)

    monkeypatch.setattr(index_facts, "extract_parsed", recording)
    run([tmp_path], jobs=1)
    assert [Path(p).name for p in shipped] == ["main.py"]


def test_a_file_is_parsed_once_when_no_other_file_changes_its_facts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from lint_rules.analysis import module as module_analysis

    (tmp_path / "main.py").write_text(
        "from agents import Agent, function_tool\n\n@function_tool\ndef count() -> int:\n"
        "    return 3\n\ndef stop(ctx, results):\n    return 1\n\n"
        "agent = Agent(name='a', tools=[count], tool_use_behavior=stop)\n"
    )
    parsed: list[str] = []
    original = module_analysis.parse_module

    def counting(source, path, **kwargs):  # type: ignore[no-untyped-def]
        parsed.append(path)
        return original(source, path, **kwargs)

    monkeypatch.setattr(module_analysis, "parse_module", counting)
    monkeypatch.setattr(engine, "parse_module", counting)
    monkeypatch.setattr(index_facts, "parse_module", counting)
    result = run([tmp_path], jobs=1)
    assert [Path(p).name for p in parsed] == ["main.py"]
    assert result.diagnostics == run([tmp_path], jobs=1, index_project=False).diagnostics


def test_a_file_whose_facts_come_from_another_file_is_checked_again(tmp_path: Path) -> None:
    (tmp_path / "behaviors.py").write_text(
        "from agents import ToolsToFinalOutputResult\n\n"
        "def stop(context, results) -> ToolsToFinalOutputResult:\n"
        "    return ToolsToFinalOutputResult(is_final_output=True, final_output=len(results))\n"
    )
    (tmp_path / "main.py").write_text(
        "from agents import Agent\nfrom behaviors import stop\n\n"
        "agent = Agent(name='a', tool_use_behavior=stop)\n"
    )
    whole = {(Path(d.filename).name, d.code) for d in run([tmp_path], jobs=1).diagnostics}
    alone = {
        (Path(d.filename).name, d.code)
        for d in run([tmp_path], jobs=1, index_project=False).diagnostics
    }
    assert ("behaviors.py", "TRV312") in whole - alone


def test_the_garbage_collector_is_restored_and_parsed_trees_are_freed(tmp_path: Path) -> None:
    import gc
    import weakref

    from lint_rules.analysis import module as module_analysis

    target = corpus(tmp_path)
    made: list[weakref.ref[object]] = []
    original = module_analysis.parse_module

    def tracking(source, path, **kwargs):  # type: ignore[no-untyped-def]
        parsed = original(source, path, **kwargs)
        made.append(weakref.ref(parsed))
        return parsed

    mp = pytest.MonkeyPatch()
    mp.setattr(module_analysis, "parse_module", tracking)
    mp.setattr(engine, "parse_module", tracking)
    try:
        assert gc.isenabled()
        run([target], jobs=1)
        assert gc.isenabled()
        gc.disable()
        try:
            made.clear()
            run([target], jobs=1)
            assert not gc.isenabled()
            # Freed by the per-file young collections, with the collector off.
            alive = sum(ref() is not None for ref in made)
        finally:
            gc.enable()
    finally:
        mp.undo()
    assert made and alive == 0
