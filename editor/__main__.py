"""``python -m editor [PACK]``."""

from editor.app import main

raise SystemExit(main())
