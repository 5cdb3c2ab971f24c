"""The perfect observation of a simulator scene (`SceneObservation`, a part of `ZoneMapper`): what a detector that
never errs would report, and how much of each zone the dealer's hands and arms cover. Perfect mode and the
benchmarks read rounds through it."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from pipelines.games.layout import Layout

from .observe import CardObs, FrameObs, ZoneObs, cards_in_table_order

if TYPE_CHECKING:
    from pipelines.sim.scene import Scene


class SceneObservation:
    """`ZoneMapper` on a simulator scene instead of detections."""

    layout: Layout
    H_table_to_image: np.ndarray
    frame_size: tuple[int, int]

    def occluded_zones(self, scene: Scene, min_fraction: float = 0.25) -> set[str]:
        """Zones of a simulator Scene at least `min_fraction` covered by the dealer's hands and arms."""
        return {name for name, frac in self.occluded_fractions(scene).items() if frac >= min_fraction}

    def occluded_fractions(self, scene: Scene) -> dict[str, float]:
        """The share of each card and chip zone of a simulator Scene under the dealer's hands and arms (zones
        with none left out)."""
        from pipelines.sim.render import _in_occluder

        if not scene.occluders:
            return {}
        pts, owner = self._zone_samples()
        covered = np.zeros(len(pts), bool)
        for oc in scene.occluders:
            covered |= _in_occluder(oc, self.layout, pts)
        zones = self._card_zones + self._chip_zones
        frac = np.bincount(owner, covered, len(zones)) / np.maximum(np.bincount(owner, None, len(zones)), 1)
        return {zones[i].name: float(frac[i]) for i in np.flatnonzero(frac > 0)}

    def _zone_samples(self) -> tuple[np.ndarray, np.ndarray]:
        """A 7x7 grid of points inside every card and chip zone (cached), and the zone index of each."""
        if not hasattr(self, "_samples"):
            pts, owner = [], []
            for k, g in enumerate(self._card_zones + self._chip_zones):
                lo, hi = g.polygon.min(axis=0), g.polygon.max(axis=0)
                gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 7), np.linspace(lo[1], hi[1], 7))
                p = np.stack([gx.ravel(), gy.ravel()], 1)
                p = p[g.path.contains_points(p)]
                if not len(p):
                    p = g.polygon.mean(axis=0, keepdims=True)
                pts.append(p)
                owner.append(np.full(len(p), k))
            self._samples = (np.concatenate(pts), np.concatenate(owner))
        return self._samples

    def observe_scene(self, scene: Scene) -> FrameObs:
        """The perfect observation of a simulator Scene: every object the renderer would label (not hidden
        under the dealer's hand, later objects or the frame edge), each stack in the zone of its centre."""
        from pipelines.sim.camera import Camera
        from pipelines.sim.render import HIDDEN_LIMIT, _hidden, _objects

        camera = Camera(H=self.H_table_to_image, size=self.frame_size)
        objs = _objects(scene)
        hidden = _hidden(objs, scene, self.layout, camera)
        visible = [o for o, h in zip(objs, hidden, strict=True) if h <= HIDDEN_LIMIT]
        obs: dict[str, ZoneObs] = defaultdict(ZoneObs)
        placed = {(round(c.x, 6), round(c.y, 6)): c for c in scene.cards}
        card_objs = [o for o in visible if o.kind == "card"]
        if card_objs:
            pts = np.array([o.centre for o in card_objs])
            for o, zones in zip(card_objs, self.card_zones(pts), strict=True):
                pc = placed[(round(float(o.centre[0]), 6), round(float(o.centre[1]), 6))]
                face = bool(pc.face_up and pc.card)
                c = CardObs(card=pc.card if face else None, face_up=face, back=None if face else pc.back,
                            x_mm=float(o.centre[0]), y_mm=float(o.centre[1]))
                for z in zones:
                    obs[z].cards.append(c)
        if scene.chips:
            zones = self.stack_zone(np.array([[s.x, s.y] for s in scene.chips]))
            for o in visible:
                if o.kind == "chip" and zones[o.stack] is not None:
                    obs[zones[o.stack]].chips.append(int(o.cls[5:]))
            # A payout is the one stack a dealer may spread next to another: read partly, it is unsure. Any stack so
            # read has a chip under another stack's, as `observe` finds by geometry (`_under_chip_room`).
            paid = {z.name for z in self.layout.zones_of("paid")}
            for st in self._stacks_under_objects(objs, hidden, scene, camera):
                zo = obs.get(zones[st])  # a plain get: a stack not seen at all is no zone's reading
                if zo is None:
                    continue
                zo.chips_under_room = True
                if zones[st] in paid:
                    zo.chips_uncertain = zo.chips_doubt_other = True
        return cards_in_table_order(obs)

    def _stacks_under_objects(self, objs: list, hidden: list[float], scene: Scene, camera: object) -> set[int]:
        """Stacks seen in part, the rest under other chips rather than the dealer's hand: a detector
        would count such a stack short, so its total is not to be trusted."""
        from dataclasses import replace

        from pipelines.sim.render import HIDDEN_LIMIT, _hidden

        seen = {o.stack for o, h in zip(objs, hidden, strict=True) if o.kind == "chip" and h <= HIDDEN_LIMIT}
        part = {o.stack for o, h in zip(objs, hidden, strict=True)
                if o.kind == "chip" and h > HIDDEN_LIMIT and o.stack in seen}
        if not part:
            return set()
        if not scene.occluders:
            return part
        bare = _hidden(objs, replace(scene, occluders=[]), self.layout, camera)
        return {o.stack for o, h in zip(objs, bare, strict=True) if o.kind == "chip" and h > HIDDEN_LIMIT
                and o.stack in part}
