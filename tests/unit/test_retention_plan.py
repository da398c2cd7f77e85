"""The retention plan's pure part: each period's cutoff, when a plan is empty, and how it reads.
(Which rows fall before a cutoff is decided by the queries in `plan_purge`/`run_purge`; those are
tested on SQLite and PostgreSQL in tests/integration/test_retention.py.)"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.retention import ArchivedItem, PurgePlan, PurgeResult, RetentionPeriods

NOW = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)


def plan(
    periods: RetentionPeriods | None = None,
    *,
    archived: int = 0,
    proposals: int = 0,
    logins: int = 0,
    other_access: int = 0,
) -> PurgePlan:
    return PurgePlan(
        now=NOW,
        periods=periods or RetentionPeriods(),
        archived=[ArchivedItem(i, 7, f"Memory {i}", NOW - timedelta(days=100)) for i in range(archived)],
        proposal_ids=list(range(proposals)),
        access_event_ids=list(range(logins + other_access)),
        login_event_count=logins,
        other_access_count=other_access,
    )


def test_the_default_periods_are_90_days() -> None:
    assert RetentionPeriods() == RetentionPeriods(archived_days=90, proposal_days=90, access_days=90)


def test_each_kind_has_its_own_cutoff() -> None:
    due = plan(RetentionPeriods(archived_days=30, proposal_days=60, access_days=1))
    assert due.archived_cutoff == NOW - timedelta(days=30)
    assert due.proposal_cutoff == NOW - timedelta(days=60)
    assert due.access_cutoff == NOW - timedelta(days=1)


def test_a_zero_day_period_makes_everything_before_now_due() -> None:
    assert plan(RetentionPeriods(0, 0, 0)).archived_cutoff == NOW


def test_a_plan_is_empty_only_when_nothing_of_any_kind_is_due() -> None:
    assert plan().is_empty
    assert not plan(archived=1).is_empty
    assert not plan(proposals=1).is_empty
    assert not plan(logins=1).is_empty
    assert not plan(other_access=1).is_empty


def test_the_plan_reads_one_line_per_kind_with_its_period() -> None:
    due = plan(RetentionPeriods(archived_days=30, proposal_days=60, access_days=7), archived=1, logins=1234)
    assert due.lines() == [
        "Archived memories older than 30 days: 1",
        "Expired proposals older than 60 days: 0",
        "Login events older than 7 days: 1,234",
        "Access events older than 7 days: 0",
        "Coach reads older than 7 days: 0",
    ]


def test_the_result_reads_as_one_sentence() -> None:
    result = PurgeResult(memory_ids=[1], proposal_ids=[], access_event_ids=list(range(1500)))
    assert result.lines() == ["Removed 1 archived memories, 0 expired proposals and 1,500 access and login events."]
