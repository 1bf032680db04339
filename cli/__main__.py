"""`python -m razz` is the `razz` command."""

import sys

from razz.cli import main

sys.exit(main())
