"""The SDK tests import `loupe_client` from sdk/python as committed (no install needed)."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SDK_PYTHON = ROOT / "sdk" / "python"

if str(SDK_PYTHON) not in sys.path:
    sys.path.insert(0, str(SDK_PYTHON))
