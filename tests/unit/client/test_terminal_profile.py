"""What the client remembers: the name, the player token of each server, and the
seat of a game under way."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from boardroom.client.terminal.profile import Profile, SavedSeat, profile_path


def test_the_profile_lives_under_xdg_config_home_or_dot_config() -> None:
    assert profile_path({"XDG_CONFIG_HOME": "/tmp/cfg"}) == Path("/tmp/cfg/boardroom/client.json")
    assert profile_path({"HOME": "/nowhere"}).parts[-3:] == (".config", "boardroom", "client.json")


def test_a_name_is_remembered_across_profiles_on_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "boardroom" / "client.json"
    assert Profile(path).name is None
    Profile(path).remember_name("ann")
    assert Profile(path).name == "ann"


def test_a_seat_is_kept_for_its_server_until_forgotten(tmp_path: Path) -> None:
    """A saved seat stays saved (a client killed later takes it back) until it is
    forgotten; other servers keep theirs. The file is readable by its owner only
    (a token is a key)."""
    profile = Profile(tmp_path / "client.json")
    profile.remember_name("ann")
    profile.save_seat("ws://a:8765/ws", SavedSeat("token-a", "ROOMAA"))
    profile.save_seat("ws://b:8765/ws", SavedSeat("token-b", "ROOMBB"))
    assert profile.saved_seat("ws://c:8765/ws") is None
    assert profile.saved_seat("ws://a:8765/ws") == SavedSeat("token-a", "ROOMAA")
    assert Profile(profile.path).saved_seat("ws://a:8765/ws") == SavedSeat("token-a", "ROOMAA")
    profile.forget_seat("ws://a:8765/ws")
    assert profile.saved_seat("ws://a:8765/ws") is None
    assert profile.saved_seat("ws://b:8765/ws") == SavedSeat("token-b", "ROOMBB")
    assert profile.name == "ann"
    assert stat.S_IMODE((tmp_path / "client.json").stat().st_mode) == 0o600


def test_a_seat_is_the_players_whatever_the_name(tmp_path: Path) -> None:
    """The profile has one player per server, so its seat is found under a new
    name; a seat an earlier version saved under a name is found too, and replaced
    or forgotten with the server's seat."""
    path = tmp_path / "client.json"
    path.write_text(
        '{"name": "dora", "resume": {"ws://a:8765/ws dora": {"token": "t-a", "room": "ROOMAA"},'
        ' "ws://a:8765/ws2 dora": "t-other"}}',
        encoding="utf-8",
    )
    profile = Profile(path)
    profile.remember_name("dana")
    assert profile.saved_seat("ws://a:8765/ws") == SavedSeat("t-a", "ROOMAA")
    profile.save_seat("ws://a:8765/ws", SavedSeat("t-new", "ROOMCC"))
    assert profile.saved_seat("ws://a:8765/ws") == SavedSeat("t-new", "ROOMCC")
    assert sorted(json.loads(path.read_text())["resume"]) == [
        "ws://a:8765/ws",
        "ws://a:8765/ws2 dora",
    ]
    profile.forget_seat("ws://a:8765/ws")
    assert profile.saved_seat("ws://a:8765/ws") is None
    assert profile.saved_seat("ws://a:8765/ws2") == SavedSeat("t-other")


def test_the_last_game_is_kept_per_server(tmp_path: Path) -> None:
    """The id of the player's last game, per server; anything but a positive whole
    number in the file reads as none."""
    profile = Profile(tmp_path / "client.json")
    assert profile.last_game("ws://a:8765/ws") is None
    profile.remember_last_game("ws://a:8765/ws", 12)
    profile.remember_last_game("ws://b:8765/ws", 3)
    profile.remember_last_game("ws://a:8765/ws", 14)
    assert Profile(profile.path).last_game("ws://a:8765/ws") == 14
    assert Profile(profile.path).last_game("ws://b:8765/ws") == 3
    for bad in ('"12"', "0", "true", "1.5"):
        profile.path.write_text(f'{{"games": {{"ws://a:8765/ws": {bad}}}}}', encoding="utf-8")
        assert profile.last_game("ws://a:8765/ws") is None, bad


