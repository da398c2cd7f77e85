"""Ids drawn from the pool are what NiceGUI and engineio drew before: random version-4 UUIDs for
listeners and clients (a click reaches its own handler, never another's), engineio-shaped socket
ids, never the same one twice, also when threads draw at once and across refills of the pool."""

from __future__ import annotations

import os
import re
import threading
import uuid

from nicegui import client as nicegui_client
from nicegui import core
from nicegui.event_listener import EventListener

from ui import loop_syscalls
from ui.loop_syscalls import ID_BYTES, POOL_BYTES, RandomPool, uuid4

SOCKET_ID = re.compile(r"^[A-Za-z0-9_-]{20}$")


def test_ids_are_random_version_4_uuids_never_repeated_across_refills() -> None:
    drawn = [uuid4() for _ in range(3 * POOL_BYTES // ID_BYTES + 7)]
    assert len(set(drawn)) == len(drawn)
    assert all(u.version == 4 and u.variant == uuid.RFC_4122 for u in drawn)
    assert len({u.bytes[:4] for u in drawn}) > len(drawn) - 5  # random, not a counter


def test_threads_drawing_at_once_never_share_bytes() -> None:
    pool = RandomPool()
    taken: list[bytes] = []
    lock = threading.Lock()

    def draw() -> None:
        mine = [pool.take(ID_BYTES) for _ in range(2_000)]
        with lock:
            taken.extend(mine)

    threads = [threading.Thread(target=draw) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(taken) == 16_000
    assert len(set(taken)) == len(taken)


def _listener() -> EventListener:
    return EventListener(
        element_id=1,
        type="click",
        args=[],
        handler=None,
        js_handler=None,
        throttle=0,
        leading_events=True,
        trailing_events=True,
        request=None,
    )


def test_installed_listeners_clients_and_sockets_get_ids_from_the_pool() -> None:
    before = EventListener.__post_init__, nicegui_client.uuid, core.sio.eio.__dict__.get("generate_id")
    try:
        loop_syscalls.install()
        ids = [_listener().id for _ in range(500)]
        assert len(set(ids)) == len(ids)
        assert all(uuid.UUID(i).version == 4 for i in ids)
        assert uuid.UUID(str(nicegui_client.uuid.uuid4())).version == 4
        sockets = [core.sio.eio.generate_id() for _ in range(1_000)]
        assert len(set(sockets)) == len(sockets)
        assert all(SOCKET_ID.match(s) for s in sockets)
        assert nicegui_client.templates.env.auto_reload is False
    finally:
        EventListener.__post_init__ = before[0]  # type: ignore[method-assign]
        setattr(nicegui_client, "uuid", before[1])  # noqa: B010
        if before[2] is None:
            core.sio.eio.__dict__.pop("generate_id", None)
        nicegui_client.templates.env.auto_reload = True


def test_a_forked_child_never_hands_out_its_parents_ids() -> None:
    uuid4()  # the pool holds unread bytes the child would otherwise copy
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        os.close(read_end)
        os.write(write_end, uuid4().bytes)
        os._exit(0)
    os.close(write_end)
    child_id = os.read(read_end, ID_BYTES)
    os.close(read_end)
    os.waitpid(child, 0)
    assert len(child_id) == ID_BYTES
    assert child_id != uuid4().bytes
