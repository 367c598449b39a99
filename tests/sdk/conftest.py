"""The kit's tests import it from sdk/python (as `pip install ./sdk/python` would) without installing it."""

from __future__ import annotations

import sys
from pathlib import Path

SDK = Path(__file__).resolve().parents[2] / "sdk" / "python"
if str(SDK) not in sys.path:
    sys.path.insert(0, str(SDK))
