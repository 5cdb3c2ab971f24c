"""The evidence recorder keeps analysed frames, bounded, and writes a flag's snapshot, clip and detections."""

from __future__ import annotations

import json

import cv2
import numpy as np
import supervision as sv

from pipelines.games.layout import layout_for
from pipelines.games.round import FrameRange
from pipelines.reconcile.flag import Flag
from pipelines.rounds.evidence import EvidenceRecorder
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.scene import Scene


def _flag(start: int, flag_id: str = "f1") -> Flag:
    return Flag(flag_id=flag_id, type="payout_error", table_id="T9", round_id="r1", game="high-tie",
                severity="medium", frames=FrameRange(start=start, end=start + 4), rule="Procedure")


def _boxes(n: int) -> sv.Detections:
    return sv.Detections(xyxy=np.tile(np.array([[10, 20, 40, 50]], np.float32), (n, 1)),
                         confidence=np.full(n, 0.9, np.float32), class_id=np.zeros(n, int),
                         data={"class_name": np.array(["chip_5"] * n), "card": np.array([""] * n),
                               "chip_value": np.full(n, 5)})


def test_a_flag_gets_the_frame_it_names_a_clip_around_it_and_its_detections(tmp_path):
    layout = layout_for("high-tie")
    rng = np.random.default_rng(4)
    cam = Camera.overhead(layout, rng, size=(640, 360))
    frame = render(layout, Scene(), cam, rng)[0]
    rec = EvidenceRecorder(tmp_path, "T9", fps=10, max_frames=30, clip_s=0.6, homography=cam.H)
    for i in range(0, 80, 2):  # analysed frames: every other one
        rec.add(i, cv2.putText(frame.copy(), str(i), (20, 40), cv2.FONT_HERSHEY_PLAIN, 2, (255, 255, 255)),
                _boxes(1 + i % 3))
    assert rec.frame_for(_flag(0)) == 20  # 40 analysed frames, the 30 newest kept: 20..78
    assert rec.frame_for(_flag(51)) in (50, 52)
    files = rec.write(_flag(60))
    assert files == ["evidence/T9/r1/f60.jpg", "evidence/T9/r1/f60.webm", "evidence/T9/r1/f60_detections.json"]
    assert rec.write(_flag(60, "f2")) == files  # another flag of the round at that moment shares them
    rec.close()  # the clip is encoded in the background
    assert cv2.imread(str(tmp_path / files[0])).shape == (360, 640, 3)
    cap = cv2.VideoCapture(str(tmp_path / files[1]))
    clip = [f for ok, f in iter(cap.read, (False, None)) if ok]
    # 0.6 s around frame 60 (57..62) in real time: 56 until 58, then the analysed frames 58, 60, 62 each held
    # until the next
    assert len(clip) == 6
    label = [f[15:45, 15:80].astype(int) for f in clip]  # where each frame's number is written
    assert np.abs(label[1] - label[2]).mean() < 3 < np.abs(label[0] - label[1]).mean()  # 56 | 58 58 | ...
    assert np.abs(label[2] - label[3]).mean() > 3 > np.abs(label[3] - label[4]).mean()  # ... | 60 60 | 62
    boxes = json.loads((tmp_path / files[2]).read_text())
    assert boxes["frame"] == 60 and len(boxes["detections"]) == 1 + 60 % 3
    assert boxes["detections"][0] == {"class_name": "chip_5", "xyxy": [10.0, 20.0, 40.0, 50.0], "confidence": 0.9,
                                      "card": "", "chip_value": 5}
    rec.forget_before(70)
    assert rec.frame_for(_flag(60)) == 70  # a second later: still the moment the flag names
    assert rec.frame_for(_flag(40)) is None and rec.write(_flag(40)) == []  # 3 s off: no evidence, not a wrong one
