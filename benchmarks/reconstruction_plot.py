"""The reconstruction benchmark's figures as a picture: what became of each game's rounds, and what kept the
incomplete ones from being exact (`benchmarks/reconstruction.py --plot FILE`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

# Outcome segments, left to right, as `segment_counts` gives them: (label, colour).
SEGMENTS = (("exact", "#2e7d32"),
            ("review: read right all the same", "#f9a825"),
            ("review: the doubt caught a misread", "#ef6c00"),
            ("wrong", "#c62828"))


def segment_counts(t: dict) -> list[int]:
    """A game's rounds split as SEGMENTS lists them; they add up to its rounds."""
    right = t.get("incomplete_right", 0)
    return [t["exact"], right, t["incomplete"] - right, t["wrong"]]


def plot_reconstruction(per_game: dict[str, dict], path: Path, title: str) -> None:
    """Two panels: per game, a bar of its rounds by outcome; beside it, incomplete rounds by the kinds of
    doubt their notes hold (a round counts once under each kind it holds), with how many of them were read
    right all the same (`doubts_right`: reviews those doubts cost for nothing)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = list(per_game)
    kinds = sorted({k for t in per_game.values() for k in t["doubts"]},
                   key=lambda k: -sum(t["doubts"].get(k, 0) for t in per_game.values()))
    fig, (bars, heat) = plt.subplots(1, 2, figsize=(13, 1.2 + 0.8 * len(games)),
                                     gridspec_kw={"width_ratios": [3, 2]})
    y = np.arange(len(games))[::-1]
    left = np.zeros(len(games))
    counts = np.array([segment_counts(per_game[g]) for g in games], float)
    for k, (label, colour) in enumerate(SEGMENTS):
        bars.barh(y, counts[:, k], left=left, color=colour, label=label)
        for yi, (x0, n) in enumerate(zip(left, counts[:, k], strict=True)):
            if n:
                bars.text(x0 + n / 2, y[yi], f"{int(n)}", ha="center", va="center", color="white", fontsize=9)
        left += counts[:, k]
    bars.set_yticks(y, [f"{g}\n{100 * per_game[g]['exact'] / max(1, per_game[g]['rounds']):.0f} % exact"
                        for g in games])
    bars.set_xlabel("rounds")
    bars.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25 if len(games) > 2 else -0.4), ncol=2, fontsize=8)
    heat.set_title("incomplete rounds by what their notes say (of them read right)", fontsize=10)
    if kinds:
        grid = np.array([[per_game[g]["doubts"].get(k, 0) for k in kinds] for g in games])
        heat.imshow(grid, cmap="Oranges", aspect="auto")
        right = np.array([[per_game[g].get("doubts_right", {}).get(k, 0) for k in kinds] for g in games])
        for (i, j), n in np.ndenumerate(grid):
            text = f"{n}\n({right[i, j]} right)" if right[i, j] else str(n)
            heat.text(j, i, text, ha="center", va="center", fontsize=8,
                      color="white" if n > grid.max() / 2 else "black")
        heat.set_xticks(range(len(kinds)), [k.replace("_", " ") for k in kinds], rotation=35, ha="right",
                        fontsize=8)
        heat.set_yticks(range(len(games)), games, fontsize=8)
    else:
        heat.axis("off")
        heat.text(0.5, 0.5, "none", ha="center", va="center")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
