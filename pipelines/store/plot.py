"""Hold against theoretical hold over time, with the fair game's 95 % band (matplotlib, Agg)."""

from __future__ import annotations

from typing import Any


def plot_hold(rows: list[dict[str, Any]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in rows if r.get("drop_vision")]
    days = [r["shift_date"] for r in rows]
    hold = [100 * (r["hold_pct"] or 0) for r in rows]
    theo = [100 * (r["theo_hold_pct"] or 0) for r in rows]
    lo = [100 * r["band_lo"] / r["drop_vision"] if r["band_lo"] is not None else None for r in rows]
    hi = [100 * r["band_hi"] / r["drop_vision"] if r["band_hi"] is not None else None for r in rows]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    if all(v is not None for v in lo + hi) and rows:
        ax.fill_between(days, lo, hi, alpha=0.2, label="fair game 95 % band")
    ax.plot(days, theo, "--", label="theoretical hold %")
    ax.plot(days, hold, "o-", label="hold % (vision)")
    ax.set_xlabel("shift date")
    ax.set_ylabel("% of drop")
    ax.set_title("Hold vs theoretical hold")
    ax.legend()
    fig.autofmt_xdate()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
