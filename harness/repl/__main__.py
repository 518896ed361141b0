"""``python -m harness.repl``."""

import sys

from harness.repl import main

sys.exit(main())
