"""What every process of a cluster must see, kept in Redis.

Keys, all under the cluster's name (``--cluster-name``, so that several
clusters may share one Redis); ``ROOM`` is a room code::

    {name}:node:{node}        a live process: renewed every HEARTBEAT_S, gone
                              HEARTBEAT_TTL_S after its last renewal
    {name}:nodes              every process that has started and not been taken over
    {name}:code:{CODE}        what a code opens: "room:ROOM" (a public room's own
                              code), "private:ROOM" (a private room's own code),
                              "seat:ROOM" (its join code) or "watch:ROOM" (its
                              watch code); one key space for all, so no code is
                              ever two things. Written with the room's owner before
                              the room opens, so a code is found the moment its
                              creator can hand it out.
    {name}:room:{ROOM}        hash: owner, join, watch, game
    {name}:owned:{node}       the rooms a process owns
    {name}:lobby              hash ROOM -> the public room's line (JSON)
    {name}:order              zset ROOM -> when it was listed (oldest first)
    {name}:quick:{game}       zset ROOM -> quick-match rooms waiting for a second player
    {name}:seq                the counter the two orders draw from
    {name}:session:{id}       a session's identity (JSON SessionRecord), for a
                              resume on another process; kept SESSION_TTL_S
    {name}:takeover:{node}    the process taking a dead process's rooms over
    {name}:registered:{node}  this process's rooms and sessions are here: gone
                              with a Redis that restarted empty, which the
                              process sees at its next beat and registers again
    {name}:class              the class a cluster in class mode runs (kept while its
                              home lives or is away; gone once the home stops cleanly)
    {name}:home               the class's home process (as long-lived as a heartbeat)
    {name}:home:http          the home's HTTP address, for the others' HTTP requests

Every change that must be all-or-nothing is one Lua script, so Redis runs it
atomically: two processes can never both claim a code or a room. The scripts
build their keys from the name, so the cluster needs one Redis server (not a
Redis Cluster of shards). Nothing here is durable, and need not be: Redis is a
cache of what the processes hold. A Redis that restarts empty loses the
directory, and each process puts back what it owns at its next beat (the
``registered`` key tells it), within :data:`HEARTBEAT_S` or so; the games
themselves are in PostgreSQL.

Reads are async calls; writes that the hub makes as its rooms change go through
the process's one ordered publisher (:mod:`boardroom.server.cluster.relay`) as
:data:`Command` functions, so they never wait and stay in order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec
from redis.asyncio import Redis
from redis.asyncio.client import Pipeline

from boardroom.server.core.lobby import RoomCodes, RoomPage, normalise_code
from boardroom.server.hub.boundary import SessionRecord
from boardroom.shared.protocol.messages import RoomSummary

HEARTBEAT_S = 1.0
"""How often a process renews its heartbeat."""
HEARTBEAT_TTL_S = 3.0
"""How long after its last heartbeat a process counts as dead and its rooms are
taken over: three missed beats, so one slow beat under load is no death."""
SESSION_TTL_S = 24 * 3600
"""How long a session's identity is kept for a resume on another process."""
TAKEOVER_TTL_S = 60
"""How long one process holds the right to take a dead one's rooms over."""

Command = Callable[[Pipeline], Any]
"""One write, queued on a pipeline by the process's publisher."""


class _Listed(msgspec.Struct, frozen=True):
    summary: RoomSummary
    free: bool


_listed_encoder = msgspec.json.Encoder()
_listed_decoder = msgspec.json.Decoder(_Listed)
_session_decoder = msgspec.json.Decoder(SessionRecord)

