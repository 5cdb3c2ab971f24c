"""A toy game with the games-module contract, for tests and benchmarks of reconcile/ and store/.

Each seat's first card against the dealer's first card: `ante` and `play` pay 1 to 1 when the seat's is
higher, lose when lower, push on equal ranks; the `bonus` side bet pays 3 to 1 on a pair in the seat's
first two cards. Losers are settled first (seat 1 up), then winners, then bonuses. Voided rounds return
every wager. It stands in for a real game so these packages test without depending on one."""

from __future__ import annotations

from pydantic import BaseModel, Field

from pipelines.games.cards import rank
from pipelines.games.odds import OddsLine, WagerOdds
from pipelines.games.round import Round
from pipelines.games.settlement import Settlement, TableLimits, apply_limits, win

SPOTS = ("ante", "play", "bonus")
RULE = "Toy manual, Paying"


class Settings(BaseModel):
    decks: int = 1
    limits: TableLimits = Field(default_factory=TableLimits)
    bonus_pays: float = 3.0


def settle(round: Round, settings: Settings) -> list[Settlement]:
    dealer = round.cards_of("dealer")
    out: list[tuple[int, Settlement]] = []
    for w in round.wagers:
        amount, violation = apply_limits(w.amount, w.spot, settings.limits)
        mine = round.cards_of(f"seat:{w.seat}")
        if round.status == "voided":
            outcome, line, odds = "returned", "void", 0.0
        elif w.spot == "bonus":
            pair = len(mine) >= 2 and mine[0][0] == mine[1][0]
            outcome, line, odds = ("win", "pair", settings.bonus_pays) if pair else ("lose", "no_pair", 0.0)
        else:
            a, b = rank(mine[0]), rank(dealer[0])
            outcome, line, odds = ("win", "higher", 1.0) if a > b else (
                ("lose", "lower", 0.0) if a < b else ("push", "tie", 0.0))
        net = win(amount, odds) if outcome == "win" else (-amount if outcome == "lose" else 0.0)
        phase = 2 if w.spot == "bonus" else (0 if outcome == "lose" else 1)
        out.append(((phase * 100 + w.seat) * 10 + SPOTS.index(w.spot), Settlement(
            seat=w.seat, spot=w.spot, hand=w.hand, wagered=w.amount, amount=amount, outcome=outcome,
            net=net, line=line, order=0, rule=RULE, limit_violation=violation)))
    out.sort(key=lambda t: t[0])
    return [s.model_copy(update={"order": i}) for i, (_, s) in enumerate(out)]


def odds(settings: Settings) -> list[WagerOdds]:
    p_pair = 3 / 51
    lines = [OddsLine(line="pair", probability=p_pair, pays=settings.bonus_pays),
             OddsLine(line="no_pair", probability=1 - p_pair, pays=-1.0)]
    edge = -sum(x.probability * x.pays for x in lines)
    return [WagerOdds(game="toy", wager="bonus", paytable="toy", house_edge=edge, lines=lines)]


def house_edges(settings: Settings) -> dict[str, float]:
    return {"ante": 0.0, "bonus": odds(settings)[0].house_edge}


def lookup(game: str) -> object:
    """A `games=` lookup that plays every game id as the toy game."""
    import sys

    return sys.modules[__name__]
