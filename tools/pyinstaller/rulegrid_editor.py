"""The bundle's ``rulegrid-editor`` executable (tools/pyinstaller/rulegrid.spec).

``freeze_support`` first: the solver's worker processes are this executable
started again (multiprocessing's spawn), and must run the worker, not a window.
"""

import multiprocessing
import sys

from editor.app import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
