"""The authorization matrix of the domain: every service a page action calls × every kind of actor ×
every state a memory or proposal can be in. The expected outcomes are ONE table (`TABLE`, below);
the observed one must equal it cell for cell, and every public domain function that takes an
actor must have rows in it (or be named in `BUILDING_BLOCKS`, with the reason it needs none).

The world is built once per module and database: the owner (alex) with one memory or proposal in
each state, another athlete (sam), a disabled athlete (dana) with the same set of her own, an admin,
and API tokens of each scope plus a revoked one. The disabled actor is tried on her OWN records,
every other actor on alex's: a check that forgot `disabled` would show up as an allowed cell.
Every call runs in a transaction that is rolled back, so each cell sees the same world.

Outcomes: D permission denied, N not found, I invalid input, E edit conflict, V allowed and the
answer shows the target (its unique marker is somewhere in the result), - allowed and the target's
content is nowhere in the answer. For a listing, 'V' under a target means that record is listed.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

import domain
from domain import (
    account,
    admin_deleted,
    api_tokens,
    audit_checkpoints,
    audit_deep,
    audit_export,
    audit_log,
    audit_refused,
    coach_context,
    coach_reads,
    confirm_undo,
    export_data,
    exports,
    imports,
    memories,
    memory_lists,
    merges,
    overview,
    proposals,
    recently_deleted,
    replaced,
    retention,
    users,
)
from domain.actors import SYSTEM, Actor, token_actor
from domain.api_tokens import Caller
from domain.audit_log import AuditFilter
from domain.coach_reads import record_read
from domain.content import normalize
from domain.enums import (
    ApiScope,
    AuditTarget,
    MemoryConfidence,
    MemorySource,
    MemoryStatus,
    MemoryType,
    ProposalStatus,
    Role,
)
from domain.errors import DomainError, EditConflict, InvalidInput, NotFound, PermissionDenied
from domain.memory_lists import MemoryCursor, MemoryQuery
from domain.memory_writes import insert_memory
from domain.models import AuditEvent, Memory, Proposal, User
from domain.schemas import MemoryCreate, MemoryEdit, ProposalEdit
from domain.types import utcnow
from persistence.engine import IMMEDIATE, make_engine
from persistence.uow import unit_of_work
from tests.databases import SqliteTemplate, postgres_engine
from tests.factories import TEST_PASSWORD, make_user

ACTORS = ("anonymous", "owner", "other", "disabled", "admin", "token:ingest", "token:read", "token:revoked")
MEMORY_TARGETS = ("active", "soft-deleted", "archived", "hidden", "hard-deleted")
PROPOSAL_TARGETS = ("pending", "confirmed", "rejected")
ALL_TARGETS = MEMORY_TARGETS + PROPOSAL_TARGETS
NONE = "-"  # the target column of an operation that acts on no memory or proposal

# ---------------------------------------------------------------------------------------------------
# THE TABLE. One row per (operation, target); one column per actor, in the order of ACTORS: an(onymous),
# ow(ner), ot(her athlete), di(sabled, on her own records), ad(min), t(oken) i(ngest), t r(ead), t x (revoked)
# ---------------------------------------------------------------------------------------------------
TABLE_TEXT = """
# operation                              target        an ow ot di ad ti tr tx
# memory services (domain/memories.py): an athlete acts on their own; an admin reads, restores and removes
memories.get_memory                      active        D  V  N  D  V  D  D  D
memories.get_memory                      soft-deleted  D  N  N  D  V  D  D  D
memories.get_memory                      archived      D  N  N  D  V  D  D  D
memories.get_memory                      hidden        D  V  N  D  V  D  D  D
memories.get_memory                      hard-deleted  D  N  N  D  N  D  D  D
memories.get_memories                    active        D  V  -  D  V  D  D  D
memories.get_memories                    soft-deleted  D  -  -  D  V  D  D  D
memories.get_memories                    archived      D  -  -  D  V  D  D  D
memories.get_memories                    hidden        D  V  -  D  V  D  D  D
memories.get_memories                    hard-deleted  D  -  -  D  -  D  D  D
memories.edit_memory                     active        D  -  N  D  D  D  D  D
memories.edit_memory                     soft-deleted  D  N  N  D  D  D  D  D
memories.edit_memory                     archived      D  N  N  D  D  D  D  D
memories.edit_memory                     hidden        D  -  N  D  D  D  D  D
memories.edit_memory                     hard-deleted  D  N  N  D  D  D  D  D
memories.delete_memory                   active        D  V  N  D  D  D  D  D
memories.delete_memory                   soft-deleted  D  N  N  D  D  D  D  D
memories.delete_memory                   archived      D  N  N  D  D  D  D  D
memories.delete_memory                   hidden        D  V  N  D  D  D  D  D
memories.delete_memory                   hard-deleted  D  N  N  D  D  D  D  D
memories.undo_delete                     active        D  N  N  D  D  D  D  D
memories.undo_delete                     soft-deleted  D  V  N  D  D  D  D  D
memories.undo_delete                     archived      D  N  N  D  D  D  D  D
memories.undo_delete                     hidden        D  N  N  D  D  D  D  D
memories.undo_delete                     hard-deleted  D  N  N  D  D  D  D  D
memories.restore_memory                  active        D  D  D  D  I  D  D  D
memories.restore_memory                  soft-deleted  D  D  D  D  V  D  D  D
memories.restore_memory                  archived      D  D  D  D  I  D  D  D
memories.restore_memory                  hidden        D  D  D  D  I  D  D  D
memories.restore_memory                  hard-deleted  D  D  D  D  N  D  D  D
memories.hard_delete_memory              active        D  D  D  D  I  D  D  D
memories.hard_delete_memory              soft-deleted  D  D  D  D  -  D  D  D
memories.hard_delete_memory              archived      D  D  D  D  I  D  D  D
memories.hard_delete_memory              hidden        D  D  D  D  I  D  D  D
memories.hard_delete_memory              hard-deleted  D  D  D  D  N  D  D  D
memories.memory_history                  active        D  V  N  D  V  D  D  D
memories.memory_history                  soft-deleted  D  N  N  D  V  D  D  D
memories.memory_history                  archived      D  V  N  D  V  D  D  D
memories.memory_history                  hidden        D  V  N  D  V  D  D  D
memories.memory_history                  hard-deleted  D  N  N  D  N  D  D  D
memories.revert_memory                   active        D  V  N  D  D  D  D  D
memories.revert_memory                   soft-deleted  D  N  N  D  D  D  D  D
memories.revert_memory                   archived      D  N  N  D  D  D  D  D
memories.revert_memory                   hidden        D  V  N  D  D  D  D  D
memories.revert_memory                   hard-deleted  D  N  N  D  D  D  D  D
memories.add_memory                      -             D  -  -  D  D  D  D  D
memories.count_by_type                   active        D  -  N  D  -  D  D  D
memories.count_by_type                   soft-deleted  D  -  N  D  -  D  D  D
memories.count_by_type                   archived      D  -  N  D  -  D  D  D
memories.count_by_type                   hidden        D  -  N  D  -  D  D  D
memories.count_by_type                   hard-deleted  D  -  N  D  -  D  D  D
memories.count_by_type                   pending       D  -  N  D  -  D  D  D
memories.count_by_type                   confirmed     D  -  N  D  -  D  D  D
memories.count_by_type                   rejected      D  -  N  D  -  D  D  D
# merging two of the athlete's own active memories (domain/merges.py): the target kept, or merged into another
merges.merge_memories                    active        D  V  N  D  D  D  D  D
merges.merge_memories                    soft-deleted  D  N  N  D  D  D  D  D
merges.merge_memories                    archived      D  N  N  D  D  D  D  D
merges.merge_memories                    hidden        D  V  N  D  D  D  D  D
merges.merge_memories                    hard-deleted  D  N  N  D  D  D  D  D
merges.merge_memories[other_id]          active        D  -  N  D  D  D  D  D
merges.merge_memories[other_id]          soft-deleted  D  N  N  D  D  D  D  D
merges.merge_memories[other_id]          archived      D  N  N  D  D  D  D  D
merges.merge_memories[other_id]          hidden        D  -  N  D  D  D  D  D
merges.merge_memories[other_id]          hard-deleted  D  N  N  D  D  D  D  D
# what the coach sees (set_hidden, the preview), what it read, what a memory replaced
coach_context.set_hidden                 active        D  V  N  D  D  D  D  D
coach_context.set_hidden                 soft-deleted  D  N  N  D  D  D  D  D
coach_context.set_hidden                 archived      D  N  N  D  D  D  D  D
coach_context.set_hidden                 hidden        D  V  N  D  D  D  D  D
coach_context.set_hidden                 hard-deleted  D  N  N  D  D  D  D  D
coach_context.coach_preview              active        D  V  -  D  D  D  D  D
coach_context.coach_preview              soft-deleted  D  -  -  D  D  D  D  D
coach_context.coach_preview              archived      D  -  -  D  D  D  D  D
coach_context.coach_preview              hidden        D  -  -  D  D  D  D  D
coach_context.coach_preview              hard-deleted  D  -  -  D  D  D  D  D
coach_context.coach_preview              pending       D  -  -  D  D  D  D  D
coach_context.coach_preview              confirmed     D  -  -  D  D  D  D  D
coach_context.coach_preview              rejected      D  -  -  D  D  D  D  D
coach_reads.coach_reads_for              active        D  V  -  D  D  D  D  D
coach_reads.coach_reads_for              soft-deleted  D  -  -  D  D  D  D  D
coach_reads.coach_reads_for              archived      D  -  -  D  D  D  D  D
coach_reads.coach_reads_for              hidden        D  -  -  D  D  D  D  D
coach_reads.coach_reads_for              hard-deleted  D  -  -  D  D  D  D  D
coach_reads.coach_reads_for              pending       D  -  -  D  D  D  D  D
coach_reads.coach_reads_for              confirmed     D  -  -  D  D  D  D  D
coach_reads.coach_reads_for              rejected      D  -  -  D  D  D  D  D
coach_reads.usage_counts                 active        D  -  -  D  D  D  D  D
coach_reads.usage_counts                 soft-deleted  D  -  -  D  D  D  D  D
coach_reads.usage_counts                 archived      D  -  -  D  D  D  D  D
coach_reads.usage_counts                 hidden        D  -  -  D  D  D  D  D
coach_reads.usage_counts                 hard-deleted  D  -  -  D  D  D  D  D
replaced.replaced_by                     active        D  -  N  D  -  D  D  D
replaced.replaced_by                     soft-deleted  D  N  N  D  -  D  D  D
replaced.replaced_by                     archived      D  -  N  D  -  D  D  D
replaced.replaced_by                     hidden        D  -  N  D  -  D  D  D
replaced.replaced_by                     hard-deleted  D  N  N  D  N  D  D  D
# the Context page's lists: an athlete their own, an admin any athlete's (by athlete_id)
memory_lists.list_memories               active        D  V  -  D  I  D  D  D
memory_lists.list_memories               soft-deleted  D  -  -  D  I  D  D  D
memory_lists.list_memories               archived      D  -  -  D  I  D  D  D
memory_lists.list_memories               hidden        D  V  -  D  I  D  D  D
memory_lists.list_memories               hard-deleted  D  -  -  D  I  D  D  D
memory_lists.list_memories               pending       D  -  -  D  I  D  D  D
memory_lists.list_memories               confirmed     D  -  -  D  I  D  D  D
memory_lists.list_memories               rejected      D  -  -  D  I  D  D  D
memory_lists.list_memories[athlete_id]   active        D  V  N  D  V  D  D  D
memory_lists.list_memories[athlete_id]   soft-deleted  D  -  N  D  -  D  D  D
memory_lists.list_memories[athlete_id]   archived      D  -  N  D  -  D  D  D
memory_lists.list_memories[athlete_id]   hidden        D  V  N  D  V  D  D  D
memory_lists.list_memories[athlete_id]   hard-deleted  D  -  N  D  -  D  D  D
memory_lists.list_memories[athlete_id]   pending       D  -  N  D  -  D  D  D
memory_lists.list_memories[athlete_id]   confirmed     D  -  N  D  -  D  D  D
memory_lists.list_memories[athlete_id]   rejected      D  -  N  D  -  D  D  D
memory_lists.list_memories_by_type       active        D  V  N  D  V  D  D  D
memory_lists.list_memories_by_type       soft-deleted  D  -  N  D  -  D  D  D
memory_lists.list_memories_by_type       archived      D  -  N  D  -  D  D  D
memory_lists.list_memories_by_type       hidden        D  V  N  D  V  D  D  D
memory_lists.list_memories_by_type       hard-deleted  D  -  N  D  -  D  D  D
memory_lists.list_memories_by_type       pending       D  -  N  D  -  D  D  D
memory_lists.list_memories_by_type       confirmed     D  -  N  D  -  D  D  D
memory_lists.list_memories_by_type       rejected      D  -  N  D  -  D  D  D
memory_lists.list_more                   active        D  -  N  D  -  D  D  D
memory_lists.list_more                   soft-deleted  D  -  N  D  -  D  D  D
memory_lists.list_more                   archived      D  -  N  D  -  D  D  D
memory_lists.list_more                   hidden        D  -  N  D  -  D  D  D
memory_lists.list_more                   hard-deleted  D  -  N  D  -  D  D  D
memory_lists.list_more                   pending       D  -  N  D  -  D  D  D
memory_lists.list_more                   confirmed     D  -  N  D  -  D  D  D
memory_lists.list_more                   rejected      D  -  N  D  -  D  D  D
memory_lists.memory_view                 active        D  V  N  D  V  D  D  D
memory_lists.memory_view                 soft-deleted  D  -  N  D  -  D  D  D
memory_lists.memory_view                 archived      D  -  N  D  -  D  D  D
memory_lists.memory_view                 hidden        D  V  N  D  V  D  D  D
memory_lists.memory_view                 hard-deleted  D  -  N  D  -  D  D  D
memory_lists.memory_view                 pending       D  -  N  D  -  D  D  D
memory_lists.memory_view                 confirmed     D  -  N  D  -  D  D  D
memory_lists.memory_view                 rejected      D  -  N  D  -  D  D  D
memory_lists.source_dates                active        D  -  N  D  -  D  D  D
memory_lists.source_dates                soft-deleted  D  -  N  D  -  D  D  D
memory_lists.source_dates                archived      D  -  N  D  -  D  D  D
memory_lists.source_dates                hidden        D  -  N  D  -  D  D  D
memory_lists.source_dates                hard-deleted  -  -  -  -  -  -  -  -
memory_lists.owner_scope                 -             D  -  N  D  -  D  D  D
# proposals: the athlete decides their own pending ones; decided ones are refused as already decided
proposals.count_pending                  active        D  -  -  D  D  D  D  D
proposals.count_pending                  soft-deleted  D  -  -  D  D  D  D  D
proposals.count_pending                  archived      D  -  -  D  D  D  D  D
proposals.count_pending                  hidden        D  -  -  D  D  D  D  D
proposals.count_pending                  hard-deleted  D  -  -  D  D  D  D  D
proposals.count_pending                  pending       D  -  -  D  D  D  D  D
proposals.count_pending                  confirmed     D  -  -  D  D  D  D  D
proposals.count_pending                  rejected      D  -  -  D  D  D  D  D
proposals.list_pending                   active        D  -  -  D  D  D  D  D
proposals.list_pending                   soft-deleted  D  -  -  D  D  D  D  D
proposals.list_pending                   archived      D  -  -  D  D  D  D  D
proposals.list_pending                   hidden        D  -  -  D  D  D  D  D
proposals.list_pending                   hard-deleted  D  -  -  D  D  D  D  D
proposals.list_pending                   pending       D  V  -  D  D  D  D  D
proposals.list_pending                   confirmed     D  -  -  D  D  D  D  D
proposals.list_pending                   rejected      D  -  -  D  D  D  D  D
proposals.preview_confirm                pending       D  -  N  D  D  D  D  D
proposals.preview_confirm                confirmed     D  I  N  D  D  D  D  D
proposals.preview_confirm                rejected      D  I  N  D  D  D  D  D
proposals.confirm                        pending       D  V  N  D  D  D  D  D
proposals.confirm                        confirmed     D  I  N  D  D  D  D  D
proposals.confirm                        rejected      D  I  N  D  D  D  D  D
proposals.confirm_many                   pending       D  -  N  D  D  D  D  D
proposals.confirm_many                   confirmed     D  I  N  D  D  D  D  D
proposals.confirm_many                   rejected      D  I  N  D  D  D  D  D
proposals.reject                         pending       D  -  N  D  D  D  D  D
proposals.reject                         confirmed     D  I  N  D  D  D  D  D
proposals.reject                         rejected      D  I  N  D  D  D  D  D
proposals.reject_many                    pending       D  -  N  D  D  D  D  D
proposals.reject_many                    confirmed     D  I  N  D  D  D  D  D
proposals.reject_many                    rejected      D  I  N  D  D  D  D  D
proposals.reopen_rejected                pending       D  I  N  D  D  D  D  D
proposals.reopen_rejected                confirmed     D  I  N  D  D  D  D  D
proposals.reopen_rejected                rejected      D  V  N  D  D  D  D  D
confirm_undo.undo_confirm                pending       D  I  N  D  D  D  D  D
confirm_undo.undo_confirm                confirmed     D  V  N  D  D  D  D  D
confirm_undo.undo_confirm                rejected      D  I  N  D  D  D  D  D
confirm_undo.undo_confirm_many           pending       D  I  N  D  D  D  D  D
confirm_undo.undo_confirm_many           confirmed     D  -  N  D  D  D  D  D
confirm_undo.undo_confirm_many           rejected      D  I  N  D  D  D  D  D
# the athlete's overview, Recently deleted and account
overview.overview                        active        D  -  -  D  D  D  D  D
overview.overview                        soft-deleted  D  -  -  D  D  D  D  D
overview.overview                        archived      D  -  -  D  D  D  D  D
overview.overview                        hidden        D  -  -  D  D  D  D  D
overview.overview                        hard-deleted  D  -  -  D  D  D  D  D
overview.overview                        pending       D  -  -  D  D  D  D  D
overview.overview                        confirmed     D  -  -  D  D  D  D  D
overview.overview                        rejected      D  -  -  D  D  D  D  D
overview.learned_per_week                active        D  -  -  D  D  D  D  D
overview.learned_per_week                soft-deleted  D  -  -  D  D  D  D  D
overview.learned_per_week                archived      D  -  -  D  D  D  D  D
overview.learned_per_week                hidden        D  -  -  D  D  D  D  D
overview.learned_per_week                hard-deleted  D  -  -  D  D  D  D  D
overview.learned_per_week                pending       D  -  -  D  D  D  D  D
overview.learned_per_week                confirmed     D  -  -  D  D  D  D  D
overview.learned_per_week                rejected      D  -  -  D  D  D  D  D
recently_deleted.list_recently_deleted   active        D  -  -  D  D  D  D  D
recently_deleted.list_recently_deleted   soft-deleted  D  V  -  D  D  D  D  D
recently_deleted.list_recently_deleted   archived      D  -  -  D  D  D  D  D
recently_deleted.list_recently_deleted   hidden        D  -  -  D  D  D  D  D
recently_deleted.list_recently_deleted   hard-deleted  D  -  -  D  D  D  D  D
recently_deleted.list_recently_deleted   pending       D  -  -  D  D  D  D  D
recently_deleted.list_recently_deleted   confirmed     D  -  -  D  D  D  D  D
recently_deleted.list_recently_deleted   rejected      D  -  -  D  D  D  D  D
account.change_own_password              -             D  -  -  D  -  D  D  D
# exports (a coach token gets the file without hidden memories) and imports (the athlete or an admin)
exports.export_memory                    active        D  V  D  D  D  V  V  V
exports.export_memory                    soft-deleted  D  -  D  D  D  -  -  -
exports.export_memory                    archived      D  V  D  D  D  V  V  V
exports.export_memory                    hidden        D  V  D  D  D  -  -  -
exports.export_memory                    hard-deleted  D  -  D  D  D  -  -  -
exports.export_memory                    pending       D  -  D  D  D  -  -  -
exports.export_memory                    confirmed     D  -  D  D  D  -  -  -
exports.export_memory                    rejected      D  -  D  D  D  -  -  -
export_data.check_export_actor           -             D  -  D  D  D  -  -  -
imports.check_import_actor               -             D  -  D  D  -  D  D  D
imports.plan_import                      -             D  -  D  D  -  D  D  D
imports.import_file                      -             D  -  D  D  -  D  D  D
# the admin console: deleted memories, users, tokens, the audit log, retention
admin_deleted.list_deleted               active        D  D  D  D  -  D  D  D
admin_deleted.list_deleted               soft-deleted  D  D  D  D  V  D  D  D
admin_deleted.list_deleted               archived      D  D  D  D  -  D  D  D
admin_deleted.list_deleted               hidden        D  D  D  D  -  D  D  D
admin_deleted.list_deleted               hard-deleted  D  D  D  D  -  D  D  D
admin_deleted.list_deleted               pending       D  D  D  D  -  D  D  D
admin_deleted.list_deleted               confirmed     D  D  D  D  -  D  D  D
admin_deleted.list_deleted               rejected      D  D  D  D  -  D  D  D
admin_deleted.restore_selected           active        D  D  D  D  I  D  D  D
admin_deleted.restore_selected           soft-deleted  D  D  D  D  V  D  D  D
admin_deleted.restore_selected           archived      D  D  D  D  I  D  D  D
admin_deleted.restore_selected           hidden        D  D  D  D  I  D  D  D
admin_deleted.restore_selected           hard-deleted  D  D  D  D  N  D  D  D
admin_deleted.delete_permanently         active        D  D  D  D  I  D  D  D
admin_deleted.delete_permanently         soft-deleted  D  D  D  D  -  D  D  D
admin_deleted.delete_permanently         archived      D  D  D  D  I  D  D  D
admin_deleted.delete_permanently         hidden        D  D  D  D  I  D  D  D
admin_deleted.delete_permanently         hard-deleted  D  D  D  D  N  D  D  D
users.create_user                        -             D  D  D  D  -  D  D  D
users.set_disabled                       -             D  D  D  D  -  D  D  D
users.reset_password                     -             D  D  D  D  -  D  D  D
users.change_role                        -             D  D  D  D  -  D  D  D
users.list_users                         -             D  D  D  D  -  D  D  D
users.athlete_choices                    -             D  D  D  D  -  D  D  D
users.user_choices                       -             D  D  D  D  -  D  D  D
api_tokens.create_token                  -             D  D  D  D  -  D  D  D
api_tokens.list_tokens                   -             D  D  D  D  -  D  D  D
api_tokens.revoke_token                  -             D  D  D  D  -  D  D  D
audit_log.audit_page                     active        D  D  D  D  V  D  D  D
audit_log.audit_page                     soft-deleted  D  D  D  D  V  D  D  D
audit_log.audit_page                     archived      D  D  D  D  V  D  D  D
audit_log.audit_page                     hidden        D  D  D  D  V  D  D  D
audit_log.audit_page                     hard-deleted  D  D  D  D  -  D  D  D
audit_log.audit_page                     pending       D  D  D  D  V  D  D  D
audit_log.audit_page                     confirmed     D  D  D  D  V  D  D  D
audit_log.audit_page                     rejected      D  D  D  D  V  D  D  D
audit_log.audit_event                    active        D  D  D  D  V  D  D  D
audit_log.audit_event                    soft-deleted  D  D  D  D  V  D  D  D
audit_log.audit_event                    archived      D  D  D  D  V  D  D  D
audit_log.audit_event                    hidden        D  D  D  D  V  D  D  D
audit_log.audit_event                    hard-deleted  D  D  D  D  -  D  D  D
audit_log.audit_event                    pending       D  D  D  D  V  D  D  D
audit_log.audit_event                    confirmed     D  D  D  D  V  D  D  D
audit_log.audit_event                    rejected      D  D  D  D  V  D  D  D
audit_log.chain_status                   -             D  D  D  D  -  D  D  D
audit_export.export_csv                  active        D  D  D  D  V  D  D  D
audit_export.export_csv                  soft-deleted  D  D  D  D  V  D  D  D
audit_export.export_csv                  archived      D  D  D  D  V  D  D  D
audit_export.export_csv                  hidden        D  D  D  D  V  D  D  D
audit_export.export_csv                  hard-deleted  D  D  D  D  -  D  D  D
audit_export.export_csv                  pending       D  D  D  D  V  D  D  D
audit_export.export_csv                  confirmed     D  D  D  D  V  D  D  D
audit_export.export_csv                  rejected      D  D  D  D  V  D  D  D
audit_checkpoints.verify                 -             D  D  D  D  -  D  D  D
audit_checkpoints.record                 -             D  D  D  D  -  D  D  D
audit_checkpoints.last_check             -             D  D  D  D  -  D  D  D
audit_refused.refused_events             -             D  D  D  D  -  D  D  D
audit_deep.compare_memories              -             D  D  D  D  -  D  D  D
retention.plan_purge                     -             D  D  D  D  -  D  D  D
retention.run_purge                      -             D  D  D  D  -  D  D  D
"""


@dataclass(frozen=True)
class Targets:
    """One athlete's records, one in each state; `marker` words are in their content and nowhere else."""

    owner_id: int
    username: str
    memory_ids: dict[str, int]
    versions: dict[str, int]
    memory_events: dict[str, int]  # the target memory's first audit event (its creation)
    proposal_ids: dict[str, int]
    proposal_events: dict[str, int]

    def marker(self, target: str) -> str:
        return f"zq{target.replace('-', '')}{self.username}"


