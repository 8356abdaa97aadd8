"""End to end in Spanish: the terminal client and the CLI with ``LANG=es_ES.UTF-8``
(or ``--lang es``), a real server, real WebSockets: a whole game against the AI
(the board, the turn, a refusal, ``why``, a hint, the result line with the game's
id), the help within 80 columns, a review and ``--help``.

The Spanish twins of tests/e2e/test_e2e_terminal.py's English: the same client
process, its words from the catalogue (shared/i18n/locale/es). Game titles are
the registry's (translated where the catalogue has them), so they are matched
loosely; everything around them is matched as a reader sees it.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

from classroom_helpers import Teacher
from harness import Player, play_out, run_boardroom, running_server, wait_until
from terminal_helpers import PURE_PYTHON_ENGINE, client_process

ALL_CELLS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
SPANISH = {"LANG": "es_ES.UTF-8"}


def plain(text: str) -> str:
    """Babel's no-break spaces (``1,2 M``, ``0,84 s``) as spaces, as a reader sees them."""
    return text.replace("\xa0", " ").replace("\u202f", " ")


async def test_a_whole_game_against_the_ai_is_played_in_spanish(
    db_path: Path, tmp_path: Path
) -> None:
    """LANG=es_ES.UTF-8: the room, the turn, why before and after the AI's move, a
    hint, a typo and a taken cell refused in Spanish, the board, the result line
    with the game's id and the review command, and the goodbye."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ana", config_home=tmp_path, **SPANISH
        ) as client,
    ):
        client.send("new tictactoe ai=perfect", "why")
        await client.expect(r"^Aún no hay jugada de la IA que explicar: cuando la IA juegue")
        client.send("hint")
        hint = await client.expect(r"^Pista: b2 \(empate\): búsqueda de .*: empate demostrado$")
        client.send("zz", "b2")
        played = await client.expect(r"^O IA \(perfecto\) jugó (\w\d)$")
        client.send("why")
        said = await client.expect(
            r"^O IA \(perfecto\) jugó (\w\d): búsqueda de ([\d,]+( mil)?) posicion(es)? en "
            r"[\d,]+ m?s, profundidad (\d+): empate demostrado$"
        )
        line = await client.expect(
            r"^  línea prevista: (\w\d)( \w\d)* \(.* posiciones por segundo\)$"
        )
        client.send(played[1], *ALL_CELLS)
        await client.expect(r"^Resultado: ")
        client.close_input()
        assert await client.finish() == 0

    transcript = plain(client.transcript)
    assert said[1] == line[1] == played[1] and hint is not None
    assert "Empieza la partida 1: X ana contra O IA (perfecto). Juegas con X y empiezas." in (
        transcript
    )
    assert re.search(r"^.+, sala \w{6} \| X ana \(tú\) \| O IA \(perfecto\) \| te toca$",
                     transcript, re.MULTILINE), transcript  # fmt: skip
    assert "'zz' no es ni un comando ni una jugada: una jugada es " in transcript
    assert f"'{played[1]}' está ocupada: elige una casilla vacía." in transcript
    assert re.search(r"^3 .*\n2 .*\n1 .*\n   a  b  c$", transcript, re.MULTILINE), transcript
    results = [line for line in client.lines if line.startswith("Resultado: ")]
    assert len(results) == 1, transcript
    assert re.fullmatch(
        r"Resultado: (Empate: el tablero está lleno|Gana O IA \(perfecto\): tres en línea "
        rf"\w\d-\w\d-\w\d) \(partida #1: boardroom review 1 --server 127\.0\.0\.1:{server.port}\)",
        results[0],
    ), results[0]
    assert client.lines[-1] == "¡Hasta pronto!"
    assert not re.search(r"\b(your move|to move|played|Result|Hint)\b", transcript), transcript


async def test_the_help_and_the_status_line_in_spanish_fit_80_columns(
    db_path: Path, tmp_path: Path
) -> None:
    """Spanish is longer than English: at 80 columns every line of the lobby's and
    the room's help, and the status line, is broken between words within 80."""
    async with (
        running_server(db_path) as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ana", "--lang", "es",
            config_home=tmp_path, COLUMNS="80",
        ) as client,
    ):  # fmt: skip
        client.send("help", "new connect4 ai=easy", "help", "leave")
        await client.expect(r"^De vuelta en el inicio")
        client.close_input()
        assert await client.finish() == 0

    assert all(len(line) <= 80 for line in client.lines), client.transcript
    transcript = client.transcript
    assert "Comandos del inicio:" in transcript
    assert "  help                esta lista" in transcript
    assert "En una sala, escribe una jugada para hacerla: una casilla como b2" in transcript
    assert "  resign              abandona la partida" in transcript
    assert "Saliste de la sala " in transcript


