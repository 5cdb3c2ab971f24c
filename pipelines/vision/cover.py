"""Where the dealer's hand lies: the zones something other than a card or chip covers, frame by frame.

A payout shows only once the hand that laid it has left its spot, and a stack taken vanishes as the hand
comes over it; when the hand was over which spot orders settlements the chips alone cannot (a wager taken
and, 0.4 s later, the next seat's payout laid). `CoverMeter` compares a frame with the empty-table
reference: a zone is *covered* where enough of it differs with no detection to explain it (the hand, its
arm or its shadow), *bare* where almost none of it differs (nothing on it). `CoverLog` keeps the spells of
each, per zone, and says within which frames a stack was laid or taken:

- laid: within the covered spell that ended as it showed, if the zone was bare just before that spell (a
  stack seen once, unread, before the hand came back over it was laid earlier);
- taken: from the moment the hand came over its spot, where it was just before the stack read gone, to
  the frame the spot was next bare (a stack gone under the hand's edge may be taken a second later, when the
  hand comes back for it).

Both err towards the wider window: a difference no box explains counts as cover, and a spell ends only
after `END_FRAMES` analysed frames in a row saw the zone otherwise, so frames never analysed (motion
gating) or one frame's miss do not split it. A window too wide only leaves an order in doubt; one too
narrow would claim one.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np
import supervision as sv

END_FRAMES = 2  # analysed frames in a row a zone must be seen otherwise before its spell ends
COVERED_FROM = 0.25  # share of a zone differing, with no detection to explain it, from which it is covered
BARE_BELOW = 0.05  # share of a zone differing at all below which it is bare
MIN_PIXELS = 20  # a zone's own pixels at the meter's work size below which it is not measured
GAIN_MIN_GREY = 24.0  # reference pixels darker than this (the rail, the frame's edge) do not weigh in the exposure
GAIN_MIN_PIXELS = 500  # work pixels outside the zones the exposure is matched on, at least (else over the zones)
KEEP_FRAMES = 18_000  # spells are kept this long (30 min at 10 frames/s): a round is judged when it closes


@dataclass
class _Spell:
    first: int
    last: int  # the last frame seen so
    other: int = 0  # analysed frames seen otherwise since `last`


class _Spells:
    """Per zone, the spells it was seen in one condition (covered, or bare)."""

    def __init__(self, end_frames: int) -> None:
        self.end_frames = end_frames
        self.by_zone: dict[str, list[_Spell]] = {}

    def add(self, frame: int, zones: set[str]) -> None:
        for zone in zones:
            spells = self.by_zone.setdefault(zone, [])
            if spells and not self._ended(spells[-1]):
                spells[-1].last, spells[-1].other = frame, 0
            else:
                spells.append(_Spell(frame, frame))
        for zone, spells in self.by_zone.items():
            if zone not in zones and not self._ended(spells[-1]):
                spells[-1].other += 1

    def _ended(self, spell: _Spell) -> bool:
        return spell.other >= self.end_frames

    def prune(self, before: int) -> None:
        for zone, spells in self.by_zone.items():
            self.by_zone[zone] = [s for s in spells if s.last >= before or not self._ended(s)]

    def latest_before(self, zone: str, frame: int) -> _Spell | None:
        """The zone's last spell begun before `frame`."""
        return next((s for s in reversed(self.by_zone.get(zone, [])) if s.first < frame), None)

    def first_from(self, zone: str, frame: int) -> int | None:
        """The first frame from `frame` on the zone was seen so."""
        starts = [max(s.first, frame) for s in self.by_zone.get(zone, []) if s.last >= frame]
        return min(starts, default=None)

    def last_before(self, zone: str, frame: int) -> int | None:
        """The last frame before `frame` the zone was seen so."""
        ends = [min(s.last, frame - 1) for s in self.by_zone.get(zone, []) if s.first < frame]
        return max(ends, default=None)


