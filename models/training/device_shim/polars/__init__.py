# Device-only stand-in: ultralytics reads its results.csv through polars; the GPU image lacks polars and
# the real wheel is too large to carry. Only the calls the trainer makes are provided.
import csv
import io
from pathlib import Path


class DataFrame:
    def __init__(self, rows):
        self.rows = list(rows)

    def to_dict(self, as_series=False):
        keys = list(self.rows[0]) if self.rows else []
        return {k: [r[k] for r in self.rows] for k in keys}

    def write_csv(self):
        buf = io.StringIO()
        if self.rows:
            w = csv.DictWriter(buf, fieldnames=list(self.rows[0]))
            w.writeheader()
            w.writerows(self.rows)
        return buf.getvalue()


def read_csv(data, infer_schema_length=None):
    text = data.decode() if isinstance(data, bytes) else Path(data).read_text()
    rows = []
    for r in csv.DictReader(io.StringIO(text)):
        rows.append({k.strip(): _num(v) for k, v in r.items()})
    return DataFrame(rows)


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return v