@dataclass
class World:
    engine: Engine
    actors: dict[str, Actor | None]
    targets: Targets  # alex's
    own_targets: Targets  # dana's: the disabled actor's own
    owner: User
    other: User
    admin: User
    extra: dict[str, Any] = field(default_factory=dict)

    def targets_for(self, actor: str) -> Targets:
        return self.own_targets if actor == "disabled" else self.targets


def _memory(session: Session, owner: User, target: str, content: str, memory_type: MemoryType, **values: Any) -> Memory:
    now = utcnow()
    memory = Memory(
        athlete_id=owner.id,
        type=memory_type,
        content=content,
        source=MemorySource.USER_MESSAGE,
        source_reference=f"note-{target}",
        confidence=MemoryConfidence.MEDIUM,
        occurrences=1,
        tags=values.pop("tags", []),
        status=MemoryStatus.ACTIVE,
        created_at=now,
        updated_at=now,
    )
    return insert_memory(session, SYSTEM, memory)


def _proposal(session: Session, owner: User, content: str, memory_type: MemoryType, tags: list[str]) -> Proposal:
    proposal = Proposal(
        athlete_id=owner.id,
        source_text_id=None,
        type=memory_type,
        content=content,
        normalized_content=normalize(content),
        source=MemorySource.ACTIVITY_NOTE,
        source_reference="note-proposed",
        confidence=MemoryConfidence.MEDIUM,
        tags=tags,
        evidence=[],
        extractor="matrix",
        status=ProposalStatus.PENDING,
        created_at=utcnow(),
    )
    return proposals.add_proposal(session, proposal, actor=SYSTEM)


