"""The entities, as SQLAlchemy typed mappings (the domain layer is SQLAlchemy by design)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Enum,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, validates

from domain.dedup_keys import CONTENT_KEY_LENGTH, content_key
from domain.enums import (
    AccessKind,
    AuditAction,
    AuditTarget,
    MemoryConfidence,
    MemorySource,
    MemoryStatus,
    MemoryType,
    ProposalStatus,
    Role,
    SourceKind,
)
from domain.types import UTCDateTime, utcnow


def _enum(enum_cls: type[Any], name: str, *, length: int = 24, checked: bool = True) -> Enum:
    """A closed vocabulary stored as its values in a VARCHAR; `checked` adds a CHECK constraint."""
    return Enum(
        enum_cls,
        name=name,
        native_enum=False,
        create_constraint=checked,
        length=length,
        values_callable=lambda members: [m.value for m in members],
    )


# SQLite would hand a removed row's id to the next row; the audit log refers to rows by id.
NO_ID_REUSE = {"sqlite_autoincrement": True}


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {datetime: UTCDateTime()}


class User(Base):
    __tablename__ = "users"
    __table_args__ = (NO_ID_REUSE,)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)  # stored lower case
    display_name: Mapped[str] = mapped_column(String(120))
    role: Mapped[Role] = mapped_column(_enum(Role, "user_role"))
    password_hash: Mapped[str] = mapped_column(String(255))
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    session_epoch: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_login_at: Mapped[datetime | None] = mapped_column(default=None)

    @property
    def is_admin(self) -> bool:
        return self.role == Role.ADMIN


class ApiToken(Base):
    """A bearer token of the coaching system; only the sha256 of its secret is stored."""

    __tablename__ = "api_tokens"
    __table_args__ = (
        Index(
            "ux_api_tokens_active_name",
            "name",
            unique=True,
            sqlite_where=text("revoked_at IS NULL"),
            postgresql_where=text("revoked_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    scopes: Mapped[list[str]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)
    created_by: Mapped[str | None] = mapped_column(String(140), default=None)
    last_used_at: Mapped[datetime | None] = mapped_column(default=None)


class Memory(Base):
    __tablename__ = "memories"
    __table_args__ = (
        Index("ix_memories_athlete_status_updated", "athlete_id", "status", "updated_at"),
        Index("ix_memories_status_deleted_at", "status", "deleted_at"),
        # The memory list: each type's page in updated order, and counts and the confidence
        # sort read from the index alone (domain/memory_lists.py; migration 0010: one index fewer to
        # write). `version` served the coach index's old fingerprint; that now reads coach_stamps (0013).
        Index(
            "ix_memories_athlete_type_updated",
            *("athlete_id", "status", "type", "updated_at", "id", "confidence", "occurrences", "source", "version"),
        ),
        # the list's "newest" and "most seen" sorts, a page read in index order (migration 0009)
        Index("ix_memories_athlete_status_created", "athlete_id", "status", "created_at", "id"),
        Index("ix_memories_athlete_status_seen", "athlete_id", "status", "occurrences", "updated_at", "id"),
        # dedup: the newest active memory of the same content is one probe (domain/dedup.py)
        Index("ix_memories_dedup_content", "athlete_id", "content_key", "status", "updated_at", "id"),
        NO_ID_REUSE,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    athlete_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    type: Mapped[MemoryType] = mapped_column(_enum(MemoryType, "memory_type"))
    content: Mapped[str] = mapped_column(Text)
    source: Mapped[MemorySource] = mapped_column(_enum(MemorySource, "memory_source"))
    source_reference: Mapped[str | None] = mapped_column(String(200), default=None)
    confidence: Mapped[MemoryConfidence] = mapped_column(_enum(MemoryConfidence, "memory_confidence"))
    occurrences: Mapped[int] = mapped_column(Integer, default=1)
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    status: Mapped[MemoryStatus] = mapped_column(_enum(MemoryStatus, "memory_status"), default=MemoryStatus.ACTIVE)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)
    deleted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    archived_at: Mapped[datetime | None] = mapped_column(default=None)
    superseded_by_id: Mapped[int | None] = mapped_column(ForeignKey("memories.id", ondelete="SET NULL"), default=None)
    expires_at: Mapped[datetime | None] = mapped_column(default=None)
    hidden_from_coach: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    content_key: Mapped[str] = mapped_column(String(CONTENT_KEY_LENGTH), default="", server_default="")

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012

    @validates("content")
    def _keep_content_key(self, _name: str, content: str) -> str:
        """The dedup key follows the content wherever it is set (domain/dedup_keys.py)."""
        self.content_key = content_key(content)
        return content


class MemoryTag(Base):
    """A tag of an ACTIVE memory, with its type and updated_at: dedup finds "the newest active memory
    of this type with this tag" by one index probe. Written only by domain/memory_tags.py."""

    __tablename__ = "memory_tags"
    __table_args__ = (
        Index("ix_memory_tags_lookup", "athlete_id", "type", "tag", "updated_at", "memory_id"),
        {"sqlite_with_rowid": False},  # the primary key is the table (migration 0010)
    )

    memory_id: Mapped[int] = mapped_column(ForeignKey("memories.id", ondelete="CASCADE"), primary_key=True)
    tag: Mapped[str] = mapped_column(Text, primary_key=True)
    athlete_id: Mapped[int] = mapped_column(Integer)
    type: Mapped[MemoryType] = mapped_column(_enum(MemoryType, "memory_type", checked=False))
    updated_at: Mapped[datetime] = mapped_column()


