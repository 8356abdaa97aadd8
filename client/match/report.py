"""What a match says: the live line, the verdict, the gauntlet's standing, the JSON report.

Pure: values in, text or dicts out; the words go through the catalogue.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boardroom.client.match.runner import MatchOutcome, Tally
from boardroom.client.match.stats import Sprt, elo_estimate
from boardroom.client.terminal.room_text import level_word
from boardroom.shared.i18n import _, current


def elo_unit(sprt: Sprt) -> str:
    """``normalized Elo`` or ``Elo``: the unit of the test's bounds."""
    return _("normalized Elo") if sprt.model == "normalized" else _("Elo")


def live_line(tally: Tally, sprt: Sprt | None) -> str:
    """One line of the match so far: games, W/D/L, pairs, LLR with bounds, Elo ± 95%.

    >>> tally = Tally(wins=3, draws=1, losses=0, pentanomial=[0, 0, 0, 1, 1])
    >>> for part in live_line(tally, Sprt(0, 50)).split(" | "):
    ...     print(part)
    4 games: +3 =1 -0
    pairs 0-0-0-1-1
    LLR 0.31 (-2.94, 2.94) [0, 50]
    Elo +337 ± 527 (nElo +721)
    """
    estimate = elo_estimate(tally.pentanomial)
    parts = [
        _(
            "{games} games: +{wins} ={draws} -{losses}",
            games=tally.games,
            wins=tally.wins,
            draws=tally.draws,
            losses=tally.losses,
        ),
        _("pairs {counts}", counts="-".join(str(n) for n in tally.pentanomial)),
    ]
    if sprt is not None:
        lower, upper = sprt.bounds
        parts.append(
            _(
                "LLR {llr} ({lower}, {upper}) [{elo0}, {elo1}]",
                llr=format(sprt.llr(tally.pentanomial), ".2f"),
                lower=format(lower, ".2f"),
                upper=format(upper, ".2f"),
                elo0=format(sprt.elo0, "g"),
                elo1=format(sprt.elo1, "g"),
            )
        )
    parts.append(
        _(
            "Elo {elo} ± {margin} (nElo {nelo})",
            elo=format(estimate.elo, "+.0f"),
            margin=format(estimate.margin, ".0f"),
            nelo=format(estimate.normalized, "+.0f"),
        )
    )
    if tally.adjudicated:
        parts.append(_("{count} adjudicated", count=tally.adjudicated))
    return " | ".join(parts)


def verdict(outcome: MatchOutcome, sprt: Sprt | None, names: tuple[str, str]) -> str:
    """The match's conclusion in one sentence.

    >>> outcome = MatchOutcome(Tally(wins=24), (), "H1")
    >>> verdict(outcome, Sprt(0, 25, model="logistic"), ("A", "B"))
    'A is stronger than B by at least 25 Elo: H1 accepted after 24 games'
    """
    a, b = names
    tally = outcome.tally
    if sprt is not None:
        unit = elo_unit(sprt)
        if outcome.decision == "H1":
            return _(
                "{a} is stronger than {b} by at least {elo1} {unit}: "
                "H1 accepted after {games} games",
                a=a,
                b=b,
                elo1=format(sprt.elo1, "g"),
                unit=unit,
                games=tally.games,
            )
        if outcome.decision == "H0":
            return _(
                "{a} is not stronger than {b} by {elo1} {unit}: H0 accepted after {games} games",
                a=a,
                b=b,
                elo1=format(sprt.elo1, "g"),
                unit=unit,
                games=tally.games,
            )
        lower, upper = sprt.bounds
        return _(
            "no decision after {games} games (the --games limit): LLR {llr} is still "
            "between {lower} and {upper}",
            games=tally.games,
            llr=format(sprt.llr(tally.pentanomial), ".2f"),
            lower=format(lower, ".2f"),
            upper=format(upper, ".2f"),
        )
    estimate = elo_estimate(tally.pentanomial)
    return _(
        "{a} scored {score}% against {b} in {games} games: Elo {elo} ± {margin}",
        a=a,
        b=b,
        score=format(_score(tally) * 100, ".1f"),
        games=tally.games,
        elo=format(estimate.elo, "+.0f"),
        margin=format(estimate.margin, ".0f"),
    )


