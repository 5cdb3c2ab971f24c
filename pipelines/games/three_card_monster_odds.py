"""3 Card Monster odds: exact bonus odds by enumerating all C(52, 4) = 270,725 player hands, and a
Monte Carlo estimate of the Ante and Play edges under a simple strategy (a decision game has no
decision-free exact figure).
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache

import numpy as np

from .odds import OddsLine, WagerOdds, edge_from_lines
from .paytables import Paytable
from .poker_paylines import all_combos, best3_scores, paid_line, three_card_lookup
from .three_card_monster import DEALER_QUALIFIER, GAME, Settings, tables
from .three_card_monster_royal import royal_masks

NOTE_PLAYS = ("Assumes the player plays: a fold forfeits it (Dealer Procedures 4). Paytable {name!r}"
              "{example}; single deck, the player's 4 cards.")


def _odds(wager: str, table: Paytable, counts: dict[str, int], total: int, settings: Settings,
          note: str) -> WagerOdds:
    lines = [OddsLine(line=x.line, probability=counts.get(x.line, 0) / total, pays=x.pays,
                      combinations=counts.get(x.line, 0)) for x in table.lines]
    missed = total - sum(counts.values())
    lines.append(OddsLine(line="no_qualifying_hand", probability=missed / total, pays=-1.0, combinations=missed))
    return WagerOdds(game=GAME, wager=wager, paytable=table.name, house_edge=edge_from_lines(lines), lines=lines,
                     total_combinations=total, settings=settings.model_dump(mode="json"), note=note)


def _note(table: Paytable) -> str:
    return NOTE_PLAYS.format(name=table.name, example=" (an EXAMPLE, not from the manual)" if table.example else "")


@cache
def _monster_score_counts() -> np.ndarray:
    """How many 4-card hands have each best-3 score."""
    _, evals = three_card_lookup()
    return np.bincount(best3_scores(all_combos(4)), minlength=len(evals))


@cache
def _royal_counts(lines: tuple[str, ...]) -> dict[str, int]:
    masks = royal_masks(all_combos(4))
    taken = np.zeros(len(all_combos(4)), dtype=bool)
    counts = {}
    for line in lines:  # a hand is paid the first line it meets
        hit = masks[line] & ~taken
        counts[line] = int(hit.sum())
        taken |= hit
    return counts


def bonus_odds(settings: Settings) -> list[WagerOdds]:
    pt = tables(settings)
    _, evals = three_card_lookup()
    total = len(all_combos(4))
    counts: dict[str, int] = {}
    for score, n in enumerate(_monster_score_counts().tolist()):
        hit = paid_line(pt["monster"], evals[score], three_card=True)
        if hit and n:
            counts[hit[0]] = counts.get(hit[0], 0) + n
    monster = _odds("monster", pt["monster"], counts, total, settings, _note(pt["monster"]))
    royal_table = pt["royal"]
    royal = _odds("royal", royal_table, _royal_counts(tuple(x.line for x in royal_table.lines)), total,
                  settings, _note(royal_table))
    return [monster, royal]


def _deal(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n random rounds: player 4 and dealer 3 card ids, each row sorted."""
    picks = rng.random((n, 52)).argsort(axis=1)[:, :7]
    return np.sort(picks[:, :4], axis=1), np.sort(picks[:, 4:], axis=1)


@cache
def _estimate(settings_json: str, samples: int, seed: int) -> dict[str, float]:
    settings = Settings.model_validate_json(settings_json)
    pt = tables(settings)
    score, evals = three_card_lookup()
    qualifier = bisect_left(evals, DEALER_QUALIFIER)
    ante_pays, play_pays = pt["ante_play"].pays("ante") or 0.0, pt["ante_play"].pays("play") or 0.0
    monster_net = np.array([(hit[1] if (hit := paid_line(pt["monster"], e, True)) else -1.0) for e in evals])
    m = settings.play_multiple
    rng = np.random.default_rng(seed)

    def outcomes(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        player, dealer = _deal(rng, n)
        p = best3_scores(player)
        d = score[dealer[:, 0], dealer[:, 1], dealer[:, 2]]
        ante = np.where(p > d, ante_pays, np.where(p < d, -1.0, 0.0))
        play = np.where(d < qualifier, 0.0, np.where(p > d, play_pays, np.where(p < d, -1.0, 0.0)))
        return p, ante, play, monster_net[p]

    # strategy from one half: play a best-3 score when Ante + Play + Monster beats folding (-2 units);
    # measure on the other half so the choice is not fitted to the same cards
    p, ante, play, monster = outcomes(samples)
    value = np.bincount(p, weights=ante + m * play + monster, minlength=len(evals))
    seen = np.bincount(p, minlength=len(evals))
    plays = np.where(seen > 0, value / np.maximum(seen, 1) > -2.0, True)
    p, ante, play, _ = outcomes(samples)
    played = plays[p]
    ante_net = np.where(played, ante, -1.0)
    return {
        "ante": float(-ante_net.mean()),
        "ante_stderr": float(ante_net.std() / np.sqrt(samples)),
        "play": float(-play[played].mean()),
        "play_stderr": float(play[played].std() / np.sqrt(played.sum())),
        "fold_rate": float(1.0 - played.mean()),
        "samples": float(samples),
    }


def ante_play_estimate(settings: Settings, samples: int = 100_000, seed: int = 20240611) -> dict[str, float]:
    """Monte Carlo house edge of the Ante (per unit Ante, folds counted as lost Antes) and of the Play
    (per unit Play wagered), under a per-hand-strength play/fold strategy learned from an independent
    sample. An approximation: `*_stderr` gives its standard error."""
    return _estimate(settings.model_dump_json(), samples, seed)
