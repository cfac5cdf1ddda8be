"""``python -m lint_rules`` is ``toolret``."""

from lint_rules.cli import main

if __name__ == "__main__":
    main(prog_name="toolret")
