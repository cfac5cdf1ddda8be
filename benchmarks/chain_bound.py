"""Time ``check_source`` on long left-recursive chains (issue 19, item 4).

LibCST parses ``1 + 1 + …``, ``a.b().c()…`` and ``x[0][0]…`` in time quadratic in
the chain's length; ``lint_rules.analysis.module.check_parse_cost`` refuses a file
whose chains would take too long (one TRV001) before LibCST sees it. This prints,
for each shape and length, the time and what was reported::

    python benchmarks/chain_bound.py
"""

from __future__ import annotations

import time

from lint_rules.analysis.module import MAX_CHAIN, MAX_TRAILERS
from lint_rules.engine import check_source

SHAPES = {
    "a + a + …": lambda n: " + ".join(["a"] * n),
    "x[0][0]…": lambda n: "x" + "[0]" * n,
    "a.b().b()… (2 links each)": lambda n: "a" + ".b()" * (n // 2),
    "a.b.b…": lambda n: "a" + ".b" * n,
}


def main() -> None:
    print(f"MAX_CHAIN = {MAX_CHAIN}, MAX_TRAILERS = {MAX_TRAILERS}")
    for title, make in SHAPES.items():
        limit = MAX_CHAIN if title.startswith("a +") else MAX_TRAILERS
        for n in (limit // 2, limit, limit + 1, 1500, 4000, 20000):
            source = f"def f(conv):\n    x = {make(n)}\n    return 3\n"
            start = time.perf_counter()
            found = check_source(source, "functions/f.py")
            elapsed = time.perf_counter() - start
            codes = ",".join(sorted({d.code for d in found}))
            print(f"{title:28} {n:6} links {elapsed:7.3f}s  {codes}")
        for count in (2, 4, 8):  # several chains just under the limit in one file
            body = "".join(f"    x = {make(limit)}\n" for _ in range(count))
            source = f"def f(conv):\n{body}    return 3\n"
            start = time.perf_counter()
            found = check_source(source, "functions/f.py")
            elapsed = time.perf_counter() - start
            codes = ",".join(sorted({d.code for d in found}))
            print(f"{title:28} {count} x {limit} links {elapsed:7.3f}s  {codes}")


if __name__ == "__main__":
    main()
