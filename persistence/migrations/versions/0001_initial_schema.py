"""Initial schema: users, memories, evidence, proposals, the audit chain, full-text search.

Revision ID: 0001
Revises:
Create Date: 2026-11-22 03:00:00.491949
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("scopes", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_table(
        "audit_head",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=64), nullable=False),
        sa.Column("display_name", sa.String(length=120), nullable=False),
        sa.Column(
            "role",
            sa.Enum(
                "athlete",
                "admin",
                name="user_role",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("disabled", sa.Boolean(), nullable=False),
        sa.Column("session_epoch", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_login_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("username"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "access_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_label", sa.String(length=140), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=True),
        sa.Column("detail", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["actor_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["athlete_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("access_events", schema=None) as batch_op:
        batch_op.create_index("ix_access_at", ["at"], unique=False)

    op.create_table(
        "audit_events",
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_label", sa.String(length=140), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=True),
        sa.Column("target_type", sa.String(length=20), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("before_digest", sa.String(length=64), nullable=True),
        sa.Column("after_digest", sa.String(length=64), nullable=True),
        sa.Column("redacted", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["actor_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["athlete_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("seq"),
    )
    with op.batch_alter_table("audit_events", schema=None) as batch_op:
        batch_op.create_index("ix_audit_action_seq", ["action", "seq"], unique=False)
        batch_op.create_index("ix_audit_actor_seq", ["actor_id", "seq"], unique=False)
        batch_op.create_index("ix_audit_at", ["at"], unique=False)
        batch_op.create_index("ix_audit_athlete_seq", ["athlete_id", "seq"], unique=False)
        batch_op.create_index("ix_audit_target", ["target_type", "target_id", "seq"], unique=False)

    op.create_table(
        "memories",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=False),
        sa.Column(
            "type",
            sa.Enum(
                "injury_history",
                "preference",
                "context",
                "insight",
                "training_response",
                name="memory_type",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column(
            "source",
            sa.Enum(
                "activity_note",
                "user_message",
                "pattern_analysis",
                "manual",
                name="memory_source",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("source_reference", sa.String(length=200), nullable=True),
        sa.Column(
            "confidence",
            sa.Enum(
                "high",
                "medium",
                "low",
                name="memory_confidence",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("occurrences", sa.Integer(), nullable=False),
        sa.Column("tags", sa.JSON(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "active",
                "deleted",
                "archived",
                name="memory_status",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deleted_by_id", sa.Integer(), nullable=True),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("superseded_by_id", sa.Integer(), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["athlete_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["deleted_by_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["superseded_by_id"], ["memories.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("memories", schema=None) as batch_op:
        batch_op.create_index(
            "ix_memories_athlete_status_updated",
            ["athlete_id", "status", "updated_at"],
            unique=False,
        )
        batch_op.create_index("ix_memories_status_deleted_at", ["status", "deleted_at"], unique=False)

    op.create_table(
        "source_texts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=False),
        sa.Column(
            "kind",
            sa.Enum(
                "activity_note",
                "user_message",
                name="source_kind",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("reference", sa.String(length=200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["athlete_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("athlete_id", "kind", "reference"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "proposals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("athlete_id", sa.Integer(), nullable=False),
        sa.Column("source_text_id", sa.Integer(), nullable=True),
        sa.Column(
            "type",
            sa.Enum(
                "injury_history",
                "preference",
                "context",
                "insight",
                "training_response",
                name="memory_type",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("normalized_content", sa.Text(), nullable=False),
        sa.Column(
            "source",
            sa.Enum(
                "activity_note",
                "user_message",
                "pattern_analysis",
                "manual",
                name="memory_source",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("source_reference", sa.String(length=200), nullable=True),
        sa.Column(
            "confidence",
            sa.Enum(
                "high",
                "medium",
                "low",
                name="memory_confidence",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("tags", sa.JSON(), nullable=False),
        sa.Column("evidence_start", sa.Integer(), nullable=True),
        sa.Column("evidence_end", sa.Integer(), nullable=True),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("extractor", sa.String(length=64), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "pending",
                "confirmed",
                "rejected",
                "expired",
                name="proposal_status",
                native_enum=False,
                create_constraint=True,
                length=24,
            ),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by_id", sa.Integer(), nullable=True),
        sa.Column("memory_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["athlete_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["decided_by_id"], ["users.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["memory_id"], ["memories.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["source_text_id"], ["source_texts.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    with op.batch_alter_table("proposals", schema=None) as batch_op:
        batch_op.create_index(
            "ix_proposals_athlete_status_created",
            ["athlete_id", "status", "created_at"],
            unique=False,
        )

    audit_head = sa.table("audit_head", sa.column("id"), sa.column("seq"), sa.column("hash"))
    op.bulk_insert(audit_head, [{"id": 1, "seq": 0, "hash": "0" * 64}])
    if op.get_bind().dialect.name == "sqlite":
        for statement in SQLITE_FTS:
            op.execute(statement)
    else:
        op.execute("CREATE INDEX ix_memories_content_tsv ON memories USING gin (to_tsvector('english', content))")


SQLITE_FTS = [
    "CREATE VIRTUAL TABLE memories_fts USING fts5("
    "content, tags, content='memories', content_rowid='id', tokenize='porter unicode61')",
    "CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN "
    "INSERT INTO memories_fts(rowid, content, tags) VALUES (new.id, new.content, new.tags); END",
    "CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN "
    "INSERT INTO memories_fts(memories_fts, rowid, content, tags) "
    "VALUES ('delete', old.id, old.content, old.tags); END",
    "CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, tags ON memories BEGIN "
    "INSERT INTO memories_fts(memories_fts, rowid, content, tags) "
    "VALUES ('delete', old.id, old.content, old.tags); "
    "INSERT INTO memories_fts(rowid, content, tags) VALUES (new.id, new.content, new.tags); END",
]


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in (
            "memories_fts_insert",
            "memories_fts_delete",
            "memories_fts_update",
        ):
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
        op.execute("DROP TABLE IF EXISTS memories_fts")
    else:
        op.execute("DROP INDEX IF EXISTS ix_memories_content_tsv")

    with op.batch_alter_table("proposals", schema=None) as batch_op:
        batch_op.drop_index("ix_proposals_athlete_status_created")

    op.drop_table("proposals")
    op.drop_table("source_texts")
    with op.batch_alter_table("memories", schema=None) as batch_op:
        batch_op.drop_index("ix_memories_status_deleted_at")
        batch_op.drop_index("ix_memories_athlete_status_updated")

    op.drop_table("memories")
    with op.batch_alter_table("audit_events", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_target")
        batch_op.drop_index("ix_audit_athlete_seq")
        batch_op.drop_index("ix_audit_at")
        batch_op.drop_index("ix_audit_actor_seq")
        batch_op.drop_index("ix_audit_action_seq")

    op.drop_table("audit_events")
    with op.batch_alter_table("access_events", schema=None) as batch_op:
        batch_op.drop_index("ix_access_at")

    op.drop_table("access_events")
    op.drop_table("users")
    op.drop_table("audit_head")
    op.drop_table("api_tokens")
