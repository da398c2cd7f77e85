"""Words and icons for the domain's vocabularies, as people read them."""

from __future__ import annotations

from domain.enums import MemoryConfidence, MemorySource, MemoryType

TYPE_LABELS: dict[MemoryType, str] = {
    MemoryType.INJURY_HISTORY: "Injury history",
    MemoryType.PREFERENCE: "Preferences",
    MemoryType.CONTEXT: "Context",
    MemoryType.TRAINING_RESPONSE: "Training responses",
    MemoryType.INSIGHT: "Insights",
}
TYPE_SINGULAR: dict[MemoryType, str] = {
    MemoryType.INJURY_HISTORY: "Injury history",
    MemoryType.PREFERENCE: "Preference",
    MemoryType.CONTEXT: "Context",
    MemoryType.TRAINING_RESPONSE: "Training response",
    MemoryType.INSIGHT: "Insight",
}
TYPE_ICONS: dict[MemoryType, str] = {
    MemoryType.INJURY_HISTORY: "healing",
    MemoryType.PREFERENCE: "favorite",
    MemoryType.CONTEXT: "home",
    MemoryType.TRAINING_RESPONSE: "trending_up",
    MemoryType.INSIGHT: "lightbulb",
}
SOURCE_LABELS: dict[MemorySource, str] = {
    MemorySource.ACTIVITY_NOTE: "Activity note",
    MemorySource.USER_MESSAGE: "Your message",
    MemorySource.PATTERN_ANALYSIS: "Pattern analysis",
    MemorySource.MANUAL: "Added by you",
}
SOURCE_ICONS: dict[MemorySource, str] = {
    MemorySource.ACTIVITY_NOTE: "directions_run",
    MemorySource.USER_MESSAGE: "chat",
    MemorySource.PATTERN_ANALYSIS: "insights",
    MemorySource.MANUAL: "edit_note",
}
CONFIDENCE_LABELS: dict[MemoryConfidence, str] = {
    MemoryConfidence.HIGH: "High confidence",
    MemoryConfidence.MEDIUM: "Medium confidence",
    MemoryConfidence.LOW: "Low confidence",
}
CONFIDENCE_COLORS: dict[MemoryConfidence, str] = {
    MemoryConfidence.HIGH: "green-9",
    MemoryConfidence.MEDIUM: "blue-9",
    MemoryConfidence.LOW: "grey-8",
}
TYPE_ORDER = [
    MemoryType.INJURY_HISTORY,
    MemoryType.PREFERENCE,
    MemoryType.CONTEXT,
    MemoryType.TRAINING_RESPONSE,
    MemoryType.INSIGHT,
]
