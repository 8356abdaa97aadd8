"""What the client remembers: the name, and a seat's resume token used once."""

from __future__ import annotations

import stat
from pathlib import Path

from client.terminal.profile import Profile, profile_path


def test_the_profile_lives_under_xdg_config_home_or_dot_config() -> None:
    assert profile_path({"XDG_CONFIG_HOME": "/tmp/cfg"}) == Path("/tmp/cfg/boardroom/client.json")
    assert profile_path({"HOME": "/nowhere"}).parts[-3:] == (".config", "boardroom", "client.json")


def test_a_name_is_remembered_across_profiles_on_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "boardroom" / "client.json"
    assert Profile(path).name is None
    Profile(path).remember_name("ann")
    assert Profile(path).name == "ann"


def test_a_resume_token_is_given_once_for_its_server_and_name(tmp_path: Path) -> None:
    """Taken tokens are forgotten, so two clients never share one; other servers and
    names keep theirs. The file is readable by its owner only (a token is a key)."""
    profile = Profile(tmp_path / "client.json")
    profile.remember_name("ann")
    profile.save_resume_token("ws://a:8765/ws", "ann", "token-a")
    profile.save_resume_token("ws://b:8765/ws", "ann", "token-b")
    assert profile.take_resume_token("ws://a:8765/ws", "bob") is None
    assert profile.take_resume_token("ws://a:8765/ws", "ann") == "token-a"
    assert profile.take_resume_token("ws://a:8765/ws", "ann") is None
    assert profile.take_resume_token("ws://b:8765/ws", "ann") == "token-b"
    assert profile.name == "ann"
    assert stat.S_IMODE((tmp_path / "client.json").stat().st_mode) == 0o600


def test_a_damaged_profile_reads_as_empty_and_is_written_afresh(tmp_path: Path) -> None:
    path = tmp_path / "client.json"
    path.write_text("{not json", encoding="utf-8")
    assert Profile(path).name is None
    assert Profile(path).take_resume_token("ws://a:8765/ws", "ann") is None
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
