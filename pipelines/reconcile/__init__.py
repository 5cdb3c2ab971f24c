"""Reconciliation: what should have happened (games/) against what was seen (rounds/), as flags."""

from .config import ReconcileConfig, load_table_settings
from .flag import FLAG_TYPES, Flag, flag_id_for
from .reconcile import Reconciled, reconcile, reconcile_detailed

__all__ = ["FLAG_TYPES", "Flag", "ReconcileConfig", "Reconciled", "flag_id_for", "load_table_settings",
           "reconcile", "reconcile_detailed"]
