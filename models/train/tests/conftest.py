"""The training scripts are a flat folder of modules that import each other by name: put it on the path."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
