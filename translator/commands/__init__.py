"""The subcommands: one module each (translate, check, diff, rules), and `run`, what the
ones that translate share: the batch of jobs, the progress line, atomic writes."""
