"""The hub: sessions, the lobby and every room, behind one ``handle`` per message.

:class:`GameServer` is what the WebSocket handler talks to. It owns no socket
itself: a connection hands it each decoded message with the connection's
:class:`Peer` (its session once ``hello`` is done), and it answers through the
session's :class:`~boardroom.server.connection.Connection` or the rooms' outputs. Room
rules live in :class:`~boardroom.server.core.room.Room`; the hub resolves codes, sessions
and game names, and turns refusals into ``error`` messages.

In class mode the teacher's controls (:mod:`boardroom.server.classroom`) act through the
hub too: pause and resume every room, close one, announce to everyone, rename
or remove a session. The hub knows nothing of classes, rosters or
tournaments. Features meet it at its boundary (:mod:`boardroom.server.hub.boundary`):
the class layer checks each hello (:meth:`GameServer.add_hello_check`); the
class layer and the tournament director (:mod:`boardroom.server.tournaments`, which opens
reserved rooms through :meth:`GameServer.open_tournament_room`) subscribe to
its events (:meth:`GameServer.subscribe`) and read its rooms as snapshots
(:meth:`GameServer.room_info`, :meth:`GameServer.rooms`), never the live rooms.

Modules, each with one job, top to bottom (a module imports only those below it)::

    game_server       GameServer: the one face, each call handed to its part
    remote_sessions   sessions whose connection is on another process of a cluster
    dispatch          each client message to what it asks for: hello, rooms, requests
    class_controls    the teacher's: pause, hints, close, announce, rename, remove
    tournament_rooms  reserved rooms, the AI seated, rooms closed unless started
    rooms             the sessions and rooms themselves: open, enter, restore, sweep
    peer | boundary   a connection as the hub sees it | what features see of the hub
"""

from boardroom.server.hub.dispatch import NameKeeper, resolve_game
from boardroom.server.hub.game_server import GameServer
from boardroom.server.hub.peer import Peer, PeerConnection
from boardroom.server.hub.rooms import SWEEP_SECONDS

__all__ = ["SWEEP_SECONDS", "GameServer", "NameKeeper", "Peer", "PeerConnection", "resolve_game"]