_CLAIM_CODES = """
local p, node, force, room, join, watch = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local codes = {room}
if join ~= '' then table.insert(codes, join) end
if watch ~= '' then table.insert(codes, watch) end
if force ~= '1' then
  for _, code in ipairs(codes) do
    if redis.call('EXISTS', p .. ':code:' .. code) == 1 then return 0 end
  end
end
-- A private room has a join code; its own code lets only its members in.
redis.call('SET', p .. ':code:' .. room, (join == '' and 'room:' or 'private:') .. room)
if join ~= '' then redis.call('SET', p .. ':code:' .. join, 'seat:' .. room) end
if watch ~= '' then redis.call('SET', p .. ':code:' .. watch, 'watch:' .. room) end
local old = redis.call('HGET', p .. ':room:' .. room, 'owner')
if old and old ~= node then redis.call('SREM', p .. ':owned:' .. old, room) end
redis.call('HSET', p .. ':room:' .. room, 'owner', node, 'join', join, 'watch', watch)
redis.call('SADD', p .. ':owned:' .. node, room)
return 1
"""

_CLAIM_ROOM = """
local p, node, room = ARGV[1], ARGV[2], ARGV[3]
local old = redis.call('HGET', p .. ':room:' .. room, 'owner')
if old and old ~= node and redis.call('EXISTS', p .. ':node:' .. old) == 1 then return 0 end
if old and old ~= node then redis.call('SREM', p .. ':owned:' .. old, room) end
redis.call('HSET', p .. ':room:' .. room, 'owner', node)
redis.call('SADD', p .. ':owned:' .. node, room)
return 1
"""

_DROP_ROOM = """
local p, room = ARGV[1], ARGV[2]
local h = redis.call('HMGET', p .. ':room:' .. room, 'join', 'watch', 'game', 'owner')
redis.call('DEL', p .. ':code:' .. room)
if h[1] and h[1] ~= '' then redis.call('DEL', p .. ':code:' .. h[1]) end
if h[2] and h[2] ~= '' then redis.call('DEL', p .. ':code:' .. h[2]) end
if h[3] and h[3] ~= '' then redis.call('ZREM', p .. ':quick:' .. h[3], room) end
if h[4] then redis.call('SREM', p .. ':owned:' .. h[4], room) end
redis.call('DEL', p .. ':room:' .. room)
redis.call('HDEL', p .. ':lobby', room)
redis.call('ZREM', p .. ':order', room)
return 1
"""

_LIST_ROOM = """
local p, room, listed, quick, game = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if listed ~= '' then
  redis.call('HSET', p .. ':lobby', room, listed)
  if not redis.call('ZSCORE', p .. ':order', room) then
    redis.call('ZADD', p .. ':order', redis.call('INCR', p .. ':seq'), room)
  end
else
  redis.call('HDEL', p .. ':lobby', room)
  redis.call('ZREM', p .. ':order', room)
end
if game ~= '' then
  redis.call('HSET', p .. ':room:' .. room, 'game', game)
  if quick == '1' then
    if not redis.call('ZSCORE', p .. ':quick:' .. game, room) then
      redis.call('ZADD', p .. ':quick:' .. game, redis.call('INCR', p .. ':seq'), room)
    end
  else
    redis.call('ZREM', p .. ':quick:' .. game, room)
  end
end
return 1
"""


def _text(value: object) -> str:
    """A value as Redis gives it (bytes), as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


_CLAIM_HOME = """
local p, node, class, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local home = redis.call('GET', p .. ':home')
if home and home ~= node then return 'home:' .. home end
local running = redis.call('GET', p .. ':class')
if running and running ~= class then return 'class:' .. running end
redis.call('SET', p .. ':home', node, 'PX', ttl)
redis.call('SET', p .. ':class', class)
return ''
"""

_LEAVE_HOME = """
local p, node = ARGV[1], ARGV[2]
if redis.call('GET', p .. ':home') == node then
  redis.call('DEL', p .. ':home', p .. ':home:http', p .. ':class')