def _first_event(session: Session, target_type: AuditTarget, target_id: int) -> int:
    seq = session.scalar(
        select(AuditEvent.seq)
        .where(AuditEvent.target_type == target_type, AuditEvent.target_id == target_id)
        .order_by(AuditEvent.seq)
        .limit(1)
    )
    assert seq is not None
    return seq


def build_targets(engine: Engine, owner: User, admin: User) -> Targets:
    name = owner.username

    def mk(target: str) -> str:
        return f"zq{target.replace('-', '')}{name}"

    ids: dict[str, int] = {}
    props: dict[str, int] = {}
    with unit_of_work(engine) as s:
        ids["active"] = _memory(s, owner, "active", f"Prefers quiet trails {mk('active')}", MemoryType.PREFERENCE).id
        ids["soft-deleted"] = _memory(s, owner, "d", f"Works night shifts {mk('soft-deleted')}", MemoryType.CONTEXT).id
        ids["archived"] = _memory(
            s, owner, "a", f"Left knee pain {mk('archived')}", MemoryType.INJURY_HISTORY, tags=["body:knee"]
        ).id
        ids["hidden"] = _memory(s, owner, "h", f"Recovers slowly {mk('hidden')}", MemoryType.TRAINING_RESPONSE).id
        ids["hard-deleted"] = _memory(s, owner, "x", f"Secret insight {mk('hard-deleted')}", MemoryType.INSIGHT).id
        props["pending"] = _proposal(s, owner, f"Likes hill repeats {mk('pending')}", MemoryType.PREFERENCE, []).id
        props["confirmed"] = _proposal(
            s, owner, f"Knee brace helps {mk('confirmed')}", MemoryType.INJURY_HISTORY, ["body:knee"]
        ).id
        props["rejected"] = _proposal(s, owner, f"Hates treadmills {mk('rejected')}", MemoryType.PREFERENCE, []).id
    with unit_of_work(engine) as s:
        memories.delete_memory(s, owner, memory_id=ids["soft-deleted"])
        memories.delete_memory(s, owner, memory_id=ids["hard-deleted"])
        coach_context.set_hidden(s, owner, memory_id=ids["hidden"], hidden=True)
        # Confirming replaces the knee memory (same type, a shared tag): it becomes archived.
        proposals.confirm(
            s, owner, proposal_id=props["confirmed"], edits=ProposalEdit(content="Knee brace helps on descents")
        )
        proposals.reject(s, owner, proposal_id=props["rejected"])
    with unit_of_work(engine) as s:
        memories.hard_delete_memory(s, admin, memory_id=ids["hard-deleted"], reason="matrix")
    with unit_of_work(engine, read_only=True) as s:
        options = {"include_inactive": True}
        versions = {}
        for target, memory_id in ids.items():
            memory = s.get(Memory, memory_id, execution_options=options)
            versions[target] = memory.version if memory is not None else 1
        state = {t: getattr(s.get(Memory, i, execution_options=options), "status", None) for t, i in ids.items()}
        assert state == {
            "active": MemoryStatus.ACTIVE,
            "soft-deleted": MemoryStatus.DELETED,
            "archived": MemoryStatus.ARCHIVED,
            "hidden": MemoryStatus.ACTIVE,
            "hard-deleted": None,
        }
        memory_events = {t: _first_event(s, AuditTarget.MEMORY, i) for t, i in ids.items()}
        proposal_events = {t: _first_event(s, AuditTarget.PROPOSAL, i) for t, i in props.items()}
    return Targets(owner.id, name, ids, versions, memory_events, props, proposal_events)


