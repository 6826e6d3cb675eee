"""`python -m tournaments.scoring FILE [--method …]`: the pure scoring of a file of seat
results (tournaments.scoring.cli; DESIGN.md, "Command-line interfaces")."""

import sys

from tournaments.scoring.cli import main

sys.exit(main())
