"""Run flake8 exactly as its CLI does, minus toolret's own flake8 plugin.

flake8 runs every installed plugin on every file and applies ``--select``
only to what it reports, so ``flake8 --select B`` in the dev environment would
also run toolret's TRV plugin. To time flake8 + flake8-bugbear alone (pyflakes
and pycodestyle still run, as in any flake8 install), this drops plugins from
the ``toolret`` distribution before flake8 loads them; everything else is
``flake8``'s own ``main``.

Usage: python benchmarks/flake8_bugbear.py [flake8 arguments]
"""

from __future__ import annotations

import sys
from typing import Any

from flake8.main.cli import main
from flake8.plugins import finder

EXCLUDED_DISTRIBUTIONS = frozenset({"toolret"})

_find_plugins = finder.find_plugins


def _without_toolret(*args: Any, **kwargs: Any) -> list[finder.Plugin]:
    plugins = _find_plugins(*args, **kwargs)
    return [p for p in plugins if p.package.lower() not in EXCLUDED_DISTRIBUTIONS]


# Module level so that processes spawned (not forked) by flake8's pool patch too.
finder.find_plugins = _without_toolret

if __name__ == "__main__":
    sys.exit(main())