def _reload(engine: Engine, user_id: int) -> User:
    with unit_of_work(engine, read_only=True) as s:
        user = s.get(User, user_id)
        assert user is not None
        return user


def build_world(engine: Engine) -> World:
    alex = make_user(engine, "alex")
    sam = make_user(engine, "sam")
    dana = make_user(engine, "dana")
    root = make_user(engine, "root", Role.ADMIN)
    targets = build_targets(engine, alex, root)
    own_targets = build_targets(engine, dana, root)
    with unit_of_work(engine) as s:
        users.set_disabled(s, root, user_id=dana.id, disabled=True)
        ingest = api_tokens.create_token(s, SYSTEM, name="coach-ingest", scopes=["ingest"]).token
        read = api_tokens.create_token(s, SYSTEM, name="coach-read", scopes=["read"]).token
        gone = api_tokens.create_token(s, SYSTEM, name="coach-gone", scopes=["read", "ingest"]).token
    with unit_of_work(engine) as s:
        api_tokens.revoke_token(s, SYSTEM, name_or_id=gone.id)
        for each in (targets, own_targets):  # the coach read the active memory once
            record_read(
                s,
                Caller(read.id, read.name, frozenset({ApiScope.READ})),
                athlete_id=each.owner_id,
                kind="context",
                memory_ids=[each.memory_ids["active"]],
                query="trails",
                block=f"MEMORY:\n- Facts: Prefers quiet trails {each.marker('active')}",
            )
    actors: dict[str, Actor | None] = {
        "anonymous": None,
        "owner": _reload(engine, alex.id),
        "other": _reload(engine, sam.id),
        "disabled": _reload(engine, dana.id),
        "admin": _reload(engine, root.id),
        "token:ingest": token_actor(ingest.id, ingest.name),
        "token:read": token_actor(read.id, read.name),
        "token:revoked": token_actor(gone.id, gone.name),
    }
    owner, other, admin = actors["owner"], actors["other"], actors["admin"]
    assert isinstance(owner, User) and isinstance(other, User) and isinstance(admin, User)
    assert isinstance(actors["disabled"], User) and actors["disabled"].disabled
    return World(engine, actors, targets, own_targets, owner, other, admin)


