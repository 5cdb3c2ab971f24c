"""Settings shared by every test."""

import importlib.util
import sys
from pathlib import Path

import pytest
from hypothesis import settings

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

# Timing is a benchmark's business: on a loaded 2-core CI machine a first call that fills a cache can
# exceed hypothesis' per-example deadline and fail a correct property, so no deadline here.
settings.register_profile("tablewatch", deadline=None)
settings.load_profile("tablewatch")


@pytest.fixture
def load_benchmark():
    """`load_benchmark(name)`: the script benchmarks/NAME.py as a module (the benchmarks are scripts, not a
    package), registered in sys.modules under its name as an import would."""

    def load(name: str):
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    return load
