"""``boardroom match``: an A/B match between two bots that decides, with an SPRT.

::

    boardroom match --engine hard --engine easy --game connect4 --sprt elo0=0 elo1=50

The first bot flag is A, the second B (``--engine LEVEL``, ``--script PATH``,
``--cmd COMMAND``, in any mix). Pairs of games from the same opening, colours
swapped, until the SPRT accepts H0 or H1 or ``--games`` are played; the games
run on this machine, no server needed, or on one with ``--server URL``
(watchable there, and stored). ``--gauntlet easy,medium,hard`` plays one
bot against the engine's levels and says where it stands. ``docs/bots.md``
("Matches") is the guide; :mod:`boardroom.client.match` holds the parts.

Exit status: 0 when the match ran to its end (whatever the verdict); 1 when it
could not (a bot failed to start); 2 for bad input; 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardroom.client.bots.brains import BrainSource
from boardroom.client.bots.errors import BotError, BotLoadError
from boardroom.client.errors import ClientError
from boardroom.client.match.bots import KINDS, BotSpec, Options, make_source
from boardroom.client.match.openings import OpeningsError, builtin_suite, read_suite
from boardroom.client.match.report import (
    Rung,
    gauntlet_row,
    live_line,
    report,
    standing,
    verdict,
)
from boardroom.client.match.runner import Adjudicator, LocalMatch, MatchOutcome, MatchSetup, Tally
from boardroom.client.match.server_match import play_on_server
from boardroom.client.match.stats import MODELS, Sprt, StatsError
from boardroom.client.room_options import DEFAULT_GAME, InputError, parse_clock, parse_game
from boardroom.shared.games import Game
from boardroom.shared.i18n import _
from boardroom.shared.protocol.messages import LEVELS, Clock

DEFAULT_GAMES = 100
"""Games a match without ``--sprt`` plays (``--games`` changes it)."""
DEFAULT_GAUNTLET_GAMES = 20
"""Games against each level of a gauntlet without ``--sprt``."""


class UsageError(Exception):
    """Flags that cannot work together; the message says why."""


class _AddPlayer(argparse.Action):
    """Each bot flag appends ``(flag, value)`` to ``players``, in the order typed:
    the first is A, the second B."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        players = list(getattr(namespace, "players", None) or [])
        players.append(BotSpec(option_string or self.dest, str(values)))
        namespace.players = players


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "match",
        help=_("play two bots against each other until an SPRT decides which is stronger"),
        description=_(
            "Play bot A against bot B (the first bot flag is A, the second B): pairs "
            "of games from the same opening, colours swapped, on this machine, until "
            "the SPRT accepts H0 or H1 or --games are played. With --gauntlet, one bot "
            "plays each engine level. See docs/bots.md."
        ),
    )
    for kind in KINDS:
        parser.add_argument(kind.flag, metavar=kind.metavar, action=_AddPlayer, help=_(kind.help))
    parser.set_defaults(players=[])
    parser.add_argument(
        "--game",
        default=DEFAULT_GAME,
        help=_("the board to play (default {game})", game=DEFAULT_GAME),
    )
    parser.add_argument(
        "--sprt",
        nargs="+",
        metavar="KEY=VALUE",
        help=_(
            "stop when the test decides: elo0=X elo1=Y [model=normalized|logistic] "
            "(default model normalized, as fishtest and fastchess)"
        ),
    )
    parser.add_argument(
        "--alpha", type=float, default=0.05, help=_("the SPRT's false-H1 rate (default 0.05)")
    )
    parser.add_argument(
        "--beta", type=float, default=0.05, help=_("the SPRT's false-H0 rate (default 0.05)")
    )
    parser.add_argument(
        "--games",
        type=int,
        metavar="N",
        help=_(
            "games at most, in whole pairs (default: no limit with --sprt, else {games})",
            games=DEFAULT_GAMES,
        ),
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=1,
        metavar="P",
        help=_("games at once (default 1)"),
    )
    parser.add_argument(
        "--openings",
        default="builtin",
        metavar="FILE",
        help=_("a file of openings, one move string a line (default: builtin)"),
    )
    parser.add_argument(
        "--clock",
        metavar="SPEC",
        help=_("seconds a move (2s), or minutes each + seconds a move (1+1); default none"),
    )
    parser.add_argument(
        "--move-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help=_("time a move may take without a clock (default 30)"),
    )
    parser.add_argument(
        "--adjudicate",
        type=int,
        metavar="EMPTY",
        help=_(
            "end a game by the solver's exact value once this many cells or fewer "
            "are empty (0: never; default: a third of the board's cells)"
        ),
    )
    parser.add_argument(
        "--gauntlet",
        metavar="LEVELS",
        help=_("play the one bot given against these engine levels: easy,medium,hard,perfect"),
    )
    parser.add_argument(
        "--server",
        metavar="URL",
        help=_(
            "play the games on this server, where they can be watched and are stored "
            "(default: on this machine, no server)"
        ),
    )
    parser.add_argument(
        "--seed", type=int, help=_("the seed of the engine's moves (default: random)")
    )
    parser.add_argument(
        "--json", type=Path, metavar="FILE", help=_("write the report here as JSON")
    )
    parser.set_defaults(handler=run_match)


