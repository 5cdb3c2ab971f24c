"""The games core: cards, shoes, hand evaluators, paytables, settlement and exact odds.

Pure functions and pydantic models; imports nothing else of the project and does no I/O beyond reading
its bundled paytable and layout files.

Settlement API (the same for every game; see `registry.py`)::

    from pipelines.games.registry import game_module
    game = game_module("king-high")            # or "high-tie", "3-card-monster", "pick-2-poker"
    settings = game.Settings()                 # table settings; defaults are RULES.md's
    results = game.settle(round, settings)     # list[Settlement], in the manual's settlement order
    for s in results:
        print(s.seat, s.spot, s.outcome, s.net, s.line, s.rule)

`round` is a `round.Round` (wagers, cards by owner, decisions, void). Each `Settlement` says the amount
settled after table limits, the outcome (win, lose, push, returned), the player's net, the paytable line,
its position in the manual's order and the manual section that decides it. One worked example per game,
each run as a test, is in the docstring of its module:

- King High: `king_high.py`
- High Tie Blackjack: `high_tie.py`
- 3 Card Monster with the 4 Card Royal Family Bonus: `three_card_monster.py`
- Pick 2 Poker: `pick2_poker.py`

Exact odds: `game.odds(settings)` -> list[`odds.WagerOdds`] for every wager that needs no player decision
(combinatorial enumeration over the shoe, never Monte Carlo), and `game.house_edges(settings)` -> the edge
per spot that theoretical win uses. `tablewatch odds` prints them.
"""
