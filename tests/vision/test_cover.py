"""Where the dealer's hand lies: zones covered in rendered frames, and the spells a zone stayed covered."""

from __future__ import annotations

import cv2
import numpy as np
import supervision as sv

from pipelines.games.layout import layout_for
from pipelines.sim.camera import Camera
from pipelines.sim.render import render
from pipelines.sim.scene import ChipStack, Occluder, PlacedCard, Scene
from pipelines.vision.cover import CoverLog, CoverMeter
from pipelines.vision.zones import ZoneMapper


def _boxes(labels) -> sv.Detections:
    xyxy = np.array([[lb.x1, lb.y1, lb.x2, lb.y2] for lb in labels], np.float32).reshape(-1, 4)
    return sv.Detections(xyxy=xyxy)


def _table(game: str, seed: int) -> tuple:
    """(layout, camera, rng, mapper, the empty table's frame, a meter against it) for `game`'s felt."""
    layout = layout_for(game)
    rng = np.random.default_rng(seed)
    cam = Camera.overhead(layout, rng)
    mapper = ZoneMapper(layout, cam.H, frame_size=cam.size)
    reference, _ = render(layout, Scene(), cam, rng)
    return layout, cam, rng, mapper, reference, CoverMeter(mapper.zone_polygons_px(), reference)


def test_the_zones_under_the_hand_are_covered_and_chips_a_box_explains_are_not() -> None:
    layout, cam, rng, mapper, _, meter = _table("high-tie", 3)
    mains = layout.zones_of("bet")
    bet, under, empty = mains[1], mains[4], mains[6]
    scene = Scene(chips=[ChipStack([25, 25, 5], *bet.centre)], occluders=[Occluder(*under.centre)])
    frame, labels = render(layout, scene, cam, rng)
    covered, bare = meter.measure(frame, _boxes(labels))
    assert under.name in covered and under.name not in bare
    assert bet.name not in covered  # chips differ from the empty felt, but the detector boxed them
    assert bet.name not in bare and empty.name in bare
    assert covered <= mapper.occluded_zones(scene, min_fraction=0.05)  # nowhere the hand is not
    assert bet.name in meter.measure(frame, _boxes([]))[0]  # chips no box explains count as cover
    # The empty table again, under another exposure: nothing covered, every betting and paid spot bare.
    covered, bare = meter.measure(render(layout, Scene(), cam, rng)[0], _boxes([]))
    assert covered == set() and {z.name for z in layout.zones_of("bet") + layout.zones_of("paid")} <= bare


def _log(frames: list[tuple[int, set[str], set[str]]]) -> CoverLog:
    log = CoverLog()
    for frame, covered, bare in frames:
        log.add(frame, covered, bare)
    return log


def test_a_stack_was_laid_within_the_spell_its_spot_was_covered_if_it_was_bare_before() -> None:
    # Frames 10-11 the spot bare, 12-16 under the hand (a frame seen clear at 14 does not split the spell, nor
    # frames 17-19 never analysed), the stack seen from 20.
    seen = [(10, set(), {"a"}), (11, set(), {"a"}), (12, {"a"}, set()), (13, {"a"}, set()), (14, set(), set()),
            (15, {"a"}, set()), (16, {"a"}, set()), (20, set(), set()), (21, set(), set())]
    assert _log(seen).laid_within("a", 20) == (12, 20)
    # Something on the spot (boxed: neither bare nor covered) before the hand came: it may have been the stack.
    held = [(10, set(), set()), *seen[2:]]
    assert _log(held).laid_within("a", 20) is None
    assert _log(seen).laid_within("a", 12) is None  # seen the moment the hand came: no spell ended then
    assert _log(seen).laid_within("b", 20) is None


