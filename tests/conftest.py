"""Root fixtures. Editor tests run offscreen: CI has no display."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
