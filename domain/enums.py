"""Closed vocabularies of the domain. Values keep the M13 seed's names."""

from enum import StrEnum


class MemoryType(StrEnum):
    INJURY_HISTORY = "injury_history"
    PREFERENCE = "preference"
    CONTEXT = "context"
    INSIGHT = "insight"
    TRAINING_RESPONSE = "training_response"


class MemoryConfidence(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class MemorySource(StrEnum):
    ACTIVITY_NOTE = "activity_note"
    USER_MESSAGE = "user_message"
    PATTERN_ANALYSIS = "pattern_analysis"
    MANUAL = "manual"


class MemoryStatus(StrEnum):
    ACTIVE = "active"
    DELETED = "deleted"
    ARCHIVED = "archived"


class ProposalStatus(StrEnum):
    PENDING = "pending"
    CONFIRMED = "confirmed"
    REJECTED = "rejected"
    EXPIRED = "expired"


class SourceKind(StrEnum):
    """What the coaching system sent in."""

    ACTIVITY_NOTE = "activity_note"
    USER_MESSAGE = "user_message"


class Role(StrEnum):
    ATHLETE = "athlete"
    ADMIN = "admin"


class AuditAction(StrEnum):
    """What an audit event records. The values are stored: never rename one."""

    CREATE = "create"
    IMPORT = "import"
    EDIT = "edit"
    REVERT = "revert"
    DELETE = "delete"
    UNDO_DELETE = "undo_delete"
    RESTORE = "restore"
    HARD_DELETE = "hard_delete"
    PURGE = "purge"
    RETENTION_RUN = "retention_run"
    COUNT_AGAIN = "count_again"
    SUPERSEDE = "supersede"
    INGEST = "ingest"
    PROPOSE = "propose"
    PROPOSAL_CONFIRM = "proposal_confirm"
    PROPOSAL_REJECT = "proposal_reject"
    PROPOSAL_EXPIRE = "proposal_expire"
    PROPOSAL_REOPEN = "proposal_reopen"  # the athlete's Undo of their own reject
    USER_CREATE = "user_create"
    USER_DISABLE = "user_disable"
    USER_ENABLE = "user_enable"
    USER_ROLE = "user_role"
    USER_PASSWORD_RESET = "user_password_reset"
    USER_PASSWORD_CHANGE = "user_password_change"  # by the account's own user
    HIDE = "hide"
    UNHIDE = "unhide"
    TOKEN_CREATE = "token_create"
    TOKEN_REVOKE = "token_revoke"
    MERGE = "merge"  # two memories made one: the kept one (the other is superseded)
    CONFIRM_UNDO = "confirm_undo"  # the athlete's Undo of their own confirm: a memory back as it was


REMOVAL_ACTIONS = frozenset({AuditAction.HARD_DELETE, AuditAction.PURGE})
"""Actions that remove a memory for good; only their targets may carry redacted payloads."""


class AuditTarget(StrEnum):
    """What kind of record an audit event is about. The values are stored."""

    MEMORY = "memory"
    PROPOSAL = "proposal"
    USER = "user"
    SOURCE_TEXT = "source_text"
    RETENTION = "retention"
    API_TOKEN = "api_token"


class AccessKind(StrEnum):
    """Operational access events (logins, admin views of athlete data). The values are stored."""

    LOGIN = "login"
    LOGIN_FAILED = "login_failed"
    ADMIN_VIEW_DELETED = "admin_view_deleted"
    ADMIN_VIEW_AUDIT = "admin_view_audit"
    ADMIN_VIEW_AUDIT_EVENT = "admin_view_audit_event"
    ADMIN_EXPORT_AUDIT = "admin_export_audit"
    ADMIN_VIEW_USERS = "admin_view_users"
    ADMIN_VIEW_RETENTION = "admin_view_retention"


class ApiScope(StrEnum):
    """What an API token may do. The values are stored."""

    INGEST = "ingest"
    READ = "read"


LOGIN_KINDS = frozenset({AccessKind.LOGIN, AccessKind.LOGIN_FAILED})


CONFIDENCE_RANK: dict[MemoryConfidence, int] = {
    MemoryConfidence.HIGH: 3,
    MemoryConfidence.MEDIUM: 2,
    MemoryConfidence.LOW: 1,
}
