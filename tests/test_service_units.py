"""The service units in infra/ start real tablewatch commands with options those commands accept."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from pipelines.cli import main

UNITS = sorted((Path(__file__).resolve().parents[1] / "infra" / "systemd").glob("*.service"))


@pytest.mark.parametrize("unit", UNITS, ids=lambda p: p.name)
def test_unit_command_parses(unit: Path):
    line = next(ln for ln in unit.read_text().splitlines() if ln.startswith("ExecStart="))
    argv = shlex.split(line.split("=", 1)[1])
    start = next(i for i, a in enumerate(argv) if a.endswith("tablewatch")) + 1
    args = [re.sub(r"\$\{\w+\}|%i", "x", a) for a in argv[start:]]
    result = CliRunner().invoke(main, [*args, "--help"])
    assert result.exit_code == 0, f"{unit.name}: {' '.join(args)}\n{result.output}"


def test_a_bad_option_is_caught():
    assert CliRunner().invoke(main, ["watch", "--config", "x", "--help"]).exit_code != 0