async def test_lang_overrides_the_locale_and_help_speaks_it(tmp_path: Path) -> None:
    """``--lang en`` wins over LANG=es_ES; ``--help`` follows the language chosen."""
    spanish = await run_boardroom("play", "--help", env=SPANISH)
    assert spanish.status == 0
    assert "Juega a juegos de tablero en la terminal" in spanish.out
    assert "tu nombre (se recuerda para la próxima vez)" in spanish.out
    english = await run_boardroom("play", "--help", "--lang", "en", env=SPANISH)
    assert "Play board games in the terminal" in english.out
    bot = await run_boardroom("--lang", "es", "bot", "--help")
    assert "Sienta a un bot en salas y juega sus partidas." in bot.out
    wrong = await run_boardroom("play", "--lang", "fr", env=SPANISH)
    assert wrong.status == 2 and "--lang" in wrong.err


async def test_a_review_in_spanish_names_the_turning_point_and_the_accuracy(
    db_path: Path,
) -> None:
    """O's a2 throws the draw away: the review says so in Spanish, each move's
    judgement and value in words, and each player's accuracy with a decimal comma."""
    async with running_server(db_path) as server:
        game_id = await play_out(
            server.ws_url, "tictactoe", ["b2", "a2", "a1", "c3", "c1", "b1", "a3"]
        )
        review = await run_boardroom("review", str(game_id), "--server", server.ws_url, env=SPANISH)

    assert review.status == 0, review
    lines = review.out.splitlines()
    assert re.fullmatch(rf".+ #{game_id}: X ann contra O bob: ganó X ann \(en línea\)", lines[0])
    assert lines[1].startswith("  1. X b2     la mejor    empate"), lines
    assert lines[2].startswith("  2. O a2??   error grave derrota en 3"), lines
    assert lines[2].endswith("mejor jugada: a1"), lines
    assert "Momentos clave:" in lines
    assert (
        "  jugada 2 (O): a2 dejó escapar el empate y perdió en 3; a1 mantenía el empate" in lines
    ), lines
    assert lines[-1] == "Precisión: X ann 100,0 %, O bob 69,5 %", lines


