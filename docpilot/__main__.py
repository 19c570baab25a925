import sys

from docpilot.cli import main

sys.exit(main())