def _score(tally: Tally) -> float:
    return (tally.wins + tally.draws / 2) / tally.games if tally.games else 0.5


def report(
    outcome: MatchOutcome,
    sprt: Sprt | None,
    names: tuple[str, str],
    *,
    game: str,
    seed: int,
    players: tuple[str, str],
) -> dict[str, Any]:
    """The JSON report of one match: setup, counts, statistics, verdict, every game."""
    tally = outcome.tally
    estimate = elo_estimate(tally.pentanomial)
    test: dict[str, Any] | None = None
    if sprt is not None:
        lower, upper = sprt.bounds
        test = {
            "elo0": sprt.elo0,
            "elo1": sprt.elo1,
            "alpha": sprt.alpha,
            "beta": sprt.beta,
            "model": sprt.model,
            "llr": sprt.llr(tally.pentanomial),
            "lower_bound": lower,
            "upper_bound": upper,
            "decision": outcome.decision,
        }
    return {
        "game": game,
        "seed": seed,
        "a": {"name": names[0], "bot": players[0]},
        "b": {"name": names[1], "bot": players[1]},
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "pentanomial": list(tally.pentanomial),
        "adjudicated": tally.adjudicated,
        "score": _score(tally),
        "elo": estimate.elo,
        "elo_95": [estimate.low, estimate.high],
        "normalized_elo": estimate.normalized,
        "sprt": test,
        "verdict": verdict(outcome, sprt, names),
        "records": [
            {
                "pair": record.pair + 1,
                "a_first": record.a_first,
                "opening": record.opening,
                "moves": record.moves,
                "winner": record.winner,
                "reason": record.reason,
                "adjudicated": record.adjudicated,
                **({"detail": record.detail} if record.detail else {}),
            }
            for record in outcome.records
        ],
    }


@dataclass(frozen=True, slots=True)
class Rung:
    """One level of a gauntlet and how the bot did against it."""

    level: str
    outcome: MatchOutcome

    @property
    def score(self) -> float:
        return _score(self.outcome.tally)


def gauntlet_row(rung: Rung) -> str:
    """One line of the gauntlet's table, its level in the reader's language
    (the terminal's words for it: ``difícil``)."""
    tally = rung.outcome.tally
    estimate = elo_estimate(tally.pentanomial)
    return _(
        "  {level:<10} {games:>5} games  +{wins} ={draws} -{losses}  score {score}%  "
        "Elo {elo} ± {margin}",
        level=level_word(rung.level),
        games=tally.games,
        wins=tally.wins,
        draws=tally.draws,
        losses=tally.losses,
        score=current().decimal(rung.score * 100, 1),
        elo=format(estimate.elo, "+.0f"),
        margin=format(estimate.margin, ".0f"),
    )


def standing(name: str, rungs: Sequence[Rung]) -> str:
    """Where the bot stands among the levels it played: above those it scored
    more than half against, below the others (the levels in the reader's language).

    >>> def rung(level, wins, losses):
    ...     return Rung(level, MatchOutcome(Tally(wins=wins, losses=losses), (), None))
    >>> standing("bot", [rung("easy", 9, 1), rung("medium", 6, 4), rung("hard", 2, 8)])
    'bot stands above easy, medium; below hard'
    >>> standing("bot", [rung("easy", 9, 1)])
    'bot stands above every level it played: easy'
    """
    above = [level_word(rung.level) for rung in rungs if rung.score > 0.5]
    level = [level_word(rung.level) for rung in rungs if rung.score == 0.5]
    below = [level_word(rung.level) for rung in rungs if rung.score < 0.5]
    if not below and not level:
        return _(
            "{name} stands above every level it played: {levels}",
            name=name,
            levels=", ".join(above),
        )
    if not above and not level:
        return _(
            "{name} stands below every level it played: {levels}",
            name=name,
            levels=", ".join(below),
        )
    parts = []
    if above:
        parts.append(_("above {levels}", levels=", ".join(above)))
    if level:
        parts.append(_("level with {levels}", levels=", ".join(level)))
    if below:
        parts.append(_("below {levels}", levels=", ".join(below)))
    return _("{name} stands {where}", name=name, where="; ".join(parts))