async def test_serve_with_lang_es_says_its_addresses_and_the_teachers_link_in_spanish(
    tmp_path: Path,
) -> None:
    """``boardroom serve --class 7B --lang es``: the lines the Spanish teacher's guide
    shows (docs/es/classroom.md)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "boardroom.client.cli", "serve", "--port", "0", "--class", "7B", "--lang", "es"),
        "--database",
        str(tmp_path / "class.db"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "LANGUAGE": "", "LC_ALL": "", "LANG": "C.UTF-8", **PURE_PYTHON_ENGINE},
    )
    assert process.stdout is not None
    lines: list[str] = []
    try:
        async with asyncio.timeout(30):
            while not lines or not lines[-1].startswith("Para detenerlo"):
                lines.append((await process.stdout.readline()).decode().rstrip("\n"))
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert re.fullmatch(
        r"Boardroom funciona en el puerto \d+\. Ábrelo en un navegador o conecta un cliente "
        r"\(--server DIRECCIÓN\):",
        lines[0],
    ), lines
    assert (
        'Clase "7B": el enlace del docente da acceso a los controles; no se lo des a nadie.'
        in lines
    ), lines
    assert any(line.startswith("  Página del docente: http://127.0.0.1:") for line in lines)
    assert lines[-1] == "Para detenerlo: Ctrl-C (o SIGTERM)."


async def test_a_room_closed_by_the_teacher_says_why_in_spanish(
    db_path: Path, tmp_path: Path
) -> None:
    """Ana waits in her room of a class when the teacher closes it: the server
    says why as a code (``teacher``) and the terminal words it in Spanish, not in
    the server's English ``reason``."""
    async with (
        running_server(db_path, class_name="7B") as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ana", config_home=tmp_path, **SPANISH
        ) as client,
    ):
        teacher = Teacher(server)
        client.send("new tictactoe")
        rooms = await wait_until(lambda: teacher.get("/api/admin/rooms"), lambda r: r["rooms"])
        code = rooms["rooms"][0]["code"]
        assert await teacher.post(f"/api/admin/rooms/{code.lower()}/close") == {"closed": code}
        await client.expect(rf"^La sala {code} se cerró: la cerró tu docente\.$")
        client.close_input()
        assert await client.finish() == 0
    assert "closed by the teacher" not in client.transcript


async def test_a_cancelled_tournament_is_said_in_spanish(db_path: Path, tmp_path: Path) -> None:
    """Ana's client sits down to her tournament game; the teacher cancels the
    tournament: the room's close and the server's announcement, both sent as
    codes, read in Spanish."""
    async with (
        running_server(db_path, class_name="7B") as server,
        client_process(
            "play", "--server", server.ws_url, "--name", "ana", config_home=tmp_path, **SPANISH
        ) as client,
    ):
        await client.expect(r"^¡Hola, ana! ")
        bob = await Player.join_server(server.ws_url, "bob")
        teacher = Teacher(server)
        entrants = [f"student:{await teacher.student_id(name)}" for name in ("ana", "bob")]
        body = {"name": "Copa", "game": "tictactoe", "format": "round_robin"}
        status, answer, _ = await teacher.call(
            "POST", "/api/admin/tournaments", {**body, "entrants": entrants}
        )
        assert status == 201, answer
        match = await bob.expect("match", round=1)
        room = match["room"]
        # Her client shows the room with her seated. Waiting only until the server
        # listed her in it once let the cancel overtake the client's own join, on a
        # loaded machine: "Ninguna sala tiene ese código", and no room to close.
        await client.expect(rf"^Tres en raya, sala {room}, .*ana \(tú\)")
        tournament_id = answer["tournament"]["id"]
        status, _, _ = await teacher.call("POST", f"/api/admin/tournaments/{tournament_id}/cancel")
        assert status == 200
        await client.expect(rf"^La sala {room} se cerró: tu docente canceló el torneo Copa\.$")
        await client.expect(r"^Aviso: Tu docente canceló el torneo Copa\.$")
        client.close_input()
        assert await client.finish() == 0
        await bob.close()
    assert "cancelled" not in client.transcript


async def test_play_local_starts_its_server_in_a_spanish_locale(tmp_path: Path) -> None:
    """``--local`` under ``LANG=es_ES.UTF-8``: the local server's ready line is read
    whatever the locale's language (it once waited 30 s for an English line that
    the Spanish-speaking server never printed), and the game speaks Spanish."""
    async with client_process(
        "play",
        "--local",
        "--game",
        "tictactoe",
        "--level",
        "easy",
        "--name",
        "ana",
        config_home=tmp_path,
        LANG="es_ES.UTF-8",
        **PURE_PYTHON_ENGINE,
    ) as client:
        client.send("b2", "quit", "s")
        client.close_input()
        await client.expect(r"Conectado a ws://127\.0\.0\.1:\d+/ws\.")
        assert await client.finish() == 0
    assert client.lines[0] == "Arrancando un servidor local (se detiene cuando sales)..."
    assert "Jugaste b2" in client.lines, client.transcript
    assert "no arrancó" not in client.transcript
