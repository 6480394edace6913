"""Babel Tower's tests share `tower_kit` (positions, an independent reading of the rulings)."""

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
