"""``boardroom token``: durable players' tokens, made or revoked in the database.

Registered in the ``boardroom.commands`` entry-point group, like ``serve``::

    boardroom token new-bot NAME [--db PATH]     a bot player; its token, printed once
    boardroom token revoke PLAYER_ID [--db PATH] that player's token opens nothing more

Both work on the database (a SQLite file, or a cluster's ``postgresql://`` URL),
whether or not a server is running on it (SQLite lets them write beside the
server, PostgreSQL serves every client): a running server looks each token
up at each ``hello``, so a new bot's token works at once and a revoked one is
refused at its next ``hello``. A ``hello`` resuming one of the revoked player's
sessions is looked up too: refused the same, it ends the player's sessions as
the admin API's revoke does (connections open now play on until then).

``new-bot`` prints the token alone on stdout (``TOKEN=$(boardroom token new-bot
mybot)``) and what it is on stderr. The token exists nowhere else: the database
keeps its hash. Exit status: 0 done, 1 the database or the player failed, 2 a
bad name.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from boardroom.server.config import ENV_PREFIX, ServerConfig
from boardroom.server.core.players import PlayerRecord
from boardroom.server.core.records import PlayerKind
from boardroom.server.player_directory import PlayerDirectory
from boardroom.server.store import PlayerNotFoundError, StoreError, is_postgres_url, open_store
from boardroom.shared.protocol.codec import check_player_name
from boardroom.shared.protocol.errors import ProtocolError

_DATABASE_ENV = ENV_PREFIX + "DATABASE"


def register(subparsers: Any) -> None:
    """Add ``token`` and its subcommands to the ``boardroom`` CLI."""
    parser = subparsers.add_parser(
        "token",
        help="make or revoke durable players' tokens in the server's database",
        description="Make a bot player and print its token (once), or revoke a player's "
        "token, in the database a server uses (running or not).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new_bot = actions.add_parser(
        "new-bot",
        help="make a bot player and print its token once",
        description="Make a bot player called NAME and print its token once, on stdout. "
        "Give it to the bot: boardroom bot --token TOKEN, or BOARDROOM_BOT_TOKEN.",
    )
    new_bot.add_argument("name", metavar="NAME", help="the bot's name (1 to 32 characters)")
    revoke = actions.add_parser(
        "revoke",
        help="revoke a player's token",
        description="Revoke the token of player PLAYER_ID (as records and welcome show "
        "it: p and 16 hex digits): its next hello is refused and closed with 4004.",
    )
    revoke.add_argument("player_id", metavar="PLAYER_ID")
    for action in (new_bot, revoke):
        action.add_argument(
            "--db",
            "--database",
            dest="database",
            metavar="PATH",
            default=None,
            help=f"the server's database file or postgresql:// URL [env {_DATABASE_ENV}; "
            f"default {ServerConfig().database}]",
        )
    new_bot.set_defaults(handler=_new_bot_command)
    revoke.set_defaults(handler=_revoke_command)


def _database(args: argparse.Namespace) -> str:
    given: str | None = args.database
    return given or os.environ.get(_DATABASE_ENV) or ServerConfig().database


def _shown(database: str) -> str:
    """The database as it may be printed: a URL without its password."""
    return open_store(database).path  # the store made, not opened: no I/O


def _new_bot_command(args: argparse.Namespace) -> int:
    try:
        name = check_player_name(args.name)
    except ProtocolError as error:
        print(f"boardroom token new-bot: {error.message}", file=sys.stderr)
        return 2
    database = _database(args)
    try:
        player, token = asyncio.run(_new_bot(database, name))
    except StoreError as error:
        print(f"boardroom token new-bot: {error}", file=sys.stderr)
        return 1
    print(
        f"bot player {player.id} ({player.name}) made in {_shown(database)}. "
        "Its token follows, "
        "this once: keep it secret, and give it to the bot (boardroom bot --token TOKEN, "
        "or the BOARDROOM_BOT_TOKEN variable).",
        file=sys.stderr,
    )
    print(token)
    return 0


async def _new_bot(database: str, name: str) -> tuple[PlayerRecord, str]:
    async with open_store(database) as store:
        return await PlayerDirectory(store).new(name, PlayerKind.BOT)


def _revoke_command(args: argparse.Namespace) -> int:
    database = _database(args)
    if database != ":memory:" and not is_postgres_url(database) and not Path(database).exists():
        print(f"boardroom token revoke: no database at {database}", file=sys.stderr)
        return 1
    try:
        player = asyncio.run(_revoke(database, args.player_id))
    except PlayerNotFoundError:
        print(
            f"boardroom token revoke: no player {args.player_id!r} in {_shown(database)}",
            file=sys.stderr,
        )
        return 1
    except StoreError as error:
        print(f"boardroom token revoke: {error}", file=sys.stderr)
        return 1
    print(
        f"player {player.id} ({player.name}) revoked: its token opens nothing from its "
        "next hello on"
    )
    return 0


async def _revoke(database: str, player_id: str) -> PlayerRecord:
    async with open_store(database) as store:
        return await store.revoke_player(player_id, time.time())