def test_a_stack_shown_while_its_spot_is_still_covered_was_laid_under_the_hand() -> None:
    # 3 Card Monster, video (set A14, seed 12863): a $500 Play payout laid at frame 142, its spot under the hand from
    # 137 (bare before) until past 161, the payout first read at 161 with the hand still over part of it.
    spot = [(135, set(), {"a"}), (136, set(), {"a"}), *((f, {"a"}, set()) for f in range(137, 170))]
    assert _log(spot).laid_under("a", 161) == 137
    assert _log(spot).laid_within("a", 161) is None  # no spell ended as it showed
    held = [(135, set(), set()), (136, set(), set()), *spot[2:]]  # something lay there before the hand came
    assert _log(held).laid_under("a", 161) is None
    assert _log(spot[:20]).laid_under("a", 161) is None  # the spell was over, long before it showed
    assert _log(spot).laid_under("b", 161) is None


def test_a_stack_was_taken_before_its_spot_was_next_bare() -> None:
    # A stack gone from view at 30 under the hand's edge, its spot bare from 34.
    log = _log([(29, set(), set()), (30, {"a"}, set()), (31, set(), set()), (32, set(), set()),
                (33, {"a"}, set()), (34, set(), {"a"}), (35, set(), {"a"})])
    assert log.taken_within("a", 30) == (30, 34)
    assert log.taken_within("a", 35) == (33, 35)  # under the hand at 33, just before
    assert log.taken_within("a", 32) == (30, 34)  # read as gone only after the hand came over it: from then
    assert log.taken_within("b", 30) is None  # never seen bare


def test_a_stack_read_gone_soon_after_the_hand_left_its_spot_was_taken_during_its_stay() -> None:
    # The hand over the spot 20-25 (a frame clear at 23 does not end the spell), the stack read gone at 29.
    log = _log([(19, set(), set()), *((f, {"a"}, set()) for f in (20, 21, 22)), (23, set(), set()),
                (24, {"a"}, set()), (25, {"a"}, set()), *((f, set(), set()) for f in range(26, 31))])
    assert log.covered_until_near("a", 29, within=4) == 20
    assert log.covered_until_near("a", 29, within=3) is None  # the hand had left it too long before
    assert log.covered_until_near("b", 29, within=4) is None  # never covered


def test_the_last_frame_a_spot_was_covered_before_a_frame() -> None:
    log = _log([(10, {"a"}, set()), (11, {"a"}, set()), (12, set(), set()), (13, set(), set()), (14, {"a"}, set()),
                (15, set(), set())])
    assert log.last_covered_before("a", 14) == 11
    assert log.last_covered_before("a", 20) == 14
    assert log.last_covered_before("a", 10) is None  # nothing over it before then
    assert log.last_covered_before("b", 20) is None


def test_a_table_dealt_full_of_cards_does_not_hide_the_hand() -> None:
    # 3 Card Monster, held-out video (set A5, seed 12503): with every seat's cards face up, the zones read far brighter
    # than the empty table's; matched to it there, the frame was scaled to 0.6 of its brightness, the hand over the
    # Monster and Royal spots came out the felt's shade, the spots read bare, and their stacks as taken unseen. Here
    # the hand shows either way, but the bare felt, so darkened, read as covered.
    layout, cam, rng, mapper, reference, meter = _table("3-card-monster", 5)
    spot = layout.zones_of("bet")[0]
    cards = [PlacedCard(f"{rank}h", x + dx, y)
             for (x, y), rank in zip((z.centre for z in layout.zones_of("cards")), "AKQJT98765432", strict=False)
             for dx in (-60.0, 0.0, 60.0)]
    frame, labels = render(layout, Scene(cards=cards, occluders=[Occluder(*spot.centre)]), cam, rng)
    zones = mapper.zone_polygons_px()
    inside = np.zeros(frame.shape[:2], np.uint8)
    for poly in zones.values():
        cv2.fillPoly(inside, [np.round(poly).astype(np.int32)], 1)
    bright = frame[inside > 0].mean() / reference[inside > 0].mean()
    assert bright > 1.2  # the cards brighten the zones well past any drift of the camera's exposure
    covered, bare = meter.measure(frame, _boxes(labels))
    assert spot.name in covered and spot.name not in bare
    seat, _ = spot.name.split(".")
    empty = {z.name for z in layout.zones_of("bet") if z.name.split(".")[1] in ("monster", "royal")
             and not z.name.startswith(f"{seat}.")}  # the other seats' side bets: none laid, no card on them
    assert not empty & covered and empty <= bare  # the felt between the cards matched to its own shade