class CoverLog:
    """Per zone, when something other than a card or chip lay over it (covered) and when it showed the empty
    felt (bare). A zone seen neither holds what the detector boxed."""

    def __init__(self, end_frames: int = END_FRAMES, keep_frames: int = KEEP_FRAMES) -> None:
        self._covered = _Spells(end_frames)
        self._bare = _Spells(end_frames)
        self._frames: list[int] = []  # the frames analysed, in order
        self.keep_frames = keep_frames
        self._pruned = 0

    def add(self, frame: int, covered: Iterable[str], bare: Iterable[str]) -> None:
        """One analysed frame: the zones covered in it and those bare (every other zone logged so far was seen
        otherwise)."""
        self._covered.add(frame, set(covered))
        self._bare.add(frame, set(bare))
        self._frames.append(frame)
        if frame - self._pruned > self.keep_frames:  # a table watched for weeks: forget what no round needs
            self._covered.prune(frame - self.keep_frames)
            self._bare.prune(frame - self.keep_frames)
            self._frames = self._frames[bisect.bisect_left(self._frames, frame - self.keep_frames):]
            self._pruned = frame

    def last_covered_before(self, zone: str, frame: int) -> int | None:
        """The last frame before `frame` something lay over `zone`; None if nothing did (that is kept)."""
        return self._covered.last_before(zone, frame)

    def first_covered_from(self, zone: str, frame: int) -> int | None:
        """The first frame from `frame` on something lay over `zone`; None if nothing did (that is kept)."""
        return self._covered.first_from(zone, frame)

    def laid_within(self, zone: str, shown: int) -> tuple[int, int] | None:
        """(first, last) frames a stack first seen in `zone` at `shown` was laid within: the spell the zone was
        covered that ended as it showed (no frame analysed between), where the zone was bare until that spell
        began. None otherwise (the stack may have lain there, unread, before the hand came over it)."""
        spell = self._covered.latest_before(zone, shown)
        if spell is None or spell.last >= shown:
            return None
        analysed_between = bisect.bisect_left(self._frames, shown) - bisect.bisect_right(self._frames, spell.last)
        if analysed_between or not self._bare_until(zone, spell):
            return None
        return spell.first, shown

    def laid_under(self, zone: str, shown: int) -> int | None:
        """The first frame of the spell something lay over `zone` that was still on at `shown`, the frame a stack
        there first showed, where the zone was bare until that spell began: the stack was laid at some moment of the
        spell up to `shown`, unseen (a payout that shows while the hand still lies over part of it). None
        otherwise."""
        spell = self._covered.latest_before(zone, shown + 1)
        return spell.first if spell is not None and spell.last >= shown and self._bare_until(zone, spell) else None

    def _bare_until(self, zone: str, spell: _Spell) -> bool:
        """Whether `zone` was seen bare until the covered `spell` began (within the frames that end a spell): nothing
        lay there before the hand came (`laid_within`, `laid_under`)."""
        bare = self._bare.last_before(zone, spell.first)
        return bare is not None and bare >= spell.first - self._covered.end_frames

    def covered_through(self, zone: str, first: int, last: int) -> bool:
        """Whether one spell of something over `zone` lasted from `first` to `last` (frames), both included."""
        spell = self._covered.latest_before(zone, first + 1)
        return spell is not None and spell.last >= last

    def covered_until_near(self, zone: str, gone: int, within: int) -> int | None:
        """The first frame of the spell something lay over `zone` that lasted to at most `within` frames before
        `gone`, the frame a stack there was read as gone: the hand was over the stack and left it found gone, so it
        was taken at some moment of that spell. None if no such spell."""
        over = self._covered.latest_before(zone, gone)
        return over.first if over is not None and over.last >= gone - within else None

    def stay_over(self, zone: str, gone: int) -> tuple[int, int] | None:
        """(first, last) frames of the spell something lay over `zone` as a stack there was read gone at `gone`: begun
        by then, and lasting to at most `END_FRAMES` before it. None if no such spell."""
        over = self._covered.latest_before(zone, gone + 1)
        return (over.first, over.last) if over is not None and over.last >= gone - self._covered.end_frames else None

    def taken_within(self, zone: str, gone: int) -> tuple[int, int] | None:
        """(first, last) frames a stack read as gone from `zone` at `gone` was taken within: from the moment the
        hand came over its spot, where it was just before (a High Tie $10 Main under the hand read as a $500
        chip for three frames, taken in the first), until the zone was next seen bare. None when it was not
        seen bare since."""
        bare = self._bare.first_from(zone, gone)
        if bare is None:
            return None
        over = self.covered_until_near(zone, gone, self._covered.end_frames)
        return (gone if over is None else over), bare


