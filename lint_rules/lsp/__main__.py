"""``python -m lint_rules.lsp``: serve the language server on stdin/stdout."""

from lint_rules.lsp.server import main

if __name__ == "__main__":
    main()
