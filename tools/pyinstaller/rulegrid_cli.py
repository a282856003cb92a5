"""The bundle's ``rulegrid`` executable (tools/pyinstaller/rulegrid.spec).

``freeze_support`` first: ``rulegrid verify`` runs its levels in worker
processes, which are this executable started again (multiprocessing's spawn).
"""

import multiprocessing
import sys

from engine.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