def run_match(args: argparse.Namespace) -> int:
    """The ``match`` subcommand: check the input, then play."""
    try:
        plan = _plan(args)
    except (UsageError, InputError, OpeningsError, StatsError) as error:
        print(_("boardroom match: {error}", error=error), file=sys.stderr)
        return 2
    try:
        return asyncio.run(_play(plan))
    except BotLoadError as error:
        print(_("boardroom match: {error}", error=error), file=sys.stderr)
        return 2
    except (BotError, ClientError) as error:
        print(_("boardroom match: {error}", error=error), file=sys.stderr)
        return 1


class _Plan:
    """The match (or gauntlet) the flags ask for, checked."""

    def __init__(
        self,
        *,
        game: Game,
        players: list[BotSpec],
        levels: list[str],
        sprt: Sprt | None,
        setup: MatchSetup,
        options: Options,
        json_path: Path | None,
        server: str | None,
    ) -> None:
        self.game = game
        self.players = players
        self.levels = levels
        self.sprt = sprt
        self.setup = setup
        self.options = options
        self.json_path = json_path
        self.server = server


def _plan(args: argparse.Namespace) -> _Plan:
    players: list[BotSpec] = args.players
    levels: list[str] = []
    if args.gauntlet is not None:
        levels = [level.strip().lower() for level in args.gauntlet.split(",") if level.strip()]
        unknown = [level for level in levels if level not in LEVELS]
        if unknown or not levels:
            raise UsageError(
                _(
                    "--gauntlet {levels!r}: choose levels among {choices}",
                    levels=args.gauntlet,
                    choices=", ".join(LEVELS),
                )
            )
        if len(players) != 1:
            raise UsageError(
                _("--gauntlet plays one bot: give one bot flag, not {count}", count=len(players))
            )
    elif len(players) != 2:
        raise UsageError(
            _(
                "give two bots, A then B (--engine, --script or --cmd twice), not {count}",
                count=len(players),
            )
        )
    game = parse_game(args.game)
    sprt = _sprt(args.sprt, args.alpha, args.beta) if args.sprt else None
    if args.games is not None and args.games < 2:
        raise UsageError(_("--games must be 2 or more (a pair)"))
    if args.concurrency < 1:
        raise UsageError(_("--concurrency must be 1 or more"))
    if not args.move_timeout > 0:
        raise UsageError(_("--move-timeout must be more than 0 seconds"))
    adjudicate: int | None = args.adjudicate
    if adjudicate is not None and adjudicate < 0:
        raise UsageError(_("--adjudicate must be 0 (never) or more empty cells"))
    if args.games is not None:
        max_games = args.games
    elif sprt is not None:
        max_games = 0
    else:
        max_games = DEFAULT_GAUNTLET_GAMES if levels else DEFAULT_GAMES
    openings = (
        builtin_suite(game) if args.openings == "builtin" else read_suite(game, Path(args.openings))
    )
    clock = Clock() if args.clock is None else _clock(args.clock)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    options = Options(
        seed=seed,
        workers=0 if args.concurrency == 1 else args.concurrency,
        move_timeout=args.move_timeout,
        game=game.name,
    )
    setup = MatchSetup(
        game=game,
        openings=openings,
        clock=clock,
        move_timeout=args.move_timeout,
        max_games=max_games,
        concurrency=args.concurrency,
        sprt=sprt,
        adjudicator=Adjudicator(adjudicate),
        names=("A", "B"),
    )
    return _Plan(
        game=game,
        players=players,
        levels=levels,
        sprt=sprt,
        setup=setup,
        options=options,
        json_path=args.json,
        server=args.server,
    )


def _sprt(pairs: list[str], alpha: float, beta: float) -> Sprt:
    """``--sprt elo0=0 elo1=25 [model=logistic]`` as a test."""
    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in ("elo0", "elo1", "model"):
            raise UsageError(
                _("--sprt {item!r}: write elo0=X elo1=Y [model=normalized|logistic]", item=pair)
            )
        values[key] = value.strip()
    if "elo0" not in values or "elo1" not in values:
        raise UsageError(_("--sprt needs elo0=X and elo1=Y"))
    try:
        elo0, elo1 = float(values["elo0"]), float(values["elo1"])
    except ValueError:
        raise UsageError(_("--sprt: elo0 and elo1 are numbers")) from None
    model = values.get("model", "normalized")
    if model not in MODELS:
        raise UsageError(_("--sprt model={model!r}: normalized or logistic", model=model))
    return Sprt(elo0, elo1, alpha=alpha, beta=beta, model=model)


def _clock(spec: str) -> Clock:
    try:
        return parse_clock(spec)
    except InputError as error:
        raise UsageError(f"--clock {error}") from None