# ---------------------------------------------------------------------------------------------------
# The operations: what each page action calls, with the arguments a page would pass.
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """What one call needs: the world, the actor (and their name), and the target's ids."""

    world: World
    actor_name: str
    actor: Actor | None
    targets: Targets
    target: str

    @property
    def owner_id(self) -> int:
        return self.targets.owner_id

    @property
    def owner(self) -> User:
        return self.world.actors["disabled"] if self.actor_name == "disabled" else self.world.owner  # type: ignore[return-value]

    @property
    def memory_id(self) -> int:
        return self.targets.memory_ids[self.target]

    @property
    def version(self) -> int:
        return self.targets.versions[self.target]

    @property
    def proposal_id(self) -> int:
        return self.targets.proposal_ids[self.target]

    @property
    def event_seq(self) -> int:
        if self.target in PROPOSAL_TARGETS:
            return self.targets.proposal_events[self.target]
        return self.targets.memory_events[self.target]


Call = Callable[[Session, Any, Cell], Any]


@dataclass(frozen=True)
class Operation:
    call: Call
    targets: tuple[str, ...]  # MEMORY_TARGETS, PROPOSAL_TARGETS, ALL_TARGETS or (NONE,)
    listing: bool = False  # one call per actor; each target's cell says whether the answer shows it


