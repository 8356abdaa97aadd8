"""``boardroom bot doctor``'s checklist: what a bot did, judged check by check, with a fix in words.

The doctor (``client/bots/doctor_run.py`` drives the bot; ``docs/bots.md``,
"The doctor", is the guide) plays a few short games with the bot, locally,
through the same :class:`~boardroom.client.bots.brains.Brain` a real game uses,
and writes down what it saw as values: an :class:`Answer` per question, a
:class:`Session` per game, an :class:`Examination` for the whole run. This
module is the pure part: it plans the games (:func:`plans`, randomness passed
in), and turns an examination into one :class:`Verdict` per check
(:func:`checklist`), each a small function of the observations, and into the
lines printed for the bot's author (:func:`render`). No I/O, no clock: a test
builds observations by hand.

Each failure is counted once, by the check it belongs to: a move that came too
late fails "answers in time", not "plays legal moves"; the games picked up in
the middle (as after a reconnect) are judged only by the reconnect check, and
only when the fresh games went well (else that check says it was not checked).

>>> from boardroom.shared.games import Player
>>> fine = Answer(AnswerKind.MOVE, game="tictactoe", line="tictactoe X 2000 - a1", text="a1",
...     seconds=0.01, allowed=2.0)
>>> ending = Ending(by_itself=True, status=0, how="exit status 0")
>>> session = Session(game="tictactoe", kind=SessionKind.FIRST, side=Player.FIRST,
...     answers=(fine,), reached_end=True, ending=ending)
>>> [v.status.value for v in checklist(Examination("mybot", True, 2.0, (session,)))]
['passed', 'passed', 'passed', 'passed', 'passed', 'not_checked', 'passed']
"""

from __future__ import annotations

import enum
import random
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from boardroom.shared.errors import IllegalMoveReason
from boardroom.shared.games import Game, Player, Position
from boardroom.shared.i18n import N_, _, current, ngettext

TURNS_PER_GAME = 3
"""The bot's moves in each of the doctor's games before the opponent resigns:
enough to see it answer a few real positions, few enough to stay quick."""
QUOTE = "    "
"""The indent of a quoted line in the advice (a turn line, a line of stderr)."""
WIDTH = 88
"""The width the advice is wrapped to (a line that starts indented, quoted or from a
traceback, is never wrapped)."""
RESUME_PLIES = (2, 10)
"""The fewest and the most random moves played before the bot picks a game up
in the middle (about a quarter of the longest game, within these bounds)."""


class SessionKind(enum.Enum):
    """The doctor's three games of each game the bot plays."""

    FIRST = "moving first"
    """A fresh game with the bot moving first (X)."""
    SECOND = "moving second"
    """A fresh game with the bot moving second (O), after the first ended."""
    RESUMED = "resumed"
    """A game picked up in the middle by a fresh bot, as after a reconnect or a
    restart: its first question is a position with moves already played."""


class AnswerKind(enum.Enum):
    """What came of one question."""

    MOVE = "move"
    """A legal move, in time."""
    ILLEGAL = "illegal"
    """A move of the game's notation that the rules do not allow here."""
    NOT_A_MOVE = "not_a_move"
    """Text that is not a move at all (or a line far too long)."""
    LATE = "late"
    """An answer, but after the time allowed."""
    BUFFERED = "buffered"
    """Nothing in time, but the move came out when the bot's input was closed: its
    output sat in a buffer (it did not flush)."""
    SILENT = "silent"
    """Nothing at all: not in time, not later, not when its input was closed."""
    CRASHED = "crashed"
    """The program ended (or could not start) instead of answering."""
    RAISED = "raised"
    """A Python bot's code raised, or returned something that is not a move."""


@dataclass(frozen=True, slots=True)
class Answer:
    """One question put to the bot and what came of it."""

    kind: AnswerKind
    game: str
    line: str
    """The question as the line protocol writes it (``GAME YOU TIME_MS MOVES LEGAL``):
    what to type to try the bot by hand."""
    text: str = ""
    """What the bot answered (empty if nothing came)."""
    seconds: float = 0.0
    """How long the answer took (for a late one: when it came at last)."""
    allowed: float = 0.0
    """The time the bot had."""
    detail: str = ""
    """The failure in words (a crash's exit status and last stderr lines, a
    traceback), or for an illegal move its :class:`IllegalMoveReason` value."""


