"""Evidence bundles: one flagged round as a zip whose digests are chained into the audit log.

The zip holds the round document, the rule computation (expected settlement), the flags, the
detections and the clip/frames where the store has them, and `manifest.json` listing the SHA-256 of
every file. The manifest's own SHA-256 is written into the audit log (whose rows are hash-chained)
before the zip is handed out, and `audit.json` in the zip names that row, so a bundle can later be
checked against the log: any changed file, or a manifest the log never saw, fails `verify_bundle`.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import audit
from .db import Database


def _dump(obj: Any) -> bytes:
    return json.dumps(obj, indent=2, sort_keys=True, default=str).encode()


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class BundleContents:
    round_id: str
    round_doc: dict[str, Any]
    expected: list[dict[str, Any]]
    flags: list[dict[str, Any]]
    media: list[Path]  # snapshot frames and clips that exist on disk
    detections: list[Path]  # detector output files that exist on disk
    missing: list[str]  # paths the store names that are not on disk (listed, not silently dropped)


def build_bundle(db: Database, contents: BundleContents, username: str) -> tuple[bytes, audit.AuditEntry]:
    files: dict[str, bytes] = {
        "round.json": _dump(contents.round_doc),
        "expected_settlement.json": _dump(contents.expected),
        "flags.json": _dump(contents.flags),
    }
    for sub, path in [("media", p) for p in contents.media] + [("detections", p) for p in contents.detections]:
        name = f"{sub}/{path.name}"
        while name in files:  # two frames with one name in different folders
            name = f"{sub}/{_sha(str(path).encode())[:8]}_{path.name}"
        files[name] = path.read_bytes()
    manifest = {
        "round_id": contents.round_id,
        "files": {name: _sha(data) for name, data in sorted(files.items())},
        "missing": contents.missing,
    }
    manifest_bytes = _dump(manifest)
    manifest_sha = _sha(manifest_bytes)
    entry = audit.record(
        db, username, "evidence_export", contents.round_id,
        {"round_id": contents.round_id, "manifest_sha256": manifest_sha, "files": manifest["files"]},
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
        zf.writestr("manifest.json", manifest_bytes)
        zf.writestr("audit.json", _dump({"seq": entry.seq, "at": entry.at, "username": entry.username,
                                         "prev_hash": entry.prev_hash, "hash": entry.hash,
                                         "manifest_sha256": manifest_sha}))
    return buf.getvalue(), entry


@dataclass(frozen=True)
class BundleCheck:
    ok: bool
    reason: str = ""


def verify_bundle(db: Database, data: bytes) -> BundleCheck:
    """Every file matches the manifest, the manifest matches its audit row, and the chain holds."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        manifest_bytes = zf.read("manifest.json")
        stamp = json.loads(zf.read("audit.json"))
    except (zipfile.BadZipFile, KeyError, json.JSONDecodeError) as e:
        return BundleCheck(False, f"not an evidence bundle: {e}")
    manifest = json.loads(manifest_bytes)
    names = set(zf.namelist()) - {"manifest.json", "audit.json"}
    if names != set(manifest["files"]):
        return BundleCheck(False, f"files differ from the manifest: {sorted(names ^ set(manifest['files']))}")
    for name, digest in manifest["files"].items():
        if _sha(zf.read(name)) != digest:
            return BundleCheck(False, f"{name}: SHA-256 does not match the manifest")
    manifest_sha = _sha(manifest_bytes)
    row = db.cursor().execute("SELECT hash, detail FROM audit_log WHERE seq = ?", [stamp["seq"]]).fetchone()
    if not row or json.loads(row[1]).get("manifest_sha256") != manifest_sha or row[0] != stamp["hash"]:
        return BundleCheck(False, f"manifest is not the one recorded in audit row {stamp['seq']}")
    chain = audit.verify_chain(db)
    if not chain.ok:
        return BundleCheck(False, f"audit chain broken at row {chain.first_bad_seq}: {chain.reason}")
    return BundleCheck(True)
