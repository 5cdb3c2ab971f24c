"""How a wager's spot was read surely between the frame the wager was laid and the close that locked it, by whether
its chips lay clear of every other stack: the measurement `SettlementDoubts._doubt_read_more_before_close` rests on.

A larger total read surely before the close puts the locked amount in doubt (a chip of it may go unseen in the other
frames) only where it was read so in a frame the stack lay clear of every other (not
`ZoneObs.chips_against_other`): where stacks meet, a chip of the one beside it, or a box that is no chip, may be counted
in it. For every wager of the sets `benchmarks/reconstruction.py --mode video --cache DIR` rendered and looked at, laid
before a close (not as a decision), each analysed frame from its laying to that close whose reading of its spot is
confident: is it what the scripted scene holds there (right), more or less, and did the stack lie clear or against
another? Then per wager: was it read surely as more than it is in some frame, clear of others, or only against others
(the rule's cost: a right wager so read is left in doubt); and of the wagers read surely as less than they are in some
frame (a chip unseen), was the whole read surely clear of others, only against others, or never (the rule's blind
spot: a wager locked short whose whole was read only against others is not doubted).

    python benchmarks/readings_before_close.py --cache DIR [--sets NAME ...] [--json]
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from cached_sets import load_set_rounds, set_arguments, set_folders

VERDICTS = ("right", "more", "less")
SHORT = ("whole clear", "whole only against", "never whole")


def _verdict(read: float, there: float) -> str:
    return "right" if abs(read - there) < 0.005 else "more" if read > there else "less"


def readings_of(folder: Path) -> tuple[Counter, Counter, Counter]:
    """{(verdict, "clear" | "against"): frames} over the set's wagers' spots before their close; per wager
    {"more clear" | "more only against" | "never more": wagers}; and per wager read less in some frame
    {"whole clear" | "whole only against" | "never whole": wagers}."""
    looked, scripted, mapper = load_set_rounds(folder)
    scenes = [s for r in scripted for s in r.scenes]
    # frame -> [(zone, wager key)] for each wager laid before a close, from its laying to that close
    watch: dict[int, list[tuple[str, tuple]]] = {}
    for r in scripted:
        closes = sorted(e.frame for e in r.round.events if e.type == "bets_closed")
        for w in r.round.wagers:
            close = next((c for c in closes if c > w.frames.start), None)
            if close is None:
                continue  # laid as a decision, after the last close: locked as laid
            key = (r.round.round_id, w.seat, w.spot, w.frames.start)
            for f in range(w.frames.start, close + 1):
                watch.setdefault(f, []).append((f"seat{w.seat}.{w.spot}", key))
    frames: Counter = Counter()
    seen: dict[tuple, set[tuple[str, str]]] = {}  # wager -> {(verdict, lay)}
    for i, detections in enumerate(looked):
        obs = mapper.observe(detections)  # every frame in order: the mapper remembers what earlier ones showed
        if i not in watch:
            continue
        truth = mapper.observe_scene(scenes[i])
        for zone, key in watch[i]:
            seen.setdefault(key, set())
            zo = obs.get(zone)
            if zo is None or not zo.chips or zo.chips_uncertain or zo.cards:
                continue
            there = truth[zone].chip_total if zone in truth else 0.0
            verdict = _verdict(zo.chip_total, there)
            lay = "against" if zo.chips_against_other else "clear"
            frames[(verdict, lay)] += 1
            seen[key].add((verdict, lay))
    wagers = Counter("more clear" if ("more", "clear") in s else "more only against" if ("more", "against") in s
                     else "never more" for s in seen.values())
    short = Counter("whole clear" if ("right", "clear") in s else "whole only against" if ("right", "against") in s
                    else "never whole" for s in seen.values() if {("less", "clear"), ("less", "against")} & s)
    return frames, wagers, short


def main(argv: list[str] | None = None) -> int:
    args = set_arguments(__doc__).parse_args(argv)
    frames: Counter = Counter()
    wagers: Counter = Counter()
    short: Counter = Counter()
    for folder in set_folders(args.cache, args.sets):
        got, per_wager, read_short = readings_of(folder)
        frames.update(got)
        wagers.update(per_wager)
        short.update(read_short)
        print(f"{folder.name:32s} {sum(got.values()):>5d} sure readings, {sum(per_wager.values()):>3d} wagers, "
              f"read more clear of others {per_wager['more clear']}, only against others "
              f"{per_wager['more only against']}", flush=True)
    print("sure readings before the close | clear of others | against another stack")
    for v in VERDICTS:
        print(f"{v:>30s} | {frames[(v, 'clear')]:>15d} | {frames[(v, 'against')]:>21d}")
    print("wagers read surely as more than they are before the close: "
          + ", ".join(f"{k} {wagers[k]}" for k in ("more clear", "more only against", "never more")))
    print("wagers read surely as less than they are before the close, their whole read surely: "
          + ", ".join(f"{k} {short[k]}" for k in SHORT))
    if args.json:
        print(json.dumps({"frames": {v: {lay: frames[(v, lay)] for lay in ("clear", "against")} for v in VERDICTS},
                          "wagers": {k: wagers[k] for k in ("more clear", "more only against", "never more")},
                          "read_short": {k: short[k] for k in SHORT}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