@dataclass(frozen=True, slots=True)
class Ending:
    """How a bot's program ended once its input was closed at the end of a game."""

    by_itself: bool
    """It exited within the grace a real game gives (else it was killed)."""
    status: int | None = None
    """Its exit status (negative: the signal that ended it)."""
    how: str = ""
    """The same in words (``exit status 1``, ``killed by SIGSEGV``)."""
    stderr: tuple[str, ...] = ()
    """Its last lines on stderr."""


@dataclass(frozen=True, slots=True)
class Session:
    """One of the doctor's games, from the bot's start to its end."""

    game: str
    kind: SessionKind
    side: Player
    answers: tuple[Answer, ...] = ()
    start_failure: str = ""
    """Why the bot could not start (a program that cannot run, a constructor or
    ``on_game_start`` that raised); empty if it started."""
    reached_end: bool = False
    """The game was played to its end and the bot told so (no failure before)."""
    end_failure: str = ""
    """Why the bot failed when told the game was over (``on_game_end`` raised)."""
    ending: Ending | None = None
    """How its program ended; None for a bot that is no program, or one that was
    stopped in the middle of a question (it had failed already)."""


@dataclass(frozen=True, slots=True)
class Examination:
    """Everything the doctor saw of one bot."""

    bot: str
    """The bot as its author named it (``./mybot``, ``mybot.py``)."""
    process: bool
    """The bot is a program reading stdin and writing stdout: the checks of
    flushing and of exiting at the end of its input apply."""
    move_timeout: float
    sessions: tuple[Session, ...]