class SourceText(Base):
    __tablename__ = "source_texts"
    __table_args__ = (UniqueConstraint("athlete_id", "kind", "reference"), NO_ID_REUSE)

    id: Mapped[int] = mapped_column(primary_key=True)
    athlete_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[SourceKind] = mapped_column(_enum(SourceKind, "source_kind"))
    reference: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    received_at: Mapped[datetime] = mapped_column(default=utcnow)


class Proposal(Base):
    __tablename__ = "proposals"
    __table_args__ = (Index("ix_proposals_athlete_status_created", "athlete_id", "status", "created_at"), NO_ID_REUSE)

    id: Mapped[int] = mapped_column(primary_key=True)
    athlete_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    source_text_id: Mapped[int | None] = mapped_column(ForeignKey("source_texts.id", ondelete="SET NULL"), default=None)
    type: Mapped[MemoryType] = mapped_column(_enum(MemoryType, "memory_type"))
    content: Mapped[str] = mapped_column(Text)
    normalized_content: Mapped[str] = mapped_column(Text)
    source: Mapped[MemorySource] = mapped_column(_enum(MemorySource, "memory_source"))
    source_reference: Mapped[str | None] = mapped_column(String(200), default=None)
    confidence: Mapped[MemoryConfidence] = mapped_column(_enum(MemoryConfidence, "memory_confidence"))
    tags: Mapped[list[str]] = mapped_column(JSON, default=list)
    evidence_start: Mapped[int | None] = mapped_column(Integer, default=None)
    evidence_end: Mapped[int | None] = mapped_column(Integer, default=None)
    evidence: Mapped[list[str]] = mapped_column(JSON, default=list)
    extractor: Mapped[str] = mapped_column(String(64))
    status: Mapped[ProposalStatus] = mapped_column(
        _enum(ProposalStatus, "proposal_status"), default=ProposalStatus.PENDING
    )
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(default=None)
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    memory_id: Mapped[int | None] = mapped_column(ForeignKey("memories.id", ondelete="SET NULL"), default=None)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012