class CoverMeter:
    """`measure(frame, detections) -> (covered, bare)`, sets of zone names."""

    def __init__(self, zone_polygons_px: Mapping[str, np.ndarray], reference: np.ndarray, *,
                 work_width: int = 320, pixel_threshold: int = 25, min_fraction: float = COVERED_FROM,
                 bare_fraction: float = BARE_BELOW) -> None:
        h, w = reference.shape[:2]
        self.scale = min(1.0, work_width / w)
        self.size = (max(1, round(w * self.scale)), max(1, round(h * self.scale)))
        self.pixel_threshold = pixel_threshold
        self.min_fraction = min_fraction
        self.bare_fraction = bare_fraction
        self.names = list(zone_polygons_px)
        # One label image: the zone each work pixel belongs to (0: none; a pixel of two zones, the later).
        self._labels = np.zeros(self.size[::-1], np.int32)
        for k, name in enumerate(self.names, 1):
            poly = np.round(np.asarray(zone_polygons_px[name], np.float64) * self.scale).astype(np.int32)
            cv2.fillPoly(self._labels, [poly], k)
        self._area = np.bincount(self._labels.ravel(), minlength=len(self.names) + 1).astype(np.float64)
        # A zone left with few pixels of its own (a High Tie seat's card area under its split areas) is never
        # measured: with none, it would read bare in every frame.
        self._measured = self._area[1:] >= MIN_PIXELS
        self._in_zones = self._labels > 0
        self._ref = self._prepare(reference)
        # Where the exposure is matched: outside the zones, where nothing is laid, and not the darkest pixels, whose
        # ratios are noise; over the zones where too few are left (a frame that is all zones).
        ref_grey = self._ref.mean(axis=2)
        outside = ~self._in_zones & (ref_grey >= GAIN_MIN_GREY)
        self._gain_px = outside if outside.sum() >= GAIN_MIN_PIXELS else self._in_zones
        self._ref_grey = ref_grey[self._gain_px]

    def _prepare(self, image: np.ndarray) -> np.ndarray:
        small = cv2.resize(image, self.size, interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (5, 5), 0).astype(np.float32)

    def _gain(self, cur: np.ndarray) -> float:
        """What the frame's brightness is scaled by to match the reference's: the camera's exposure drifts. The median
        of the two's ratio outside the zones, which the dealer's arm passing over part of them does not move. Over the
        zones the cards and chips laid brighten the frame as a round goes on: matched there, a 3 Card Monster table
        dealt read 0.6 of the reference's brightness against 0.94-1.07 outside them, so the hand over a spot was scaled
        to the felt's shade and its spot read bare (set A5, seed 12503: the Monster and Royal taken as "not seen")."""
        ratio = self._ref_grey / np.maximum(cur[self._gain_px].mean(axis=1), 1.0)
        return float(np.median(ratio))

    def measure(self, image: np.ndarray, detections: sv.Detections) -> tuple[set[str], set[str]]:
        """(covered, bare): zones at least `min_fraction` covered by something no detection explains, and zones
        under `bare_fraction` different from the empty table at all."""
        cur = self._prepare(image)
        gain = self._gain(cur)
        differs = np.abs(cur * gain - self._ref).max(axis=2) > self.pixel_threshold
        n = len(self.names) + 1
        all_frac = np.bincount(self._labels[differs], minlength=n) / np.maximum(self._area, 1.0)
        for x0, y0, x1, y1 in np.round(np.asarray(detections.xyxy, np.float64) * self.scale).astype(int):
            differs[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = False  # what a box explains
        frac = np.bincount(self._labels[differs], minlength=n) / np.maximum(self._area, 1.0)
        covered = {self.names[k] for k in np.flatnonzero(self._measured & (frac[1:] >= self.min_fraction))}
        bare = {self.names[k] for k in np.flatnonzero(self._measured & (all_frac[1:] < self.bare_fraction))}
        return covered, bare
