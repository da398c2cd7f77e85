"""Settings from the environment (prefix MEMORY_REVIEW_)."""

from __future__ import annotations

import contextlib
import os
import secrets
from datetime import timedelta
from functools import cached_property
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from domain.retention import RetentionPeriods

APP_NAME = "memory-review"


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MEMORY_REVIEW_", extra="ignore")

    database_url: str | None = None
    data_dir: Path = Field(default_factory=default_data_dir)
    host: str = "127.0.0.1"
    port: int = 8080
    proposal_max_age_days: int = 30
    archived_retention_days: int = 90
    proposal_retention_days: int = 90
    access_event_retention_days: int = 90
    api_rate_limit: str = "120/minute"  # per API token, moving window; the `limits` notation, e.g. "10/second"
    # Failed logins allowed per username and per client address (moving windows, the same limiter as the API);
    # past either, a login is refused without checking the password until the window has room again.
    login_limit_per_user: str = "5/5 minutes"
    login_limit_per_address: str = "20/5 minutes"
    # The session cookie's Secure flag. "auto": Secure on every response to a request that came over https,
    # directly or through a proxy uvicorn trusts for X-Forwarded-Proto (FORWARDED_ALLOW_IPS, default 127.0.0.1);
    # "always": Secure everywhere (the app must then be reached over https); "never": plain http only.
    secure_cookie: Literal["auto", "always", "never"] = "auto"
    # Signs NiceGUI's session cookie. Unset: a file created on first use (secret_path). Instances behind
    # one proxy must share it: give them this (MEMORY_REVIEW_SESSION_SECRET) or the same data_dir.
    session_secret: str | None = Field(default=None, min_length=32, repr=False)
    # The audit chain's HMAC key (persistence/audit_seal.py). Unset: a file created on first use
    # (audit_key_path). Instances writing one database must share it, like the session secret.
    audit_key: str | None = Field(default=None, min_length=32, repr=False)

    @property
    def proposal_max_age(self) -> timedelta:
        return timedelta(days=self.proposal_max_age_days)

    @cached_property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{self.data_dir / 'memory-review.sqlite3'}"

    def storage_secret(self) -> str:
        """The secret that signs NiceGUI's session cookie: MEMORY_REVIEW_SESSION_SECRET, else created on first use.

        It lives beside the database (or in data_dir for a server database) so it
        survives restarts and is never part of the code. Instances starting at once on one
        data_dir end up with one secret: the file appears whole or not at all (a hard link).
        """
        if self.session_secret is not None:
            return self.session_secret
        path = self.secret_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            draft = path.with_name(f"{path.name}.{secrets.token_hex(6)}.tmp")
            with os.fdopen(os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as file:
                file.write(secrets.token_urlsafe(48))  # never readable by others, not even for a moment
            with contextlib.suppress(FileExistsError):  # another instance was first: use its secret
                os.link(draft, path)
            draft.unlink()
        return path.read_text().strip()

    def audit_key_path(self) -> Path:
        url = self.effective_database_url
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            return Path(url.removeprefix("sqlite:///")).with_suffix(".audit-key")  # audit_files.KEY_SUFFIX
        return self.data_dir / "audit.key"

    def private_files(self) -> list[Path]:
        """The files that hold secrets or personal data outside a database server, for their modes (0600)."""
        files = [self.secret_path(), self.audit_key_path()]
        url = self.effective_database_url
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            database = Path(url.removeprefix("sqlite:///"))
            files += [database, *(database.with_name(database.name + end) for end in ("-wal", "-shm", "-journal"))]
            files.append(database.with_suffix(".audit-anchor"))  # persistence.audit_seal.anchor_path
        elif self.data_dir.is_dir():
            files += self.data_dir.glob("audit-anchor-*.json")
        return files

    def secret_path(self) -> Path:
        url = self.effective_database_url
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            return Path(url.removeprefix("sqlite:///")).with_suffix(".secret")
        return self.data_dir / "storage.secret"


def retention_periods(settings: Settings) -> RetentionPeriods:
    return RetentionPeriods(
        archived_days=settings.archived_retention_days,
        proposal_days=settings.proposal_retention_days,
        access_days=settings.access_event_retention_days,
    )
