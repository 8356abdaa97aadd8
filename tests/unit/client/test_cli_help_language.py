"""``boardroom --help`` speaks the reader's language: the flags' help (the server's
from its settings), argparse's own headings and the error line; English unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import fields

from boardroom.server.config import ServerConfig


def _boardroom(*argv: str, lang_env: str = "C") -> subprocess.CompletedProcess[str]:
    # A process of its own: the CLI makes the language the process's default.
    environ = {**os.environ, "LANG": lang_env, "LC_ALL": "", "LANGUAGE": "", "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "boardroom.client.cli", *argv],
        capture_output=True,
        text=True,
        env=environ,
        check=False,
    )


def _one_line(text: str) -> str:
    """``text`` with argparse's line wrapping undone."""
    return " ".join(text.split())


def test_serve_help_in_spanish_has_no_english_flag_help() -> None:
    printed = _boardroom("--lang", "es", "serve", "--help").stdout
    assert printed.startswith("uso: boardroom serve ")
    assert "\nopciones:\n" in printed
    shown = _one_line(printed)
    assert "muestra esta ayuda y sal" in shown
    assert "puerto TCP para HTTP y el WebSocket /ws (0: cualquier puerto libre)" in shown
    assert "[variable BOARDROOM_PORT; por defecto 8765]" in shown
    assert "[variable BOARDROOM_REUSE_PORT=1 o 0; por defecto desactivado]" in shown
    assert "[variable BOARDROOM_LANG; por defecto ninguno]" in shown
    for setting in fields(ServerConfig):
        assert setting.metadata["help"] not in shown, setting.name
    for english in ("usage:", "options:", "show this help", "[env ", "; default "):
        assert english not in shown


def test_the_locale_alone_makes_serve_help_spanish() -> None:
    shown = _one_line(_boardroom("serve", "--help", lang_env="es_ES.UTF-8").stdout)
    assert "dirección en la que escuchar (0.0.0.0: todas las interfaces)" in shown
    assert "address to listen on" not in shown


def test_play_help_and_the_root_help_in_spanish() -> None:
    play = _boardroom("--lang", "es", "play", "--help").stdout
    assert play.startswith("uso: boardroom play ")
    assert "\nopciones:\n" in play and "muestra esta ayuda y sal" in play
    assert "your name" not in play and "show this help" not in play
    root = _boardroom("--lang", "es", "--help").stdout
    assert "\nargumentos posicionales:\n" in root and "positional arguments" not in root


def test_an_argument_error_in_spanish_has_its_usage_and_prefix_translated() -> None:
    failed = _boardroom("--lang", "es", "play", "--bogus")
    assert failed.returncode == 2
    assert failed.stderr.startswith("uso: boardroom ")
    assert "boardroom: error: " in failed.stderr


def test_english_help_is_argparse_s_own() -> None:
    printed = _boardroom("--lang", "en", "serve", "--help").stdout
    assert printed.startswith("usage: boardroom serve ")
    assert "\noptions:\n" in printed and "  -h, --help" in printed
    shown = _one_line(printed)
    assert "show this help message and exit" in shown
    assert (
        "TCP port for HTTP and the WebSocket /ws (0: any free port) "
        "[env BOARDROOM_PORT; default 8765]"
    ) in shown
    assert "[env BOARDROOM_REUSE_PORT=1 or 0; default off]" in shown
    assert "[env BOARDROOM_LANG; default none]" in shown
    failed = _boardroom("--lang", "en", "play", "--bogus")
    assert "usage: boardroom " in failed.stderr
    assert "boardroom: error: unrecognized arguments: --bogus" in failed.stderr


def test_python_m_boardroom_server_help_speaks_the_language_too() -> None:
    environ = {**os.environ, "LANG": "C", "LC_ALL": "", "LANGUAGE": "", "COLUMNS": "200"}
    run = [sys.executable, "-m", "boardroom.server"]
    spanish = subprocess.run(
        [*run, "--lang", "es", "--help"], capture_output=True, text=True, env=environ, check=False
    ).stdout
    assert spanish.startswith("uso: python -m boardroom.server serve ")
    assert "[variable BOARDROOM_PORT; por defecto 8765]" in _one_line(spanish)
    english = subprocess.run(
        [*run, "--help"], capture_output=True, text=True, env=environ, check=False
    ).stdout
    assert english.startswith("usage: python -m boardroom.server serve ")
    assert "[env BOARDROOM_PORT; default 8765]" in _one_line(english)
