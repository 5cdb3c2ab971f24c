"""Reconciliation: what should have happened (games/) against what was seen (rounds/), as flags."""

from pipelines.bus.topics import FLAGS, register_topic_model

from .config import ReconcileConfig, load_table_settings
from .flag import FLAG_TYPES, Flag, flag_id_for
from .reconcile import Reconciled, reconcile, reconcile_detailed

# The bus validates the "flags" topic against this stage's Flag; the bus itself never imports reconcile.
register_topic_model(FLAGS, Flag)

__all__ = ["FLAG_TYPES", "Flag", "ReconcileConfig", "Reconciled", "flag_id_for", "load_table_settings",
           "reconcile", "reconcile_detailed"]
