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


CONFIDENCE_RANK: dict[MemoryConfidence, int] = {
    MemoryConfidence.HIGH: 3,
    MemoryConfidence.MEDIUM: 2,
    MemoryConfidence.LOW: 1,
}
