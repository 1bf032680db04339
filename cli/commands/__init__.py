"""One module per `razz` subcommand; each has `add_arguments(parser)` and `run(args) -> int`."""