def test_a_player_token_is_kept_per_server_beside_the_name_until_forgotten(
    tmp_path: Path,
) -> None:
    """One player token per server URL, whatever the name (a new name is the same
    player); kept across profiles on the same file, owner-readable only, and
    independent of the seats saved beside it."""
    profile = Profile(tmp_path / "boardroom" / "client.json")
    assert profile.player_token("ws://a:8765/ws") is None
    profile.remember_name("ann")
    profile.remember_player_token("ws://a:8765/ws", "bp_a")
    profile.remember_player_token("ws://b:8765/ws", "bp_b")
    profile.save_seat("ws://a:8765/ws", SavedSeat("resume-a", "ROOMAA"))
    profile.remember_name("anna")
    again = Profile(profile.path)
    assert again.player_token("ws://a:8765/ws") == "bp_a"
    assert again.player_token("ws://b:8765/ws") == "bp_b"
    assert again.player_token("ws://c:8765/ws") is None
    again.remember_player_token("ws://a:8765/ws", "bp_a2")  # a new player replaces the old
    again.forget_player_token("ws://b:8765/ws")
    assert profile.player_token("ws://a:8765/ws") == "bp_a2"
    assert profile.player_token("ws://b:8765/ws") is None
    assert profile.saved_seat("ws://a:8765/ws") == SavedSeat("resume-a", "ROOMAA")
    assert profile.name == "anna"
    assert stat.S_IMODE(profile.path.stat().st_mode) == 0o600
    assert [path.name for path in profile.path.parent.iterdir()] == ["client.json"]


def test_a_player_token_of_the_wrong_shape_reads_as_none(tmp_path: Path) -> None:
    path = tmp_path / "client.json"
    path.write_text('{"players": {"ws://a:8765/ws": 42, "ws://b:8765/ws": ""}}', encoding="utf-8")
    assert Profile(path).player_token("ws://a:8765/ws") is None
    assert Profile(path).player_token("ws://b:8765/ws") is None
    path.write_text('{"players": ["bp_a"]}', encoding="utf-8")
    Profile(path).remember_player_token("ws://a:8765/ws", "bp_a")
    assert Profile(path).player_token("ws://a:8765/ws") == "bp_a"


def test_a_token_saved_by_an_earlier_version_is_a_seat_without_a_room(tmp_path: Path) -> None:
    path = tmp_path / "client.json"
    path.write_text('{"resume": {"ws://a:8765/ws ann": "token-a"}}', encoding="utf-8")
    assert Profile(path).saved_seat("ws://a:8765/ws") == SavedSeat("token-a")


def test_a_seat_is_claimed_by_one_client_at_a_time(tmp_path: Path) -> None:
    """The claim on the player's seat on a server is exclusive until released (or
    the process ends); other servers are claimed independently."""
    profile = Profile(tmp_path / "boardroom" / "client.json")
    first = profile.claim_seat("ws://a:8765/ws")
    assert first is not None
    assert Profile(profile.path).claim_seat("ws://a:8765/ws") is None
    other_server = profile.claim_seat("ws://b:8765/ws")
    assert other_server is not None
    first.release()
    first.release()  # idempotent
    again = profile.claim_seat("ws://a:8765/ws")
    assert again is not None
    for claim in (again, other_server):
        claim.release()


def test_a_damaged_profile_reads_as_empty_and_is_written_afresh(tmp_path: Path) -> None:
    path = tmp_path / "client.json"
    path.write_text("{not json", encoding="utf-8")
    assert Profile(path).name is None
    assert Profile(path).saved_seat("ws://a:8765/ws") is None
    path.write_text('["a list"]', encoding="utf-8")
    Profile(path).remember_name("ann")
    assert Profile(path).name == "ann"


def test_an_unwritable_profile_does_not_stop_the_client(tmp_path: Path) -> None:
    """Remembering is a convenience: a file that cannot be written is skipped."""
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("", encoding="utf-8")
    profile = Profile(blocker / "client.json")
    profile.remember_name("ann")
    assert profile.name is None