class AuditEvent(Base):
    """Append-only. `hash` chains each event to the one before (see domain.audit)."""

    __tablename__ = "audit_events"
    __table_args__ = (
        Index("ix_audit_target", "target_type", "target_id", "seq"),
        Index("ix_audit_athlete_seq", "athlete_id", "seq"),
        Index("ix_audit_actor_seq", "actor_id", "seq"),
        Index("ix_audit_action_seq", "action", "seq"),
        Index("ix_audit_at", "at"),
        Index(  # only events that waited in audit_pending (migration 0015)
            "ux_audit_pending_id",
            "pending_id",
            unique=True,
            sqlite_where=text("pending_id IS NOT NULL"),
            postgresql_where=text("pending_id IS NOT NULL"),
        ),
    )

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    actor_label: Mapped[str] = mapped_column(String(140))
    action: Mapped[AuditAction] = mapped_column(_enum(AuditAction, "audit_action", length=40, checked=False))
    athlete_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    target_type: Mapped[AuditTarget] = mapped_column(_enum(AuditTarget, "audit_target", length=20, checked=False))
    target_id: Mapped[int | None] = mapped_column(Integer, default=None)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    before_digest: Mapped[str | None] = mapped_column(String(64), default=None)
    after_digest: Mapped[str | None] = mapped_column(String(64), default=None)
    redacted: Mapped[bool] = mapped_column(Boolean, default=False)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))
    # The random id it waited under in audit_pending (PostgreSQL), under its hash: a copy of that
    # waiting row is refused (unique), and clearing it here breaks the chain. None: chained in place.
    pending_id: Mapped[int | None] = mapped_column(BigInteger, default=None)


