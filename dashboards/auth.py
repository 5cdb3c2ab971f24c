"""Users, roles, password hashing, sessions and CSRF tokens.

Passwords: scrypt with a per-user random salt, stored as `scrypt$n$r$p$salt$hash` so the cost can be
raised later without breaking old hashes. Sessions: a random id in a cookie signed with itsdangerous
(tamper-evident, expires), backed by the `sessions` table so logging out really ends it. Each session
carries its own CSRF token, which every form posts back.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from . import audit
from .db import Database, utc_now

ROLES: tuple[str, ...] = ("surveillance", "game_protection", "manager", "admin")
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
SESSION_MAX_AGE_S = 12 * 3600  # one long shift


class AuthError(ValueError):
    """Bad user data: names the field and the value."""


@dataclass(frozen=True)
class User:
    username: str
    role: str
    pit: str | None = None

    def may(self, role: str) -> bool:
        """Admins see every page; everyone else only their role's."""
        return self.role == "admin" or self.role == role


def hash_password(password: str, *, n: int = SCRYPT_N) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=n, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${n}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    got = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p),
                         dklen=len(digest) // 2)
    return hmac.compare_digest(got.hex(), digest)


def create_user(db: Database, username: str, password: str, role: str, pit: str | None = None,
                *, by: str = "system") -> User:
    if not username or not username.replace("_", "").replace("-", "").replace(".", "").isalnum():
        raise AuthError(f"users: field username: {username!r} must be letters, digits, '.', '-' or '_'")
    if role not in ROLES:
        raise AuthError(f"users: field role: {role!r} is not one of {', '.join(ROLES)}")
    if len(password) < 8:
        raise AuthError(f"users: field password for {username!r}: must be at least 8 characters")
    with db.write() as cur:
        if cur.execute("SELECT 1 FROM users WHERE username = ?", [username]).fetchone():
            raise AuthError(f"users: field username: {username!r} already exists")
        cur.execute(
            "INSERT INTO users (username, role, password_hash, pit, created_at) VALUES (?, ?, ?, ?, ?)",
            [username, role, hash_password(password), pit or None, utc_now()],
        )
        audit.append(cur, by, "user_created", username, {"role": role, "pit": pit})
    return User(username, role, pit or None)


def get_user(db: Database, username: str) -> User | None:
    row = db.cursor().execute(
        "SELECT username, role, pit FROM users WHERE username = ? AND active", [username]
    ).fetchone()
    return User(*row) if row else None


def list_users(db: Database) -> list[tuple[User, bool]]:
    rows = db.cursor().execute("SELECT username, role, pit, active FROM users ORDER BY username").fetchall()
    return [(User(u, r, p), a) for u, r, p, a in rows]


def authenticate(db: Database, username: str, password: str) -> User | None:
    """Check the password and audit the attempt, successful or not."""
    row = db.cursor().execute(
        "SELECT role, pit, password_hash FROM users WHERE username = ? AND active", [username]
    ).fetchone()
    ok = bool(row) and check_password(password, row[2])
    audit.record(db, username or "-", "login" if ok else "login_failed")
    return User(username, row[0], row[1]) if ok and row else None


class Sessions:
    """Signed session cookies backed by the sessions table."""

    COOKIE = "tw_session"

    def __init__(self, db: Database, secret: str) -> None:
        self.db = db
        self.signer = URLSafeTimedSerializer(secret, salt="tablewatch-session")
        self.login_signer = URLSafeTimedSerializer(secret, salt="tablewatch-login-csrf")

    def start(self, user: User) -> tuple[str, str]:
        """Open a session: returns (cookie value, csrf token)."""
        sid, csrf = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        with self.db.write() as cur:
            cur.execute("INSERT INTO sessions (sid, username, csrf, created_at) VALUES (?, ?, ?, ?)",
                        [sid, user.username, csrf, utc_now()])
        return self.signer.dumps(sid), csrf

    def resolve(self, cookie: str | None) -> tuple[User, str, str] | None:
        """(user, csrf token, session id) of a live session, or None."""
        if not cookie:
            return None
        try:
            sid = self.signer.loads(cookie, max_age=SESSION_MAX_AGE_S)
        except (BadSignature, SignatureExpired):
            return None
        row = self.db.cursor().execute(
            "SELECT u.username, u.role, u.pit, s.csrf FROM sessions s JOIN users u USING (username) "
            "WHERE s.sid = ? AND s.ended_at IS NULL AND u.active",
            [sid],
        ).fetchone()
        return (User(row[0], row[1], row[2]), row[3], sid) if row else None

    def end(self, sid: str, username: str) -> None:
        with self.db.write() as cur:
            cur.execute("UPDATE sessions SET ended_at = ? WHERE sid = ?", [utc_now(), sid])
            audit.append(cur, username, "logout")

    # Login form CSRF: no session yet, so a signed random token in a cookie must match the form's.
    def login_token(self) -> str:
        return self.login_signer.dumps(secrets.token_urlsafe(16))

    def login_token_ok(self, cookie: str | None, form: str | None) -> bool:
        if not cookie or not form or not hmac.compare_digest(cookie, form):
            return False
        try:
            self.login_signer.loads(form, max_age=3600)
        except (BadSignature, SignatureExpired):
            return False
        return True


def csrf_ok(expected: str, got: str | None) -> bool:
    return bool(got) and hmac.compare_digest(expected, got or "")
