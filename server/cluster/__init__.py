"""Several server processes as one server: a cluster on Redis (``serve --cluster``).

Every process runs the whole server (the hub, its rooms, an engine pool) and
takes any client. Each room lives in exactly one process, its *owner*; the
process a client is connected to is its *gateway*. Redis holds what every
process must see (:mod:`boardroom.server.cluster.directory`): which process owns each
room code, the public room list, the quick-match rooms waiting for a second
player, the sessions' identities and which processes are alive. The game store
is one PostgreSQL database that every process writes to.

How a message reaches a room of another process (:mod:`boardroom.server.cluster.gateway`):
the gateway's hub finds no room here for the code, asks the directory for the
owner and hands the message over through Redis pub/sub, with who sent it; the
owner's hub acts on it as if the connection were its own, and everything the
room sends that client goes back the same way (:mod:`boardroom.server.cluster.relay`).
This is how lila-ws and Lichess talk, and how Colyseus's presence works. The
other design, telling the client to reconnect to the owner, was not chosen:
processes that share one port (every core of one machine) or sit behind one
load balancer cannot be addressed one by one, and every client and bot ever
written would have to learn redirects. Relayed, the protocol does not change.

Ordering: each process publishes through one connection, from one queue, so
what one process sends another arrives in the order it was sent; the owner acts
on each session's messages one at a time, in that order, as it does for a
connection of its own.

Redis is a cache of what the processes hold, never the truth. A Redis that
restarts empty (or fails over) loses the directory: each process sees that at
its next beat (its ``registered`` key is gone) and puts back what it owns, its
rooms' codes, owners and lobby lines, its sessions and its class's home,
within a beat or so; a look-up that misses meanwhile (a resume, a join, a room
message) waits for the rebuild rather than answer ``unknown_room`` or
``bad_token``. Pooled connections that the restart broke are dropped and the
command retried on a new one (redis-py's retry and health check), the inbox
subscribes again on a new connection, and the publisher keeps what it could not
write and writes it, in order, once Redis is back and the processes it is for
are subscribed again. The relay's publishes and the subscription speak to Redis
by hand (:mod:`boardroom.server.cluster.wire`: redis-py's layers cost more CPU
a relayed message than acting on it); the directory's commands go through redis-py.

Room traffic lost while a subscription was down is mended by a resync from the
owner, not by Redis Streams: once a process has registered again it says so to
every process (``RoomsMoved``), each gateway re-attaches its sessions to it,
and the owner sends each of them its rooms' whole ``state``, which every client
already takes as the truth (the bot SDK moves again from it). A gateway whose
own subscription came back (it subscribed again) does the same without
waiting for that, since it may have missed the ``RoomsMoved`` too, and sends
its sessions' last moves again, whose replies may be lost
(:meth:`~boardroom.server.cluster.gateway.Gateway.resync`). Pub/sub loses
messages only with a broken connection, which the processes see, so there is a
moment to resync and no gap to find by sequence numbers; Streams would make
every message a write to trim, a consumer's position to keep per process, and
a slower relay for every move, to cover a fault that a resync covers anyway.

Killed (``kill -9``), a process stops renewing its heartbeat. Within
:data:`~boardroom.server.cluster.directory.HEARTBEAT_TTL_S` another process takes its
rooms: one process wins the takeover in Redis, restores the rooms' games from
the store (a move is stored before it is sent, so none is lost) and says so to
every process. Clients that were connected to the dead process reconnect to
any other with their resume token; one that comes back before the takeover is
held until it is done (:data:`~boardroom.server.cluster.process.HELLO_HOLD_S`), or
told to try again (close 1013), never welcomed without its seats. Clients
connected elsewhere are re-attached by their gateway, seats and all; their
spectators are closed with 1012 and watch again on reconnecting (a restored
room knows its seats, not its spectators).

A class on a cluster: one process, started with ``--class``, is the class's
*home*, and the class lives there whole (roster, teacher's controls,
tournaments, every room), so that it keeps one view of everyone. Every other
process carries its connections to the home frame for frame (``Frame`` and
``Hangup`` envelopes) and passes the class's HTTP requests on to the home's
address (:mod:`boardroom.server.cluster.proxy`). With the home away they refuse rather
than serve play outside the class. A class thus runs its games on one core;
spreading a class's rooms over processes would need its roster, controls and
tournaments to act across processes, which they do not yet.

The package, a module per job::

    envelopes       what processes send each other (typed, msgspec)
    directory       the Redis keys: rooms, codes, lobby, quick matches, sessions, nodes
    relay           one ordered publisher per process, and a remote client's outbox
    process         what the node's parts share: this process's id, directory, publisher,
                    hub, and each session's work in order
    owners          which live process owns a room (waiting out a takeover or a rebuild)
    class_home      a class's home, and the connections carried to it whole
    gateway         the relay's gateway side: messages sent on to their rooms' owners
    remote_clients  the relay's owner side: other gateways' sessions acted for here
    hello_hold      a resuming hello held for the takeover of a process just dead
    inbox           what the other processes send, handed to the part whose job it is
    heartbeat       liveness, registering again after a Redis restart, takeovers
    node            ClusterNode: the hub's RoomsElsewhere and the life cycle, over the parts
    proxy           a class's HTTP requests passed on to its home
"""
