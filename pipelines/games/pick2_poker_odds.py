"""Pick 2 Poker odds: the bonuses exactly, by enumerating all C(52, 5) = 2,598,960 player hands
(vectorised; ~3 s once, then cached), and the Ante/Play edges by Monte Carlo under a simple strategy.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .odds import OddsLine, WagerOdds, edge_from_lines
from .pick2_poker import GAME, Settings, bonus35_result, tables
from .poker_paylines import (
    all_combos,
    best3_scores,
    five_card_classes,
    five_card_keys,
    paid_line,
    three_card_lookup,
)


@cache
def _joint_counts() -> list[tuple[int, int, int, int]]:
    """(Hand5 category, pair rank, best-3 score, number of hands) over every 5-card hand."""
    hands = all_combos(5)
    cat, pair_rank = five_card_classes(hands)
    _, evals = three_card_lookup()
    key = (cat.astype(np.int64) * 16 + pair_rank) * len(evals) + best3_scores(hands)
    keys, counts = np.unique(key, return_counts=True)
    return [(int(k // len(evals) // 16), int(k // len(evals) % 16), int(k % len(evals)), int(n))
            for k, n in zip(keys.tolist(), counts.tolist(), strict=True)]


def _lines(tally: dict[str, tuple[float, int]], total: int) -> list[OddsLine]:
    return [OddsLine(line=name, probability=n / total, pays=pays, combinations=n)
            for name, (pays, n) in sorted(tally.items(), key=lambda kv: (-kv[1][0], kv[0]))]


def bonus_odds(settings: Settings) -> list[WagerOdds]:
    pt = tables(settings)
    _, evals = three_card_lookup()
    joint = _joint_counts()
    total = sum(n for *_, n in joint)
    b35: dict[str, tuple[float, int]] = {}
    b5: dict[str, tuple[float, int]] = {}
    miss35 = 0.0 if settings.bonus_nonqualifying == "push" else -1.0
    for cat, pair_rank, score3, n in joint:
        e5 = (cat, pair_rank)  # category and pair rank are all a paytable line looks at
        hit = bonus35_result(pt, e5, evals[score3])
        name, pays = hit if hit else ("no_qualifying_hand", miss35)
        b35[name] = (pays, b35.get(name, (pays, 0))[1] + n)
        hit5 = paid_line(pt["bonus5"], e5, False)
        name, pays = hit5 if hit5 else ("no_qualifying_hand", -1.0)
        b5[name] = (pays, b5.get(name, (pays, 0))[1] + n)
    dump = settings.model_dump(mode="json")
    lines35, lines5 = _lines(b35, total), _lines(b5, total)
    return [
        WagerOdds(game=GAME, wager="bonus35", paytable=f"{pt['five'].name}+{pt['three'].name}",
                  house_edge=edge_from_lines(lines35), lines=lines35, total_combinations=total, settings=dump,
                  note=(f"Assumes the player plays (a fold loses it). A hand meeting neither table is "
                        f"'{settings.bonus_nonqualifying}' (RULES.md bonus_nonqualifying); lines add the "
                        "five-card and three-card (best 3 of 5) pays.")),
        WagerOdds(game=GAME, wager="bonus5", paytable=pt["bonus5"].name, house_edge=edge_from_lines(lines5),
                  lines=lines5, total_combinations=total, settings=dump,
                  note="The player's 5 cards; assumes the player plays (a fold loses it)."),
    ]


def _deal(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    picks = rng.random((n, 52)).argsort(axis=1)[:, :10]
    return np.sort(picks[:, :5], axis=1), np.sort(picks[:, 5:], axis=1)


@cache
def _estimate(settings_json: str, samples: int, seed: int) -> dict[str, float]:
    settings = Settings.model_validate_json(settings_json)
    pt = tables(settings)
    _, evals = three_card_lookup()
    rng = np.random.default_rng(seed)
    ante_on_nonqualify = 1.0 if settings.nonqualify == "ante_wins_play_pushes" else 0.0
    miss35 = 0.0 if settings.bonus_nonqualifying == "push" else -1.0
    # the 3-5 Bonus of a played hand, by (category, pair rank, best-3 score), from the exact table
    b35_of = {(c, p, s): (h[1] if (h := bonus35_result(pt, (c, p), evals[s])) else miss35)
              for c, p, s, _ in _joint_counts()}

    def deal(n: int) -> dict[str, np.ndarray]:
        player, dealer = _deal(rng, n)
        pk, dk = five_card_keys(player), five_card_keys(dealer)
        p3, d3 = best3_scores(player), best3_scores(dealer)
        cat, pair_rank = five_card_classes(player)
        dr = dealer // 4
        qualified = (dk >= 1 * 16**5) | ((dr[:, 4] == 12) & (dr[:, 3] == 11))
        sign5 = np.sign(pk - dk).astype(float)
        sign3 = np.sign(p3.astype(int) - d3).astype(float)
        return {
            "v5": np.where(qualified, 2 * sign5, ante_on_nonqualify),  # Ante + Play (= Ante)
            "ante5": np.where(qualified, sign5, ante_on_nonqualify),
            "play5": np.where(qualified, sign5, 0.0),
            "v3": 3 * sign3,  # Ante + Play (= 2 x Ante), no qualifier
            "sign3": sign3,
            "class5": pk // 16**3,  # category and the two leading tiebreak ranks
            "p3": p3,
            "b35": np.array([b35_of[(c, p, s)] for c, p, s in
                             zip(cat.tolist(), pair_rank.tolist(), p3.tolist(), strict=True)]),
        }

    # learn the expected Ante + Play of each choice per hand class on one sample ...
    a = deal(samples)
    n5 = np.bincount(a["class5"])
    e5 = np.bincount(a["class5"], weights=a["v5"]) / np.maximum(n5, 1)
    n3 = np.bincount(a["p3"], minlength=len(evals))
    e3 = np.bincount(a["p3"], weights=a["v3"], minlength=len(evals)) / np.maximum(n3, 1)
    # ... and play the other: the better of play3/play5 if it, with the bonus, beats folding (-2 units)
    b = deal(samples)
    c5 = np.minimum(b["class5"], len(e5) - 1)
    value5 = np.where(b["class5"] < len(e5), e5[c5], -2.0)
    value3 = e3[b["p3"]]
    play3 = value3 > value5
    plays = np.maximum(value3, value5) + b["b35"] > -2.0
    ante = np.where(plays, np.where(play3, b["sign3"], b["ante5"]), -1.0)
    play_amount = np.where(plays, np.where(play3, 2.0, 1.0), 0.0)
    play = np.where(plays, np.where(play3, 2 * b["sign3"], b["play5"]), 0.0)
    bonus = np.where(plays, b["b35"], -1.0)
    game = ante + play + bonus
    return {
        "ante": float(-ante.mean()),
        "play": float(-play.sum() / play_amount.sum()),
        "game": float(-game.mean()),
        "game_stderr": float(game.std() / np.sqrt(samples)),
        "fold_rate": float(1 - plays.mean()),
        "play3_rate": float((plays & play3).mean()),
        "samples": float(samples),
    }


def ante_play_estimate(settings: Settings, samples: int = 100_000, seed: int = 20240611) -> dict[str, float]:
    """Monte Carlo house edges, an approximation (standard error `game_stderr`): `ante` per unit Ante
    (folds lose it), `play` per unit Play wagered, `game` = Ante + Play + 3-5 Bonus per unit Ante.
    Strategy: per hand class (best-3 hand; 5-card category with two leading ranks) the expected
    Ante + Play of play3 and play5 is learned on one sample; on an independent sample the player takes
    the better, or folds when that plus the hand's 3-5 Bonus result is below the fold's -2 units."""
    return _estimate(settings.model_dump_json(), samples, seed)