def _loaded(session: Session, memory_id: int) -> list[Memory]:
    memory = session.get(Memory, memory_id, execution_options={"include_inactive": True})
    return [memory] if memory is not None else []


def _partner(cell: Cell) -> int:
    """The other active memory of the target's owner, to merge with the target."""
    return cell.targets.memory_ids["hidden" if cell.target == "active" else "active"]


def _plan_and_run(session: Session, actor: Any, cell: Cell) -> Any:
    plan = retention.plan_purge(session, SYSTEM, periods=retention.RetentionPeriods())
    return retention.run_purge(session, actor, plan=plan)


CURSOR = MemoryCursor(id=10**9, updated_at=utcnow(), confidence=MemoryConfidence.HIGH, occurrences=10**6)
IMPORT_TEXT = b"Prefers trail shoes with a wide toe box\n"
ALL_QUERY = MemoryQuery(limit=200)


# Words of every target's content (not the markers: the answer repeats the query).
COACH_QUERY = "quiet trails night shifts left knee pain recovers slowly secret insight hill repeats treadmills"


OPERATIONS: dict[str, Operation] = {
    # memories.py
    "memories.get_memory": Operation(lambda s, a, c: memories.get_memory(s, a, memory_id=c.memory_id), MEMORY_TARGETS),
    "memories.get_memories": Operation(
        lambda s, a, c: memories.get_memories(s, a, memory_ids=[c.memory_id]), MEMORY_TARGETS
    ),
    "memories.edit_memory": Operation(
        lambda s, a, c: memories.edit_memory(
            s, a, memory_id=c.memory_id, changes=MemoryEdit(content="Changed by the matrix"), expected_version=c.version
        ),
        MEMORY_TARGETS,
    ),
    "memories.delete_memory": Operation(
        lambda s, a, c: memories.delete_memory(s, a, memory_id=c.memory_id, expected_version=c.version), MEMORY_TARGETS
    ),
    "memories.undo_delete": Operation(
        lambda s, a, c: memories.undo_delete(s, a, memory_id=c.memory_id), MEMORY_TARGETS
    ),
    "memories.restore_memory": Operation(
        lambda s, a, c: memories.restore_memory(s, a, memory_id=c.memory_id, reason="asked"), MEMORY_TARGETS
    ),
    "memories.hard_delete_memory": Operation(
        lambda s, a, c: memories.hard_delete_memory(s, a, memory_id=c.memory_id, reason="asked"), MEMORY_TARGETS
    ),
    "memories.memory_history": Operation(
        lambda s, a, c: memories.memory_history(s, a, memory_id=c.memory_id), MEMORY_TARGETS
    ),
    "memories.revert_memory": Operation(
        lambda s, a, c: memories.revert_memory(
            s, a, memory_id=c.memory_id, event_seq=c.event_seq, expected_version=c.version
        ),
        MEMORY_TARGETS,
    ),
    "memories.add_memory": Operation(
        lambda s, a, c: memories.add_memory(s, a, data=MemoryCreate(content="Added", type=MemoryType.CONTEXT)), (NONE,)
    ),
    "merges.merge_memories": Operation(
        lambda s, a, c: merges.merge_memories(s, a, keep_id=c.memory_id, other_id=_partner(c)), MEMORY_TARGETS
    ),
    "merges.merge_memories[other_id]": Operation(
        lambda s, a, c: merges.merge_memories(s, a, keep_id=_partner(c), other_id=c.memory_id), MEMORY_TARGETS
    ),
    "memories.count_by_type": Operation(
        lambda s, a, c: memories.count_by_type(s, a, athlete_id=c.owner_id), ALL_TARGETS, listing=True
    ),
    # coach_context.py, coach_reads.py, replaced.py
    "coach_context.set_hidden": Operation(
        lambda s, a, c: coach_context.set_hidden(s, a, memory_id=c.memory_id, hidden=c.target != "hidden"),
        MEMORY_TARGETS,
    ),
    "coach_context.coach_preview": Operation(
        lambda s, a, c: coach_context.coach_preview(s, a, query=COACH_QUERY, max_tokens=4000),
        ALL_TARGETS,
        listing=True,
    ),
    "coach_reads.coach_reads_for": Operation(
        lambda s, a, c: coach_reads.coach_reads_for(s, a), ALL_TARGETS, listing=True
    ),
    "coach_reads.usage_counts": Operation(
        lambda s, a, c: coach_reads.usage_counts(s, a, [c.memory_id]), MEMORY_TARGETS
    ),
    "replaced.replaced_by": Operation(
        lambda s, a, c: replaced.replaced_by(s, a, memory_id=c.memory_id), MEMORY_TARGETS
    ),
    # memory_lists.py
    "memory_lists.list_memories": Operation(
        lambda s, a, c: memory_lists.list_memories(s, a, query=ALL_QUERY), ALL_TARGETS, listing=True
    ),
    "memory_lists.list_memories[athlete_id]": Operation(
        lambda s, a, c: memory_lists.list_memories(s, a, query=ALL_QUERY, athlete_id=c.owner_id),
        ALL_TARGETS,
        listing=True,
    ),
    "memory_lists.list_memories_by_type": Operation(
        lambda s, a, c: memory_lists.list_memories_by_type(
            s, a, query=ALL_QUERY, limits=dict.fromkeys(MemoryType, 50), athlete_id=c.owner_id
        ),
        ALL_TARGETS,
        listing=True,
    ),
    "memory_lists.list_more": Operation(
        lambda s, a, c: memory_lists.list_more(s, a, query=ALL_QUERY, after=CURSOR, athlete_id=c.owner_id),
        ALL_TARGETS,
        listing=True,
    ),
    "memory_lists.memory_view": Operation(
        lambda s, a, c: memory_lists.memory_view(s, a, query=ALL_QUERY, athlete_id=c.owner_id),
        ALL_TARGETS,
        listing=True,
    ),
    "memory_lists.source_dates": Operation(
        lambda s, a, c: memory_lists.source_dates(s, a, _loaded(s, c.memory_id)), MEMORY_TARGETS
    ),
    "memory_lists.owner_scope": Operation(lambda s, a, c: memory_lists.owner_scope(a, c.owner_id), (NONE,)),
    # proposals.py
    "proposals.count_pending": Operation(lambda s, a, c: proposals.count_pending(s, a), ALL_TARGETS, listing=True),
    "proposals.list_pending": Operation(lambda s, a, c: proposals.list_pending(s, a), ALL_TARGETS, listing=True),
    "proposals.preview_confirm": Operation(
        lambda s, a, c: proposals.preview_confirm(s, a, proposal_id=c.proposal_id), PROPOSAL_TARGETS
    ),
    "proposals.confirm": Operation(
        lambda s, a, c: proposals.confirm(s, a, proposal_id=c.proposal_id), PROPOSAL_TARGETS
    ),
    "proposals.confirm_many": Operation(
        lambda s, a, c: proposals.confirm_many(s, a, proposal_ids=[c.proposal_id]), PROPOSAL_TARGETS
    ),
    "proposals.reject": Operation(lambda s, a, c: proposals.reject(s, a, proposal_id=c.proposal_id), PROPOSAL_TARGETS),
    "proposals.reject_many": Operation(
        lambda s, a, c: proposals.reject_many(s, a, proposal_ids=[c.proposal_id]), PROPOSAL_TARGETS
    ),
    "proposals.reopen_rejected": Operation(
        lambda s, a, c: proposals.reopen_rejected(s, a, proposal_id=c.proposal_id), PROPOSAL_TARGETS
    ),
    "confirm_undo.undo_confirm": Operation(
        lambda s, a, c: confirm_undo.undo_confirm(s, a, proposal_id=c.proposal_id), PROPOSAL_TARGETS
    ),
    "confirm_undo.undo_confirm_many": Operation(
        lambda s, a, c: confirm_undo.undo_confirm_many(s, a, proposal_ids=[c.proposal_id]), PROPOSAL_TARGETS
    ),
    # the athlete's other pages
    "overview.overview": Operation(lambda s, a, c: overview.overview(s, a), ALL_TARGETS, listing=True),
    "overview.learned_per_week": Operation(lambda s, a, c: overview.learned_per_week(s, a), ALL_TARGETS, listing=True),
    "recently_deleted.list_recently_deleted": Operation(
        lambda s, a, c: recently_deleted.list_recently_deleted(s, a), ALL_TARGETS, listing=True
    ),
    "account.change_own_password": Operation(
        lambda s, a, c: account.change_own_password(s, a, current=TEST_PASSWORD, new="another long passphrase"),
        (NONE,),
    ),
    # exports and imports
    "exports.export_memory": Operation(
        lambda s, a, c: exports.export_memory(s, a, athlete=c.owner, format="m13"), ALL_TARGETS, listing=True
    ),
    "export_data.check_export_actor": Operation(lambda s, a, c: export_data.check_export_actor(a, c.owner), (NONE,)),
    "imports.check_import_actor": Operation(lambda s, a, c: imports.check_import_actor(a, c.owner), (NONE,)),
    "imports.plan_import": Operation(
        lambda s, a, c: imports.plan_import(s, a, athlete=c.owner, file_name="notes.txt", data=IMPORT_TEXT), (NONE,)
    ),
    "imports.import_file": Operation(
        lambda s, a, c: imports.import_file(s, a, athlete=c.owner, file_name="notes.txt", data=IMPORT_TEXT), (NONE,)
    ),
    # the admin console: deleted memories, users, tokens, the audit log, retention
    "admin_deleted.list_deleted": Operation(
        lambda s, a, c: admin_deleted.list_deleted(s, a, query=admin_deleted.DeletedQuery(page_size=100)),
        ALL_TARGETS,
        listing=True,
    ),
    "admin_deleted.restore_selected": Operation(
        lambda s, a, c: admin_deleted.restore_selected(s, a, memory_ids=[c.memory_id], reason="asked"), MEMORY_TARGETS
    ),
    "admin_deleted.delete_permanently": Operation(
        lambda s, a, c: admin_deleted.delete_permanently(
            s, a, memory_id=c.memory_id, typed_username=c.targets.username, reason="asked"
        ),
        MEMORY_TARGETS,
    ),
    "users.create_user": Operation(
        lambda s, a, c: users.create_user(s, a, username="newcomer", password=TEST_PASSWORD, role=Role.ATHLETE),
        (NONE,),
    ),
    "users.set_disabled": Operation(
        lambda s, a, c: users.set_disabled(s, a, user_id=c.owner_id, disabled=True), (NONE,)
    ),
    "users.reset_password": Operation(
        lambda s, a, c: users.reset_password(s, a, user_id=c.owner_id, new_password="a brand new passphrase"), (NONE,)
    ),
    "users.change_role": Operation(
        lambda s, a, c: users.change_role(s, a, user_id=c.owner_id, role=Role.ADMIN), (NONE,)
    ),
    "users.list_users": Operation(lambda s, a, c: users.list_users(s, a), (NONE,)),
    "users.athlete_choices": Operation(lambda s, a, c: users.athlete_choices(s, a), (NONE,)),
    "users.user_choices": Operation(lambda s, a, c: users.user_choices(s, a), (NONE,)),
    "api_tokens.create_token": Operation(
        lambda s, a, c: api_tokens.create_token(s, a, name="another", scopes=["read"]), (NONE,)
    ),
    "api_tokens.list_tokens": Operation(lambda s, a, c: api_tokens.list_tokens(s, a), (NONE,)),
    "api_tokens.revoke_token": Operation(
        lambda s, a, c: api_tokens.revoke_token(s, a, name_or_id="coach-read"), (NONE,)
    ),
    "audit_log.audit_page": Operation(
        lambda s, a, c: audit_log.audit_page(s, a, page_size=200), ALL_TARGETS, listing=True
    ),
    "audit_log.audit_event": Operation(lambda s, a, c: audit_log.audit_event(s, a, seq=c.event_seq), ALL_TARGETS),
    "audit_log.chain_status": Operation(lambda s, a, c: audit_log.chain_status(s, a), (NONE,)),
    "audit_export.export_csv": Operation(
        lambda s, a, c: audit_export.export_csv(s, a, filters=AuditFilter(), summary=str),
        ALL_TARGETS,
        listing=True,
    ),
    "audit_checkpoints.verify": Operation(lambda s, a, c: audit_checkpoints.verify(s, a), (NONE,)),
    "audit_checkpoints.record": Operation(
        lambda s, a, c: audit_checkpoints.record(s, a, audit_checkpoints.verify(s, SYSTEM)), (NONE,)
    ),
    "audit_checkpoints.last_check": Operation(lambda s, a, c: audit_checkpoints.last_check(s, a), (NONE,)),
    "audit_refused.refused_events": Operation(lambda s, a, c: audit_refused.refused_events(s, a), (NONE,)),
    "audit_deep.compare_memories": Operation(lambda s, a, c: audit_deep.compare_memories(s, a), (NONE,)),
    "retention.plan_purge": Operation(
        lambda s, a, c: retention.plan_purge(s, a, periods=retention.RetentionPeriods()), (NONE,)
    ),
    "retention.run_purge": Operation(_plan_and_run, (NONE,)),
}

