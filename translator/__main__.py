"""`python -m translator` runs the `cu2hip` command."""

import sys

from translator.cli import main

sys.exit(main())
