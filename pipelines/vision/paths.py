"""Where the committed weights live."""

from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