# Public domain functions that take an actor but are no page action of their own: each is called by
# a service above after that service's own check, or by the system alone.
BUILDING_BLOCKS = {
    "actors.require_login": "the checks themselves (every row above goes through them)",
    "actors.require_admin": "a check",
    "actors.require_athlete": "a check",
    "actors.require_admin_or_system": "a check",
    "actors.actor_identity": "how an event names its actor",
    "audit.record": "writes the event of a change a service already allowed",
    "memory_writes.change_memory": "the write behind memories.*, proposals.*, after their checks",
    "memory_writes.count_again": "the write behind proposals.confirm",
    "memory_writes.insert_memory": "the write behind add_memory and confirm",
    "memory_writes.remove_memory": "the write behind hard_delete_memory and retention",
    "memory_writes.set_hidden_from_coach": "the write behind coach_context.set_hidden",
    "memory_writes.supersede": "the write behind proposals.confirm",
    "proposals.add_proposal": "the write behind ingest and import_file",
    "insights.propose_insights": "pattern analysis after an ingest (the system)",
    "ingest.ingest": "the system's ingest; the API's token check is in tests/api/test_route_matrix.py",
    "users.replace_password": "the write behind reset_password and change_own_password, after their checks",
}


def parse_table(text: str) -> dict[tuple[str, str, str], str]:
    table: dict[tuple[str, str, str], str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        operation, target, *codes = line.split()
        assert len(codes) == len(ACTORS), line
        for actor, code in zip(ACTORS, codes, strict=True):
            key = (operation, actor, target)
            assert key not in table, f"two rows for {key}"
            table[key] = code
    return table


TABLE = parse_table(TABLE_TEXT)


# ---------------------------------------------------------------------------------------------------
# Observing a cell
# ---------------------------------------------------------------------------------------------------


def _texts(value: Any, seen: set[int], depth: int = 0) -> Iterator[str]:
    """Every string inside an answer: containers, dataclasses, pydantic models and loaded ORM attributes."""
    if depth > 12 or id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, str):
        yield value
    elif isinstance(value, bytes):
        yield value.decode("utf-8", "replace")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key, seen, depth + 1)
            yield from _texts(item, seen, depth + 1)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from _texts(item, seen, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _texts(getattr(value, f.name), seen, depth + 1)
    elif hasattr(value, "_sa_instance_state"):
        for name, item in vars(value).items():
            if not name.startswith("_"):
                yield from _texts(item, seen, depth + 1)
    elif hasattr(value, "model_dump"):
        yield from _texts(value.model_dump(), seen, depth + 1)


@contextmanager
def rolled_back(engine: Engine) -> Iterator[Session]:
    session = Session(bind=engine.execution_options(**{IMMEDIATE: True}), autoflush=True)
    try:
        yield session
    finally:
        session.rollback()
        session.close()


def observe(world: World, name: str, operation: Operation, actor_name: str) -> dict[str, str]:
    """The outcome of one operation for one actor, per target."""
    actor = world.actors[actor_name]
    targets = world.targets_for(actor_name)
    results: dict[str, str] = {}
    calls = [NONE] if operation.listing else list(operation.targets)
    for target in calls:
        cell = Cell(world, actor_name, actor, targets, target if target in ALL_TARGETS else "active")
        with rolled_back(world.engine) as session:
            try:
                answer = operation.call(session, actor, cell)
            except PermissionDenied:
                code = "D"
            except NotFound:
                code = "N"
            except InvalidInput:
                code = "I"
            except EditConflict:
                code = "E"
            except DomainError as exc:  # shows up as a wrong cell
                code = f"?{type(exc).__name__}"
            else:
                text = "\n".join(_texts(answer, set()))
                code = ""
        if operation.listing:
            for each in operation.targets:
                results[each] = code or ("V" if targets.marker(each) in text else "-")
        else:
            results[target] = code or ("V" if target != NONE and targets.marker(target) in text else "-")
    return results


# ---------------------------------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    if request.param == "sqlite":
        template = SqliteTemplate(tmp_path_factory.mktemp("matrix-template"))
        engine = make_engine(template.copy_to(Path(tmp_path_factory.mktemp("matrix")) / "matrix.sqlite3"))
        try:
            yield build_world(engine)
        finally:
            engine.dispose()
    else:
        with postgres_engine() as engine:
            yield build_world(engine)


def test_every_actor_on_every_target_gets_what_the_table_says(world: World) -> None:
    observed: dict[tuple[str, str, str], str] = {}
    for name, operation in OPERATIONS.items():
        for actor_name in ACTORS:
            for target, code in observe(world, name, operation, actor_name).items():
                observed[(name, actor_name, target)] = code
    if observed != TABLE:
        print(format_table(observed))
    wrong = {key: (TABLE.get(key, "no row"), got) for key, got in observed.items() if TABLE.get(key) != got}
    missing = sorted(set(TABLE) - set(observed))
    assert not wrong and not missing, f"(operation, actor, target): (expected, observed) {wrong}; unused rows {missing}"


def format_table(observed: dict[tuple[str, str, str], str]) -> str:
    rows = []
    for name, operation in OPERATIONS.items():
        for target in operation.targets:
            codes = " ".join(observed.get((name, a, target), "?") for a in ACTORS)
            rows.append(f"{name:<40} {target:<13} {codes}")
    return "\n".join(rows)


def test_the_table_has_rows_for_every_operation_and_target_and_nothing_else() -> None:
    expected_keys = {(n, a, t) for n, op in OPERATIONS.items() for a in ACTORS for t in op.targets}
    assert set(TABLE) == expected_keys, (sorted(expected_keys - set(TABLE))[:10], sorted(set(TABLE) - expected_keys))


def _public_functions_taking_an_actor() -> set[str]:
    found = set()
    for module_info in pkgutil.iter_modules(domain.__path__):
        if module_info.ispkg:
            continue
        module = importlib.import_module(f"domain.{module_info.name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            own = function.__module__ == module.__name__ and not name.startswith("_")
            if own and "actor" in inspect.signature(function).parameters:
                found.add(f"{module_info.name}.{name}")
    return found


def test_every_domain_function_that_takes_an_actor_has_rows_in_the_table() -> None:
    """A service added later without a row (or a reason in BUILDING_BLOCKS) fails here."""
    covered = {name.split("[")[0] for name in OPERATIONS} | set(BUILDING_BLOCKS)
    assert _public_functions_taking_an_actor() - covered == set()
    assert covered - _public_functions_taking_an_actor() == set(), "rows for functions that no longer exist"
