"""Where the tests find the repository and their recorded data, whatever folder a test sits in."""

from __future__ import annotations

from pathlib import Path

ROOT_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT_DIR / "tests" / "data"