class AuditHead(Base):
    """One row: the newest event's seq and hash, locked by each writer to keep one chain."""

    __tablename__ = "audit_head"

    id: Mapped[int] = mapped_column(primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    hash: Mapped[str] = mapped_column(String(64))
    keyed_after: Mapped[int | None] = mapped_column(Integer, default=None)  # events after this seq are HMAC-keyed


class AuditPending(Base):
    """An event committed with its change and not chained yet (PostgreSQL's writers, domain.audit):
    the next writer to take the head chains it, moving it into audit_events. `id` is random, so
    `mac` (an HMAC under the chain's key, None on a plain chain) covers it and a copy is refused."""

    __tablename__ = "audit_pending"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    at: Mapped[datetime] = mapped_column()
    actor_id: Mapped[int | None] = mapped_column(Integer, default=None)
    actor_label: Mapped[str] = mapped_column(String(140))
    action: Mapped[AuditAction] = mapped_column(_enum(AuditAction, "audit_action", length=40, checked=False))
    athlete_id: Mapped[int | None] = mapped_column(Integer, default=None)
    target_type: Mapped[AuditTarget] = mapped_column(_enum(AuditTarget, "audit_target", length=20, checked=False))
    target_id: Mapped[int | None] = mapped_column(Integer, default=None)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    before_digest: Mapped[str | None] = mapped_column(String(64), default=None)
    after_digest: Mapped[str | None] = mapped_column(String(64), default=None)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    mac: Mapped[str | None] = mapped_column(String(64), default=None)


class AuditRefused(Base):
    """A waiting event no writer will chain, set aside once (domain.audit_refused): its MAC does not
    match (slipped in or changed without the key), or it is a copy of one chained already (its
    waiting id is an event's `pending_id`). `audit verify` and the admin's Audit tab report it."""

    __tablename__ = "audit_refused"

    id: Mapped[int] = mapped_column(primary_key=True)
    refused_at: Mapped[datetime] = mapped_column(default=utcnow)
    problem: Mapped[str] = mapped_column(Text)
    chained_as: Mapped[int | None] = mapped_column(Integer, default=None)  # a copy: the event it copies
    pending_id: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[datetime | None] = mapped_column(default=None)
    actor_id: Mapped[int | None] = mapped_column(Integer, default=None)
    actor_label: Mapped[str | None] = mapped_column(String(140), default=None)
    action: Mapped[str | None] = mapped_column(String(40), default=None)
    athlete_id: Mapped[int | None] = mapped_column(Integer, default=None)
    target_type: Mapped[str | None] = mapped_column(String(20), default=None)
    target_id: Mapped[int | None] = mapped_column(Integer, default=None)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    before_digest: Mapped[str | None] = mapped_column(String(64), default=None)
    after_digest: Mapped[str | None] = mapped_column(String(64), default=None)
    reason: Mapped[str | None] = mapped_column(Text, default=None)
    mac: Mapped[str | None] = mapped_column(String(64), default=None)


class AuditCheckpoint(Base):
    """One `audit verify` result. A passing one is a checkpoint: the chain was whole up to `seq`,
    whose event had `hash`, so later runs start there (domain.audit_checkpoints). A failing one
    holds the first bad event in `seq` and what was wrong in `problem`."""

    __tablename__ = "audit_checkpoints"
    __table_args__ = (Index("ix_audit_checkpoints_ok_seq", "ok", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    hash: Mapped[str | None] = mapped_column(String(64), default=None)
    from_seq: Mapped[int] = mapped_column(Integer, default=0)  # the checkpoint the run started at; 0: all
    events_checked: Mapped[int] = mapped_column(Integer, default=0)
    ok: Mapped[bool] = mapped_column(Boolean, default=True)
    problem: Mapped[str | None] = mapped_column(Text, default=None)
    verified_at: Mapped[datetime] = mapped_column(default=utcnow)


class AccessEvent(Base):
    """Operational record (logins, admin views of athlete data). Not chained: retention purges it."""

    __tablename__ = "access_events"
    __table_args__ = (Index("ix_access_at", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    actor_label: Mapped[str] = mapped_column(String(140))
    kind: Mapped[AccessKind] = mapped_column(_enum(AccessKind, "access_kind", length=40, checked=False))
    athlete_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), default=None)
    detail: Mapped[str | None] = mapped_column(Text, default=None)


class CoachRead(Base):
    """One read of an athlete's memory by the coaching system: what it asked, which token."""

    __tablename__ = "coach_reads"
    __table_args__ = (Index("ix_coach_reads_athlete_at", "athlete_id", "at"), Index("ix_coach_reads_at", "at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    athlete_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    token_id: Mapped[int | None] = mapped_column(ForeignKey("api_tokens.id", ondelete="SET NULL"), default=None)
    token_name: Mapped[str] = mapped_column(String(120))
    kind: Mapped[str] = mapped_column(String(20))
    query: Mapped[str | None] = mapped_column(Text, default=None)
    max_tokens: Mapped[int | None] = mapped_column(Integer, default=None)
    block: Mapped[str | None] = mapped_column(Text, default=None)


class CoachReadMemory(Base):
    """A memory one coach read served, at its place in the answer (0 first)."""

    __tablename__ = "coach_read_memories"
    __table_args__ = (Index("ix_coach_read_memories_memory", "memory_id", "read_id"),)

    read_id: Mapped[int] = mapped_column(ForeignKey("coach_reads.id", ondelete="CASCADE"), primary_key=True)
    memory_id: Mapped[int] = mapped_column(ForeignKey("memories.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)


class CoachStamp(Base):
    """Raised by triggers on `memories` with every change of an athlete's memories (migration 0013): the
    coach index's freshness check reads the sum of the athlete's rows (domain/coach_index.py)."""

    __tablename__ = "coach_stamps"
    __table_args__ = ({"sqlite_with_rowid": False},)

    athlete_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    shard: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0 (0013 kept one per backend pid % 64)
    stamp: Mapped[int] = mapped_column(BigInteger)


class CoachStampPending(Base):
    """PostgreSQL: "this transaction changed this athlete's memories", noted by the triggers on `memories`
    and turned into a rise of the athlete's stamp at commit (migration 0014); none outlives its transaction.
    SQLite keeps it empty (its triggers raise the stamp at once)."""

    __tablename__ = "coach_stamp_pending"
    __table_args__ = ({"sqlite_with_rowid": False},)

    xid: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    athlete_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)


GENESIS_HASH = "0" * 64
