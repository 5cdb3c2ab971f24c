"""Rounds read from a live camera in real time: does the analysis keep up, and are the rounds still right?

Each session's video is played as a live MJPEG camera (`pipelines/sim/live_camera.py`: frames sent by
the wall clock at `--camera-fps`, a slow viewer misses frames) and read as `tablewatch watch` reads a
camera: one frame per tick of `--analyse-fps`, taken oldest first from a queue of at most `LIVE_BUFFER_S`
seconds, motion gating and regional detection on. Prints per session the camera's frames, those the
pipeline took and analysed and those lost because it had fallen `LIVE_BUFFER_S` behind (and the rounds
they sent to review), the lag (a frame's age when the pipeline came back for the next), the analysis rate,
and the rounds against the ground truth.

    python benchmarks/live_camera.py --json                      # the four bundled samples (~90 s)
    python benchmarks/live_camera.py --sessions DIR [DIR ...]    # simulated sessions (tablewatch simulate)

Real time: a session takes as long as its video. Run nothing else on the machine while it measures.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = [ROOT / "samples" / g for g in ("king-high", "high-tie", "3-card-monster", "pick-2-poker")]


def live_session(folder: Path, camera_fps: float, analyse_fps: float, tail_s: float = 2.0) -> dict:
    """One session read live from its camera until the frames of the video, and of `tail_s` more, are read."""
    from pipelines.rounds.compare import compare_rounds, tally
    from pipelines.rounds.run import rounds_from_changes, spec_from, vision_changes
    from pipelines.sim.live_camera import LiveCamera
    from pipelines.sim.truth import GroundTruth

    spec = spec_from(folder)
    truth = GroundTruth.load(spec.truth_path)
    with LiveCamera(spec.video, fps=camera_fps) as cam:
        spec.video, spec.fps = cam.url, analyse_fps
        stream, pipe, _ = vision_changes(spec)
        def until_the_end():  # the frames captured until the video has played, and `tail_s` more
            for item in stream:
                yield item
                if item[1] > cam.duration_s + tail_s:
                    return

        got = rounds_from_changes(spec, until_the_end(), missed=pipe.missed, cover=pipe.cover)
        stream.close()  # the camera's reader stops now, not when collected
        sent, skipped = cam.frames_sent, cam.frames_skipped
    live, c = pipe.live, pipe.counters
    lags = np.asarray(live.lags if live else [0.0])
    verdicts = compare_rounds(got, truth.rounds)
    t = tally(verdicts)
    return {"session": folder.name, "game": truth.game, "video_s": round(cam.duration_s, 1),
            "camera_frames": sent, "camera_skipped": skipped, "captured": live.captured if live else 0,
            "taken": c.frames_read, "dropped": live.dropped if live else 0, "unseen": live.unseen if live else 0,
            "rounds_with_frames_lost": sum(any("were not analysed" in n for n in r.notes) for r in got),
            "analysed": c.frames_analysed, "analysed_per_s": round(c.frames_read / c.seconds, 2),
            "lag_p50_s": round(float(np.percentile(lags, 50)), 3),
            "lag_p95_s": round(float(np.percentile(lags, 95)), 3), "lag_max_s": round(float(lags.max()), 3),
            "rounds": {k: t[k] for k in ("rounds", "exact", "wrong", "incomplete")},
            "wrong": [f"{v.result} {v.round_id}: {v.why[:300]}" for v in verdicts
                      if v.result in ("wrong", "missed", "extra")]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", nargs="+", type=Path, default=SAMPLES,
                    help="session folders (a video and its ground_truth.json); default: the bundled samples")
    ap.add_argument("--camera-fps", type=float, default=30.0, help="the camera's frame rate (default 30)")
    ap.add_argument("--analyse-fps", type=float, default=10.0,
                    help="frames analysed per second at most (camera.fps of a table config; default 10)")
    ap.add_argument("--json", action="store_true", help="end with one JSON line of every figure")
    args = ap.parse_args()
    out = []
    for folder in args.sessions:
        r = live_session(folder, args.camera_fps, args.analyse_fps)
        out.append(r)
        rd = r["rounds"]
        print(f"{r['session']:32s} {r['video_s']:6.1f} s: camera {r['camera_frames']} frames "
              f"({r['camera_skipped']} not sent: unread), read {r['captured']}, "
              f"taken {r['taken']} ({r['analysed_per_s']:.1f}/s), analysed {r['analysed']}, lost {r['dropped']} "
              f"(in {r['rounds_with_frames_lost']} rounds); lag p50 "
              f"{r['lag_p50_s']:.2f} s, p95 {r['lag_p95_s']:.2f} s, max {r['lag_max_s']:.2f} s; rounds "
              f"{rd['exact']} exact / {rd['wrong']} wrong / {rd['incomplete']} incomplete of {rd['rounds']}",
              flush=True)
        for why in r["wrong"]:
            print(f"    {why}")
    total = {k: sum(r["rounds"][k] for r in out) for k in ("rounds", "exact", "wrong", "incomplete")}
    worst = max(r["lag_max_s"] for r in out)
    print(f"all: {total['exact']} exact / {total['wrong']} wrong / {total['incomplete']} incomplete of "
          f"{total['rounds']} rounds; worst lag {worst:.2f} s")
    if args.json:
        print(json.dumps({"camera_fps": args.camera_fps, "analyse_fps": args.analyse_fps, "sessions": out,
                          "total": total, "worst_lag_s": worst}))


if __name__ == "__main__":
    main()
