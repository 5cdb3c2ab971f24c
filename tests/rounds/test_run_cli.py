"""`tablewatch run` on a bundled sample writes rounds to a DuckDB store; bad input names the file."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from click.testing import CliRunner

from pipelines.cli import main
from pipelines.rounds.run import RunError, spec_from

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_run_on_a_sample_stores_rounds(tmp_path: Path) -> None:
    db = tmp_path / "t.duckdb"
    res = CliRunner().invoke(main, ["run", str(ROOT / "samples" / "pick-2-poker"), "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output.strip().splitlines()[-1])
    assert out["rounds"] >= 1
    con = duckdb.connect(str(db), read_only=True)
    stored = con.execute("select count(*), min(table_id) from rounds").fetchone()
    assert stored == (out["rounds"], "T1")


def test_sources_resolve_or_name_the_problem(tmp_path: Path) -> None:
    spec = spec_from(ROOT / "infra" / "tables" / "king-high.yaml")
    assert (spec.game, spec.table_id) == ("king-high", "KH-01") and spec.video.exists()
    spec = spec_from(ROOT / "samples" / "high-tie")
    assert spec.game == "high-tie" and spec.homography.shape == (3, 3)
    with pytest.raises(RunError, match="--game"):
        spec_from(ROOT / "samples" / "high-tie", game="king-high")
    video = tmp_path / "v.mp4"
    video.write_bytes(b"")
    with pytest.raises(RunError, match=r"v\.mp4.*--ground-truth"):
        spec_from(video)
    bad = tmp_path / "t.yaml"
    bad.write_text("table_id: X\ngame: baccarat\n")
    with pytest.raises(ValueError, match=r"t\.yaml.*game"):
        spec_from(bad)


def test_the_empty_table_reference_resolves_or_names_the_field(tmp_path: Path) -> None:
    spec = spec_from(ROOT / "infra" / "tables" / "pick-2-poker.yaml")
    assert spec.reference is not None and spec.reference.is_file()
    assert spec_from(ROOT / "samples" / "pick-2-poker").reference == spec.reference
    cfg = (ROOT / "infra" / "tables" / "pick-2-poker.yaml").read_text()
    bad = tmp_path / "t.yaml"
    bad.write_text(cfg.replace("../../samples/pick-2-poker/video.mp4", str(ROOT / "samples/pick-2-poker/video.mp4"))
                   .replace("../../samples/pick-2-poker/reference.jpg", "missing.jpg"))
    with pytest.raises(ValueError, match=r"t\.yaml: field camera\.reference: .*missing\.jpg does not exist"):
        spec_from(bad)


def test_example_table_configs_validate() -> None:
    from pipelines.config import load_table_config

    games = {load_table_config(p).game for p in (ROOT / "infra" / "tables").glob("*.yaml")}
    assert games == {"king-high", "high-tie", "3-card-monster", "pick-2-poker"}