async def _play(plan: _Plan) -> int:
    if plan.levels:
        return await _gauntlet(plan)
    a_spec, b_spec = plan.players
    sources = await _open([a_spec, b_spec], plan.options)
    try:
        names = _names(sources)
        setup = _with_names(plan.setup, names)
        print(_intro(names, plan), flush=True)
        outcome = await _run(plan, setup, sources)
        print()
        print(verdict(outcome, plan.sprt, names), flush=True)
        if plan.json_path is not None:
            data = report(
                outcome,
                plan.sprt,
                names,
                game=plan.game.name,
                seed=plan.options.seed,
                players=(a_spec.text, b_spec.text),
            )
            _write_json(plan.json_path, data)
        return 0
    finally:
        for source in sources:
            await source.close()


async def _gauntlet(plan: _Plan) -> int:
    (spec,) = plan.players
    rungs: list[Rung] = []
    reports: list[dict[str, Any]] = []
    for level in plan.levels:
        level_spec = BotSpec("--engine", level)
        sources = await _open([spec, level_spec], plan.options)
        try:
            names = _names(sources)
            setup = _with_names(plan.setup, names)
            print(_intro(names, plan), flush=True)
            outcome = await _run(plan, setup, sources)
            print()
            print(verdict(outcome, plan.sprt, names), flush=True)
        finally:
            for source in sources:
                await source.close()
        rungs.append(Rung(level, outcome))
        reports.append(
            report(
                outcome,
                plan.sprt,
                names,
                game=plan.game.name,
                seed=plan.options.seed,
                players=(spec.text, level_spec.text),
            )
        )
    name = rungs and reports[0]["a"]["name"]
    print()
    print(_("Gauntlet of {name} on {game}:", name=name, game=plan.game.name))
    for rung in rungs:
        print(gauntlet_row(rung))
    line = standing(str(name), rungs)
    print(line, flush=True)
    if plan.json_path is not None:
        _write_json(plan.json_path, {"game": plan.game.name, "standing": line, "matches": reports})
    return 0


async def _run(
    plan: _Plan, setup: MatchSetup, sources: tuple[BrainSource, BrainSource]
) -> MatchOutcome:
    """Play one match, here or on the server."""
    live = _Live(plan.sprt)
    if plan.server is None:
        return await LocalMatch(setup, *sources).run(live)

    def announce(code: str) -> None:
        print(
            _(
                "the games are in room {room}: to watch, boardroom watch {room} --server {url}",
                room=code,
                url=plan.server,
            ),
            flush=True,
        )

    return await play_on_server(plan.server, setup, *sources, on_pair=live, on_room=announce)


async def _open(specs: list[BotSpec], options: Options) -> tuple[BrainSource, BrainSource]:
    """Both bots' brain sources, opened; a bot that cannot start raises. Made in
    a thread: a Gomocup brain is asked its name and a Kaggle file loaded in a
    process of its own first, which may take seconds, off the event loop."""
    first = await asyncio.to_thread(make_source, specs[0], options)
    second = await asyncio.to_thread(make_source, specs[1], options)
    opened: list[BrainSource] = []
    try:
        for source in (first, second):
            await source.open()
            opened.append(source)
    except BaseException:
        for source in opened:
            await source.close()
        raise
    return first, second


def _names(sources: tuple[BrainSource, BrainSource]) -> tuple[str, str]:
    """A's and B's names for people: the bots' own, told apart when they are
    the same (``engine-hard (A)``)."""
    a, b = sources[0].name, sources[1].name
    if a == b:
        return f"{a} (A)", f"{b} (B)"
    return a, b


def _with_names(setup: MatchSetup, names: tuple[str, str]) -> MatchSetup:
    return MatchSetup(
        game=setup.game,
        openings=setup.openings,
        clock=setup.clock,
        move_timeout=setup.move_timeout,
        max_games=setup.max_games,
        concurrency=setup.concurrency,
        sprt=setup.sprt,
        adjudicator=setup.adjudicator,
        names=names,
    )


def _intro(names: tuple[str, str], plan: _Plan) -> str:
    setup = plan.setup
    limit = setup.adjudicator.limit(plan.game)
    adjudication = (
        _("adjudicated from {empty} empty cells", empty=limit) if limit else _("no adjudication")
    )
    return _(
        "A {a} against B {b} on {game}: {openings} openings, seed {seed}, {adjudication}",
        a=names[0],
        b=names[1],
        game=plan.game.name,
        openings=len(setup.openings),
        seed=plan.options.seed,
        adjudication=adjudication,
    )


class _Live:
    """Prints the live line after each pair: rewritten in place on a terminal,
    one line a pair otherwise (a log keeps them all)."""

    def __init__(self, sprt: Sprt | None) -> None:
        self.sprt = sprt
        self.terminal = sys.stdout.isatty()

    def __call__(self, tally: Tally) -> None:
        line = live_line(tally, self.sprt)
        if self.terminal:
            print(f"\r\x1b[K{line}", end="", flush=True)
        else:
            print(line, flush=True)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    try:
        path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as error:
        print(
            _("boardroom match: {path}: {error}", path=path, error=error.strerror), file=sys.stderr
        )


__all__ = ["MatchOutcome", "register", "run_match"]
