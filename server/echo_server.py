"""A bare aiohttp WebSocket echo server: the ceiling our move relay is measured against.

``python -m boardroom.server.echo_server [--host H] [--port P] [--event-loop L]`` listens
on ``/ws`` and sends every text frame straight back, with the same aiohttp
settings as the game server (compression off, the same frame cap) and nothing
else: no parsing, no rooms, no database. ``boardroom loadtest --echo`` drives it
with the same clients as the real server, so the relay's throughput can be given
as a share of what aiohttp itself can do on the machine (``docs/benchmarks.md``).

It prints ``Echo server on port N.`` once listening, and stops on SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Sequence

from aiohttp import WSMsgType, web

from boardroom.server.app import HARD_FRAME_BYTES
from boardroom.server.event_loop import EVENT_LOOPS, loop_factory


async def echo(request: web.Request) -> web.WebSocketResponse:
    """Send each text frame back as it came."""
    ws = web.WebSocketResponse(compress=False, max_msg_size=HARD_FRAME_BYTES)
    await ws.prepare(request)
    async for frame in ws:
        if frame.type is WSMsgType.TEXT:
            await ws.send_str(frame.data)
    return ws


async def serve(host: str, port: int) -> None:
    """Serve until SIGTERM or SIGINT."""
    app = web.Application()
    app.router.add_get("/ws", echo)
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port, backlog=1024)
        await site.start()
        bound = next(a[1] for a in runner.addresses if isinstance(a, tuple))
        print(f"Echo server on port {bound}.", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        await stop.wait()
    finally:
        await runner.cleanup()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m boardroom.server.echo_server", description=__doc__
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--event-loop", choices=EVENT_LOOPS, default="auto")
    args = parser.parse_args(argv)
    try:
        factory = loop_factory(args.event_loop)
    except ValueError as error:
        print(f"echo_server: {error}", file=sys.stderr)
        return 2
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(serve(args.host, args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
