"""Pairing two sets of things one to one by distance, nearest pairs first."""

from __future__ import annotations

import numpy as np


def nearest_first(d: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """For each row of the distance matrix `d` (N, M), the column it is paired with, or -1: pairs are taken
    nearest first, each row and column at most once, among those `ok` (N, M) allows (greedy: the closest pair
    claims both its ends, whatever that leaves the others)."""
    partner = np.full(d.shape[0], -1)
    free = np.ones(d.shape[1], bool)
    if not d.size:
        return partner
    for flat in np.argsort(np.where(ok, d, np.inf), axis=None):
        i, j = divmod(int(flat), d.shape[1])
        if not ok[i, j]:
            break  # every pair left is one `ok` rules out: they sort last
        if partner[i] < 0 and free[j]:
            partner[i], free[j] = j, False
    return partner