end
return 1
"""


class Directory:
    """The cluster's keys in one Redis (see the module docstring)."""

    def __init__(self, redis: Redis, name: str) -> None:
        self.redis = redis
        self.name = name

    def _key(self, *parts: str) -> str:
        return ":".join((self.name, *parts))

    def channel(self, node: str) -> str:
        """The pub/sub channel a process reads its envelopes from."""
        return self._key("to", node)

    # -- processes ----------------------------------------------------------------------

    async def beat(self, node: str) -> bool:
        """Say that ``node`` is alive for the next :data:`HEARTBEAT_TTL_S`; False
        if Redis no longer has what ``node`` registered (:meth:`mark_registered`):
        it restarted empty, and ``node`` must register its rooms and sessions again."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self._key("node", node), "1", px=int(HEARTBEAT_TTL_S * 1000))
            pipe.sadd(self._key("nodes"), node)
            pipe.exists(self._key("registered", node))
            *_, registered = await pipe.execute()
        return bool(registered)

    async def all_registered(self, nodes: list[str]) -> bool:
        """Whether every process of ``nodes`` has its keys in Redis."""
        flags = await self.redis.mget([self._key("registered", node) for node in nodes])
        return all(flag is not None for flag in flags)

    async def mark_registered(self, node: str) -> None:
        """``node``'s rooms and sessions are all in Redis (see :meth:`beat`)."""
        await self.redis.set(self._key("registered", node), "1")

    async def alive(self, node: str) -> bool:
        return bool(await self.redis.exists(self._key("node", node)))

    async def nodes(self) -> tuple[list[str], list[str]]:
        """The processes that are alive, and those that died without being taken over."""
        members = sorted(_text(m) for m in await self.redis.smembers(self._key("nodes")))
        if not members:
            return [], []
        flags = await self.redis.mget([self._key("node", m) for m in members])
        live = [m for m, flag in zip(members, flags, strict=True) if flag is not None]
        dead = [m for m, flag in zip(members, flags, strict=True) if flag is None]
        return live, dead

    async def leave(self, node: str) -> None:
        """A process stopping cleanly: it is no longer alive (its rooms stay its
        until another process takes them over, which it may at once)."""
        await self.redis.delete(self._key("node", node), self._key("registered", node))

    # -- codes and rooms ----------------------------------------------------------------

    async def claim_codes(self, codes: RoomCodes, node: str, *, force: bool = False) -> bool:
        """Take the codes of a new room for ``node``, all or none; False if one of
        them is already something. ``force`` takes them whatever they are (a room
        restored here, whose codes were its own)."""
        taken = await self.redis.eval(
            _CLAIM_CODES,
            0,
            self.name,
            node,
            "1" if force else "0",
            codes.room,
            codes.join or "",
            codes.watch or "",
        )
        return bool(taken)

    async def claim_room(self, room: str, node: str) -> bool:
        """Make ``node`` the room's owner unless a live process owns it."""
        return bool(await self.redis.eval(_CLAIM_ROOM, 0, self.name, node, room))

    def release_codes(self, codes: RoomCodes) -> Command:
        """Codes claimed for a room that did not open: free again."""
        return lambda pipe: pipe.eval(_DROP_ROOM, 0, self.name, codes.room)

    def drop_room(self, room: str) -> Command:
        """The room is gone: its codes, listing, quick-match entry and owner."""
        return lambda pipe: pipe.eval(_DROP_ROOM, 0, self.name, room)

    def list_room(self, room: str, summary: RoomSummary | None, quick_open: bool) -> Command:
        """The room's line in the public list (None: not listed) and whether it is
        a quick-match room waiting for its second player."""
        listed = ""
        if summary is not None:
            free = len(summary.players) < 2
            listed = _listed_encoder.encode(_Listed(summary, free)).decode()
        game = summary.game if summary is not None else ""
        return lambda pipe: pipe.eval(
            _LIST_ROOM, 0, self.name, room, listed, "1" if quick_open else "0", game
        )

    async def locate(self, code: str, access: Literal["seat", "watch", "member"]) -> str | None:
        """The room code that ``code`` opens for ``access``: a public room by its
        code, a private room by its join code (to sit or watch) or watch code (to
        watch); ``member`` is a member's own room code, public or private. None
        when it opens nothing."""
        code = normalise_code(code)
        value = await self.redis.get(self._key("code", code))
        if value is None:
            return None
        kind, _, room = _text(value).partition(":")
        if kind == "room" or (kind == "private" and access == "member"):
            return room
        if kind == "seat" and access != "member":
            return room
        if kind == "watch" and access == "watch":
            return room
        return None

    async def owner(self, room: str) -> str | None:
        """The process that owns the room, alive or not; None if no process does."""
        value = await self.redis.hget(self._key("room", room), "owner")
        return None if value is None else _text(value)

    async def owned(self, node: str) -> list[str]:
        return sorted(_text(m) for m in await self.redis.smembers(self._key("owned", node)))

    async def quick_rooms(self, game: str) -> list[str]:
        """Quick-match rooms of ``game`` waiting for a second player, oldest first."""
        return [_text(m) for m in await self.redis.zrange(self._key("quick", game), 0, -1)]

    async def public_page(self, game: str | None, offset: int, limit: int) -> RoomPage:
        """The cluster's public rooms as :meth:`Lobby.public_page
        <boardroom.server.core.lobby.Lobby.public_page>` pages one process's."""
        order = [_text(m) for m in await self.redis.zrange(self._key("order"), 0, -1)]
        if not order:
            return RoomPage([], 0)
        values = await self.redis.hmget(self._key("lobby"), order)
        rooms = [_listed_decoder.decode(v) for v in values if v is not None]
        rooms = [r for r in rooms if game in (None, r.summary.game)]
        rooms.sort(key=lambda r: not r.free)  # stable: oldest first within
        page = rooms[offset : offset + limit] if limit > 0 else []
        return RoomPage([r.summary for r in page], total=len(rooms))

    # -- sessions -----------------------------------------------------------------------

    def save_session(self, record: SessionRecord) -> Command:
        """Keep the session's identity for :data:`SESSION_TTL_S` (from now)."""
        key, value = self._key("session", record.id), msgspec.json.encode(record)
        return lambda pipe: pipe.set(key, value, ex=SESSION_TTL_S)

    async def recall(self, session_id: str) -> SessionRecord | None:
        value = await self.redis.get(self._key("session", session_id))
        return None if value is None else _session_decoder.decode(value)

    # -- a class's home ------------------------------------------------------------------

    async def claim_home(self, node: str, class_name: str) -> str:
        """Make ``node`` the home of the class ``class_name`` for the next
        :data:`HEARTBEAT_TTL_S` (renewed by calling again); "" if it is, else
        what stands in the way: ``home:NODE`` (another live home) or
        ``class:NAME`` (the cluster runs another class)."""
        ttl = str(int(HEARTBEAT_TTL_S * 1000))
        return _text(await self.redis.eval(_CLAIM_HOME, 0, self.name, node, class_name, ttl))

    async def advertise_home(self, url: str) -> None:
        await self.redis.set(self._key("home", "http"), url)

    async def class_home(self) -> tuple[str | None, str | None, str | None]:
        """(the class the cluster runs, its live home process, the home's HTTP
        address); each None when there is none."""
        running, home, http = await self.redis.mget(
            [self._key("class"), self._key("home"), self._key("home", "http")]
        )
        return tuple(None if v is None else _text(v) for v in (running, home, http))  # type: ignore[return-value]

    async def leave_home(self, node: str) -> None:
        """The home stops cleanly: the cluster runs no class any more."""
        await self.redis.eval(_LEAVE_HOME, 0, self.name, node)

    # -- takeovers ----------------------------------------------------------------------

    async def start_takeover(self, dead: str, node: str) -> bool:
        """Whether ``node`` is the one process to take the dead one's rooms over."""
        key = self._key("takeover", dead)
        return bool(await self.redis.set(key, node, nx=True, ex=TAKEOVER_TTL_S))

    async def end_takeover(self, dead: str) -> None:
        """The dead process's rooms are taken or gone: forget it."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.srem(self._key("nodes"), dead)
            pipe.delete(self._key("owned", dead), self._key("registered", dead))
            await pipe.execute()