class Status(enum.Enum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_CHECKED = "not_checked"
    """It could not be checked: an earlier check failed first."""
    NOT_APPLICABLE = "not_applicable"
    """It does not concern this kind of bot (flushing, for a Python script)."""


STATUS_WORDS = {
    Status.PASSED: N_("passed"),
    Status.FAILED: N_("FAILED"),
    Status.NOT_CHECKED: N_("not checked"),
    Status.NOT_APPLICABLE: N_("does not apply"),
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """One check's result: its name, its status, and what to do (empty if it passed)."""

    check: str
    """The check's code (``in_time``), for programs and tests."""
    title: str
    """What it checks, in words."""
    status: Status
    advice: tuple[str, ...] = field(default=())
    """Why it failed and how to fix it, one paragraph each; or for a passed check, a note."""


# -- planning the games ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SessionPlan:
    """One game to play with the bot: how it starts and which side the bot takes."""

    kind: SessionKind
    side: Player
    start: Position


def plans(rules: Game, rng: random.Random) -> list[SessionPlan]:
    """The doctor's games of ``rules``: the bot first, the bot second, and one picked
    up after a few random moves (the bot to move there)."""
    resumed = resume_position(rules, rng)
    return [
        SessionPlan(SessionKind.FIRST, Player.FIRST, rules.new()),
        SessionPlan(SessionKind.SECOND, Player.SECOND, rules.new()),
        SessionPlan(SessionKind.RESUMED, rules.to_move(resumed), resumed),
    ]


def resume_position(rules: Game, rng: random.Random) -> Position:
    """A position a few random moves in, not over: where a reconnecting bot may land."""
    fewest, most = RESUME_PLIES
    plies = max(fewest, min(most, rules.max_plies // 4))
    for _attempt in range(20):
        position = rules.new()
        for _ply in range(plies):
            position = rules.play_unchecked(position, opponent_move(rules, position, rng))
            if rules.outcome(position).is_over:
                break
        else:
            return position
    return rules.play_unchecked(rules.new(), rules.legal_moves(rules.new())[0])


def opponent_move(rules: Game, position: Position, rng: random.Random) -> int:
    """The doctor's own move: a random legal one (the positions only need to be real)."""
    return rng.choice(rules.legal_moves(position))


# -- the checks ----------------------------------------------------------------------


def _fresh(exam: Examination) -> list[Session]:
    return [s for s in exam.sessions if s.kind is not SessionKind.RESUMED]


def _fresh_answers(exam: Examination) -> list[Answer]:
    return [answer for session in _fresh(exam) for answer in session.answers]


def _first_answers(exam: Examination) -> set[int]:
    """The ids of the first answers that other checks than :func:`check_in_time`
    judge when the bot crashed on them: each first game's (:func:`check_starts`),
    and each second game's after a first played to its end (:func:`check_game_end`)."""
    ended = {s.game for s in exam.sessions if s.kind is SessionKind.FIRST and s.reached_end}
    return {
        id(s.answers[0])
        for s in _fresh(exam)
        if s.answers and (s.kind is SessionKind.FIRST or s.game in ended)
    }


def _seconds(value: float) -> str:
    return current().number(round(value, 2))


def _stderr_text(lines: Sequence[str]) -> str:
    return "".join(_quoted(line) for line in lines)


def _quoted(text: str) -> str:
    """``text`` on a line of its own, indented: what the bot read or wrote, exactly
    (:func:`render` never wraps it)."""
    return f"\n{QUOTE}{text}"


def check_starts(exam: Examination) -> Verdict:
    """The first game of each game the bot plays: the bot started and answered its
    first question (even if badly: what it answered is for the other checks). The
    second game's start is :func:`check_game_end`'s."""
    title = _("starts and answers its first move")
    advice: list[str] = []
    firsts = [s for s in exam.sessions if s.kind is SessionKind.FIRST]
    for session in firsts:
        if session.start_failure:
            advice.append(
                _("your bot could not start: {why}", why=session.start_failure)
                + _fix_start(exam, None)
            )
        elif session.answers and session.answers[0].kind in (
            AnswerKind.CRASHED,
            AnswerKind.RAISED,
        ):
            first = session.answers[0]
            advice.append(
                _("your bot stopped before its first move: {why}", why=first.detail)
                + _fix_start(exam, first.line)
            )
    if not firsts:
        return Verdict("starts", title, Status.NOT_CHECKED)
    return _verdict("starts", title, advice[:1])


def _fix_start(exam: Examination, line: str | None) -> str:
    if not exam.process:
        return "\n" + _("Fix the error above in your script, then run the doctor again.")
    if line is None:
        return "\n" + _("Check the command: try to run it by hand in a terminal.")
    return (
        "\n"
        + _(
            "Run it by hand in a terminal, type the line below and press Enter, and read what "
            "it says:"
        )
        + _quoted(line)
    )


def check_in_time(exam: Examination) -> Verdict:
    """Every question of the fresh games was answered within the time allowed
    (a bot that crashed in the middle of a game did not answer either)."""
    title = _("answers every move, in time")
    first = _first_answers(exam)
    advice: list[str] = []
    answered = [a for a in _fresh_answers(exam) if a.kind is not AnswerKind.BUFFERED]
    for answer in answered:
        if answer.kind is AnswerKind.LATE:
            advice.append(
                _(
                    "your bot took {seconds} s to answer a move of {game}, but it had {allowed} s.",
                    seconds=_seconds(answer.seconds),
                    game=answer.game,
                    allowed=_seconds(answer.allowed),
                )
                + " "
                + _fix_slow(exam)
            )
        elif answer.kind is AnswerKind.SILENT:
            advice.append(_silent_text(exam, answer))
        elif answer.kind in (AnswerKind.CRASHED, AnswerKind.RAISED) and id(answer) not in first:
            advice.append(
                _(
                    "your bot stopped in the middle of a game of {game}: {why}",
                    game=answer.game,
                    why=answer.detail,
                )
                + (
                    "\n"
                    + _("The position where it stopped, as your bot read it:")
                    + _quoted(answer.line)
                    if exam.process
                    else ""
                )
            )
    if advice:
        return _verdict("in_time", title, advice[:1])
    timed = [a for a in answered if a.kind in _IN_TIME]
    if not timed:
        return Verdict("in_time", title, Status.NOT_CHECKED)
    slowest = max(timed, key=lambda a: a.seconds)
    note = _(
        "the slowest answer took {seconds} s of {allowed} s",
        seconds=_seconds(slowest.seconds),
        allowed=_seconds(slowest.allowed),
    )
    return Verdict("in_time", title, Status.PASSED, (note,))


_IN_TIME = (AnswerKind.MOVE, AnswerKind.ILLEGAL, AnswerKind.NOT_A_MOVE)
"""What came of a question answered in time (whatever the answer was)."""


def _fix_slow(exam: Examination) -> str:
    if exam.process:
        return _(
            "Make it answer sooner: the third field of each line (TIME_MS) says how many "
            "milliseconds it has; stop thinking well before that."
        )
    return _(
        "Make it answer sooner: think less, or stop your search when time is nearly up "
        "(state.time_left, when the game has a clock)."
    )


def _silent_text(exam: Examination, answer: Answer) -> str:
    if exam.process:
        return _(
            "your bot wrote nothing for {seconds} s, not even when its input ended: it may "
            "be stuck in a loop, or be waiting for more input. It gets one line per turn "
            "and must answer with one line at once.",
            seconds=_seconds(answer.seconds),
        )
    return _(
        "your bot did not return a move within {seconds} s: it may be stuck in a loop.",
        seconds=_seconds(answer.seconds),
    ) + (f"\n{answer.detail}" if answer.detail else "")


ILLEGAL_WORDS = {
    IllegalMoveReason.OFF_BOARD.value: N_("it is off the board"),
    IllegalMoveReason.OCCUPIED.value: N_("that place is taken"),
    IllegalMoveReason.COLUMN_FULL.value: N_("that column is full"),
    IllegalMoveReason.FLIPS_NOTHING.value: N_("it flips no disc"),
    IllegalMoveReason.CANNOT_PASS.value: N_("it may not pass while it has a move"),
}
"""Why a well-formed move is not allowed, in words for the bot's author."""


def check_legal(exam: Examination) -> Verdict:
    """Every answer of the fresh games that came in time was a legal move."""
    title = _("plays only legal moves")
    advice: list[str] = []
    judged = 0
    for answer in _fresh_answers(exam):
        if answer.kind is AnswerKind.NOT_A_MOVE:
            judged += 1
            advice.append(_garbage_text(exam, answer))
        elif answer.kind is AnswerKind.ILLEGAL:
            judged += 1
            reason = _(ILLEGAL_WORDS.get(answer.detail, N_("it is not one of the legal moves")))
            advice.append(
                _(
                    "your bot played {move} in {game}, which is not allowed there: {reason}.",
                    move=answer.text,
                    game=answer.game,
                    reason=reason,
                )
                + " "
                + (
                    _(
                        "Choose one of the legal moves: the last field of the line (LEGAL). "
                        "The line was:"
                    )
                    + _quoted(answer.line)
                    if exam.process
                    else _("Choose one of state.legal_moves.")
                )
            )
        elif answer.kind is AnswerKind.MOVE:
            judged += 1
    if not judged:
        return Verdict("legal", title, Status.NOT_CHECKED)
    return _verdict("legal", title, advice[:1])


def _garbage_text(exam: Examination, answer: Answer) -> str:
    shown = answer.text if len(answer.text) <= 60 else answer.text[:57] + "..."
    if exam.process:
        return _(
            "your bot answered {text!r}, which is not a move. Write only the move on "
            "stdout, one line per turn; write anything else on stderr (in Python: "
            "print(..., file=sys.stderr)).",
            text=shown,
        )
    return _(
        "your bot returned {text!r}, which is not a move: return one of state.legal_moves.",
        text=shown,
    )


def check_flushes(exam: Examination) -> Verdict:
    """No move of a program sat in its output buffer until its input was closed."""
    title = _("flushes its output after each move")
    if not exam.process:
        return Verdict("flushes", title, Status.NOT_APPLICABLE)
    answers = _fresh_answers(exam)
    for answer in answers:
        if answer.kind is AnswerKind.BUFFERED:
            advice = _(
                "your bot wrote nothing for {seconds} s, and its move ({move}) came out only "
                "when its input ended: its output waits in a buffer. Flush stdout after each "
                "move, e.g. print(move, flush=True) in Python (or run python3 -u), "
                "fflush(stdout) in C.",
                seconds=_seconds(answer.seconds),
                move=answer.text,
            )
            return Verdict("flushes", title, Status.FAILED, (advice,))
    if not any(a.kind in (AnswerKind.MOVE, AnswerKind.ILLEGAL, AnswerKind.LATE) for a in answers):
        return Verdict("flushes", title, Status.NOT_CHECKED)
    return Verdict("flushes", title, Status.PASSED)


def check_game_end(exam: Examination) -> Verdict:
    """At the end of each game the bot reached: no failure when told it was over, and
    for a program, a clean exit (status 0) once its input ended; and the game
    after the first (a fresh bot again) did not fail at once where the first did not."""
    title = _("survives the end of a game")
    advice: list[str] = []
    ended = [s for s in exam.sessions if s.reached_end]
    for session in ended:
        if session.end_failure:
            advice.append(
                _("your bot failed when the game ended: {why}", why=session.end_failure)
                + "\n"
                + _("Fix on_game_end: the game's result stands, but the error is a bug.")
            )
        ending = session.ending
        if ending is not None and ending.by_itself and ending.status != 0:
            advice.append(
                _(
                    "your bot crashed when the game ended ({how}): when its input ends, "
                    "the game is over and it should just stop, with exit status 0.",
                    how=ending.how,
                )
                + (
                    "\n" + _("Its last lines on stderr:") + _stderr_text(ending.stderr)
                    if ending.stderr
                    else ""
                )
            )
    for game in dict.fromkeys(s.game for s in exam.sessions):
        first, second = (
            next((s for s in exam.sessions if s.game == game and s.kind is kind), None)
            for kind in (SessionKind.FIRST, SessionKind.SECOND)
        )
        if first is None or second is None or not first.reached_end:
            continue
        failed_at_once = second.start_failure or (
            second.answers and second.answers[0].kind in (AnswerKind.CRASHED, AnswerKind.RAISED)
        )
        if failed_at_once:
            why = second.start_failure or second.answers[0].detail
            advice.append(
                _(
                    "your bot played a game of {game}, then failed at the start of the next "
                    "one: {why}",
                    game=game,
                    why=why,
                )
                + "\n"
                + (
                    _(
                        "Each game starts a new run of your program: it must not count on "
                        "anything the game before left behind (a file it wrote, say)."
                    )
                    if exam.process
                    else _(
                        "Each game starts afresh: keep what belongs to one game in your Bot "
                        "class, not in global variables."
                    )
                )
            )
    if not ended:
        return Verdict("game_end", title, Status.NOT_CHECKED)
    return _verdict("game_end", title, advice[:1])


def check_reconnect(exam: Examination) -> Verdict:
    """The games picked up in the middle went well: legal moves, in time, no crash.
    Judged only when every fresh game went well (else the failure is the other
    checks' to report)."""
    title = _("picks up a game in the middle (after a reconnect)")
    resumed = [s for s in exam.sessions if s.kind is SessionKind.RESUMED]
    fresh_ok = all(
        not s.start_failure and all(a.kind is AnswerKind.MOVE for a in s.answers)
        for s in _fresh(exam)
    )
    if not resumed or not fresh_ok:
        return Verdict("reconnect", title, Status.NOT_CHECKED)
    for session in resumed:
        bad = next((a for a in session.answers if a.kind is not AnswerKind.MOVE), None)
        if session.start_failure or bad is not None:
            what = session.start_failure or _what_went_wrong(exam, bad)
            fix = (
                _(
                    "A bot may join a game already under way (after a reconnect, or when it "
                    "is restarted): read the moves so far from every line (MOVES, the fourth "
                    "field), not only the last one, and never assume the board starts empty."
                )
                if exam.process
                else _(
                    "A bot may join a game already under way (after a reconnect, or when it "
                    "is restarted): look at state.moves and state.board every turn, and never "
                    "assume the board starts empty."
                )
            )
            asked = bad or (session.answers[0] if session.answers else None)
            line = (
                _("It was asked:") + _quoted(asked.line)
                if asked is not None and exam.process
                else ""
            )
            advice = _(
                "your bot failed in a game of {game} picked up in the middle: {what}",
                game=session.game,
                what=what,
            )
            return Verdict(
                "reconnect", title, Status.FAILED, tuple(p for p in (advice, line, fix) if p)
            )
    return Verdict("reconnect", title, Status.PASSED)


def _what_went_wrong(exam: Examination, answer: Answer | None) -> str:
    if answer is None:
        return ""
    if answer.kind is AnswerKind.ILLEGAL:
        return _("it played {move}, which is not allowed there", move=answer.text)
    if answer.kind is AnswerKind.NOT_A_MOVE:
        return _("it answered {text!r}, which is not a move", text=answer.text)
    if answer.kind in (AnswerKind.LATE, AnswerKind.SILENT, AnswerKind.BUFFERED):
        return _("it did not answer within {seconds} s", seconds=_seconds(answer.allowed))
    return answer.detail


def check_exits(exam: Examination) -> Verdict:
    """A program exits by itself once its input ends (a real game closes it then)."""
    title = _("stops when its input ends")
    if not exam.process:
        return Verdict("exits", title, Status.NOT_APPLICABLE)
    endings = [s.ending for s in exam.sessions if s.ending is not None]
    if not endings:
        return Verdict("exits", title, Status.NOT_CHECKED)
    if all(ending.by_itself for ending in endings):
        return Verdict("exits", title, Status.PASSED)
    advice = _(
        "your bot was still running after its input ended (a game closes it when the game "
        "is over), so it had to be stopped by force. Stop when reading stdin finds its end: "
        "in Python, 'for line in sys.stdin:' ends by itself; in C, stop when fgets returns "
        "NULL; in bash, 'while read -r line' does."
    )
    return Verdict("exits", title, Status.FAILED, (advice,))


def _verdict(check: str, title: str, advice: Sequence[str]) -> Verdict:
    return Verdict(check, title, Status.FAILED if advice else Status.PASSED, tuple(advice))


CHECKS: tuple[Callable[[Examination], Verdict], ...] = (
    check_starts,
    check_in_time,
    check_legal,
    check_flushes,
    check_game_end,
    check_reconnect,
    check_exits,
)
"""The checks, in the order they are printed."""


def checklist(exam: Examination) -> list[Verdict]:
    """Every check's verdict on ``exam``, in :data:`CHECKS`' order."""
    return [check(exam) for check in CHECKS]


def all_passed(verdicts: Sequence[Verdict]) -> bool:
    """True when no check failed and none was left unchecked."""
    return all(v.status in (Status.PASSED, Status.NOT_APPLICABLE) for v in verdicts)


def render(exam: Examination, games: Sequence[str], verdicts: Sequence[Verdict]) -> list[str]:
    """The doctor's report as lines: a heading, a line per check (its advice
    indented under it), and the conclusion."""
    lines = [
        _(
            "boardroom bot doctor: {bot} on {games}, {seconds} s a move",
            bot=exam.bot,
            games=", ".join(games),
            seconds=_seconds(exam.move_timeout),
        )
    ]
    width = max(len(_(word)) for word in STATUS_WORDS.values())
    for verdict in verdicts:
        lines.append(f"  {_(STATUS_WORDS[verdict.status]):<{width}}  {verdict.title}")
        indent = " " * (width + 4)
        for paragraph in verdict.advice:
            for text in paragraph.splitlines():
                if text.startswith(" ") or len(indent + text) <= WIDTH:
                    lines.append(indent + text)  # a quoted line, a traceback's, or short
                else:
                    lines.extend(
                        textwrap.wrap(
                            text,
                            WIDTH,
                            initial_indent=indent,
                            subsequent_indent=indent,
                            break_long_words=False,
                            break_on_hyphens=False,
                        )
                    )
    if all_passed(verdicts):
        lines.append(_("All checks passed: your bot is ready to play."))
    else:
        failed = sum(v.status is Status.FAILED for v in verdicts)
        lines.append(
            ngettext(
                "{n} of {total} checks failed: fix the first one, then run the doctor again.",
                "{n} of {total} checks failed: fix the first one, then run the doctor again.",
                failed,
                total=len(verdicts),
            )
            if failed
            else _(
                "Some checks could not be made: fix what is said above, then run the doctor again."
            )
        )
    return lines
