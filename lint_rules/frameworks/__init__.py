"""One package per framework: how its tool functions are recognised, and its rules."""
