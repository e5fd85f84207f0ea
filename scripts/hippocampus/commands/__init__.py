"""The commands behind the scripts: each a function of its arguments (`main(argv) -> exit code`)."""
