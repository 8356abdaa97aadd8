"""``boardroom loadtest``: simulated rooms, idle connections or an echo baseline
against a server, from several worker processes, and a report of what it took.

Modules, in the order a run meets them::

    cli.py            the subcommand: flags -> run -> report; exit statuses
    options.py        the flags, checked into an immutable LoadOptions
    runner.py         servers we start, phases, the timeline, /metrics readings
    pool.py           the worker processes, seen from the main process
    worker.py         one worker process: its rooms or idle connections
    rooms.py          what the clients of one room do (pairs, the AI, echo)
    idle.py           connections that say hello and hold
    connection.py     one WebSocket connection of the load test
    run_clock.py      the run's moments, shared by every process
    stats.py          counts and the latency histogram; they add up across workers
    metrics_probe.py  the server's /metrics and /healthz, read with urllib
    progress.py       the live line on stderr
    report.py         the JSON document and the table made from it
    frames.py         the bytes a move puts on the wire
    process_setup.py  the open-file limit and the event loop of each process
    errors.py         the exceptions

Like the rest of ``client/``, it never imports ``server/`` or aiohttp: a server
of our own runs as ``python -m boardroom.server`` (or ``python -m boardroom.server.echo_server``).
"""
