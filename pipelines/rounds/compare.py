"""Reconstructed rounds against ground truth: exact, wrong or incomplete, with the first difference.

Exact means every card the camera could see (owner, order and face), every wager (seat, spot, hand,
choice, amount as locked), every decision and every observed settlement (outcome, amount paid, and the
order of the settlements the dealer visibly made) agree, and the status and void reason too. A card
that was never shown face up (a burn, a folded hand, the 3 Card Monster discard) counts when the
reconstruction leaves it unknown. An `incomplete` round is never counted wrong: it says it is unsure.
Its reading is still compared (`Verdict.right`): an incomplete round read right is review work its doubt
made for nothing, one read wrong is an error the doubt caught.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipelines.games.round import Round


@dataclass
class Verdict:
    round_id: str
    result: str  # exact | wrong | incomplete | missed | extra
    why: str = ""
    right: bool = False  # incomplete rounds: every fact as read agrees with the truth all the same
    caught: str = ""  # incomplete rounds read wrong: what the doubt kept from being a wrong round


def _visible(truth: Round) -> set[tuple[str, str]]:
    """(owner, card) pairs the camera was shown: dealt face up or turned over later."""
    shown = {(c.owner, c.card) for c in truth.cards if c.face_up and c.card}
    shown |= {(e.owner, e.card) for e in truth.events if e.type == "card_exposed" and e.card and e.owner}
    return shown


def differences(got: Round, truth: Round) -> list[str]:
    out: list[str] = []
    if got.status != truth.status:
        out.append(f"status {got.status} != {truth.status}")
    if (got.void and got.void.reason) != (truth.void and truth.void.reason):
        out.append(f"void {got.void} != {truth.void}")
    shown = _visible(truth)
    owners = sorted({c.owner for c in truth.cards} | {c.owner for c in got.cards})
    for owner in owners:
        want = [(c.card if (owner, c.card) in shown else None, c.face_up)
                for c in sorted(truth.cards, key=lambda c: c.seq) if c.owner == owner]
        have = [(c.card, c.face_up) for c in sorted(got.cards, key=lambda c: c.seq) if c.owner == owner]
        if want != have:
            out.append(f"cards of {owner}: {have} != {want}")
    def wkey(w):
        return (w.seat, w.spot, w.hand, w.choice, round(w.amount, 2))
    gw, tw = sorted(map(wkey, got.wagers)), sorted(map(wkey, truth.wagers))
    if gw != tw:
        out.append(f"wagers seen {[w for w in gw if w not in tw]} but true {[w for w in tw if w not in gw]}")
    def dkey(d):
        return (d.seat, d.hand, d.action, tuple(sorted(d.cards)) if d.cards else None)
    gd = [dkey(d) for d in sorted(got.decisions, key=lambda d: d.seq)]
    td = [dkey(d) for d in sorted(truth.decisions, key=lambda d: d.seq)]
    if gd != td:
        out.append(f"decisions {gd} != {td}")
    def skey(s):
        return (s.seat, s.spot, s.hand, s.outcome, round(s.paid, 2))
    gs, ts = sorted(map(skey, got.settlements)), sorted(map(skey, truth.settlements))
    if gs != ts:
        out.append(f"settlements seen {[s for s in gs if s not in ts]} but true {[s for s in ts if s not in gs]}")
    else:
        def order(r):
            return [(s.seat, s.spot, s.hand) for s in sorted(r.settlements, key=lambda s: s.seq)
                    if s.outcome != "push"]
        if order(got) != order(truth):
            out.append(f"settlement order {order(got)} != {order(truth)}")
    return out


def _overlap(a: Round, b: Round) -> int:
    if a.frames is None or b.frames is None:
        return 0
    return max(0, min(a.frames.end, b.frames.end) - max(a.frames.start, b.frames.start) + 1)


def compare_rounds(got: list[Round], truth: list[Round]) -> list[Verdict]:
    """Pair each true round with the reconstructed round of the same id (table and start time), else with
    the one sharing most of its frames (at least half of them): a round first seen a frame or two late
    is the same round. Classify each true round; reconstructed rounds left over are extra."""
    by_id = {r.round_id: r for r in got}
    verdicts = []
    for t in truth:
        g = by_id.pop(t.round_id, None)
        if g is None and t.frames is not None:
            best = max(by_id.values(), key=lambda r: _overlap(r, t), default=None)
            if best is not None and 2 * _overlap(best, t) >= t.frames.end - t.frames.start + 1:
                g = by_id.pop(best.round_id)
        if g is None:
            verdicts.append(Verdict(t.round_id, "missed", "no reconstructed round covers most of its frames"))
            continue
        diff = differences(g, t)
        if g.status == "incomplete" and t.status != "incomplete":
            caught = differences(g.model_copy(update={"status": t.status}), t)  # the doubt aside
            verdicts.append(Verdict(t.round_id, "incomplete", "; ".join(g.notes), right=not caught,
                                    caught="; ".join(caught)))
        elif diff:
            verdicts.append(Verdict(t.round_id, "wrong", "; ".join(diff)))
        else:
            verdicts.append(Verdict(t.round_id, "exact"))
    verdicts += [Verdict(r.round_id, "extra", "no true round covers most of its frames") for r in by_id.values()]
    return verdicts


def tally(verdicts: list[Verdict]) -> dict[str, int]:
    """rounds / exact / wrong / incomplete, and how many incomplete rounds were read right all the same
    (`incomplete_right`); a missed true round counts wrong, an extra one too."""
    n = sum(1 for v in verdicts if v.result != "extra")
    return {"rounds": n, "exact": sum(v.result == "exact" for v in verdicts),
            "wrong": sum(v.result in ("wrong", "missed", "extra") for v in verdicts),
            "incomplete": sum(v.result == "incomplete" for v in verdicts),
            "incomplete_right": sum(v.result == "incomplete" and v.right for v in verdicts)}
