"""An athlete (or nobody) gets nothing from any admin service: refused, and nothing changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from domain import admin_deleted, audit_export, audit_log, retention, users
from domain.actors import SYSTEM
from domain.enums import Role
from domain.errors import PermissionDenied
from domain.models import AccessEvent, AuditEvent, User
from persistence.uow import unit_of_work
from tests.integration.admin_helpers import count, deleted_memory

Operation = Callable[[Session, User | None, int, int], Any]
PERIODS = retention.RetentionPeriods()

ADMIN_OPERATIONS: dict[str, Operation] = {
    "list deleted": lambda s, a, mid, uid: admin_deleted.list_deleted(s, a),
    "restore selected": lambda s, a, mid, uid: admin_deleted.restore_selected(s, a, memory_ids=[mid]),
    "delete permanently": lambda s, a, mid, uid: admin_deleted.delete_permanently(
        s, a, memory_id=mid, typed_username="alex"
    ),
    "audit page": lambda s, a, mid, uid: audit_log.audit_page(s, a),
    "audit event": lambda s, a, mid, uid: audit_log.audit_event(s, a, seq=1),
    "chain status": lambda s, a, mid, uid: audit_log.chain_status(s, a),
    "export csv": lambda s, a, mid, uid: audit_export.export_csv(s, a, filters=audit_log.AuditFilter(), summary=str),
    "list users": lambda s, a, mid, uid: users.list_users(s, a),
    "athlete choices": lambda s, a, mid, uid: users.athlete_choices(s, a),
    "user choices": lambda s, a, mid, uid: users.user_choices(s, a),
    "create user": lambda s, a, mid, uid: users.create_user(
        s, a, username="mallory", password="long enough", role=Role.ADMIN
    ),
    "reset password": lambda s, a, mid, uid: users.reset_password(s, a, user_id=uid, new_password="long enough"),
    "disable": lambda s, a, mid, uid: users.set_disabled(s, a, user_id=uid, disabled=True),
    "change role": lambda s, a, mid, uid: users.change_role(s, a, user_id=uid, role=Role.ATHLETE),
    "plan purge": lambda s, a, mid, uid: retention.plan_purge(s, a, periods=PERIODS),
    "run purge": lambda s, a, mid, uid: retention.run_purge(
        s, a, plan=retention.plan_purge(s, SYSTEM, periods=PERIODS)
    ),
}


@pytest.mark.parametrize("who", ["anonymous", "owner", "other athlete"])
@pytest.mark.parametrize("operation", ADMIN_OPERATIONS)
def test_no_admin_operation_for_athletes_or_anonymous(
    engine: Engine, athlete: User, other_athlete: User, admin: User, who: str, operation: str
) -> None:
    memory = deleted_memory(engine, athlete, "Knee pain after long runs")
    actor = {"anonymous": None, "owner": athlete, "other athlete": other_athlete}[who]
    audit_before, access_before = count(engine, AuditEvent), count(engine, AccessEvent)
    with pytest.raises(PermissionDenied), unit_of_work(engine) as session:
        ADMIN_OPERATIONS[operation](session, actor, memory.id, admin.id)
    assert (count(engine, AuditEvent), count(engine, AccessEvent)) == (audit_before, access_before)


@pytest.mark.parametrize("operation", ADMIN_OPERATIONS)
def test_a_disabled_admin_is_refused_too(engine: Engine, athlete: User, admin: User, operation: str) -> None:
    memory = deleted_memory(engine, athlete, "Knee pain after long runs")
    admin.disabled = True  # as a stale session object would still say "admin"
    with pytest.raises(PermissionDenied), unit_of_work(engine) as session:
        ADMIN_OPERATIONS[operation](session, admin, memory.id, athlete.id)
