"""Beat sounds you can hear (issue 37, item 2): shipped sounds, names, View ▸ Sound.

The default audio treatment of the automata requirements (docs/contract.md): a
beat whose step names no sound plays the default one. Most tests record what a
backend is asked to play; two use Qt Multimedia itself, in this process (the
effect is asked to play and reaches a loaded status, or the editor says why
not) and against a null audio sink in a child process.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMenu

from editor.panels.play.sound import ALIASES, DEFAULT_SOUND, BeatSounds, gain, sound_for
from editor.resources import SOUNDS, sound_names, sound_path
from editor.settings import EditorSettings
from tests.editor.play_driver import keys, open_level, play, settle_animations
from tests.editor.test_play_feedback import (
    CLOCKWORK,
    SOLUTION,
    RecordingSound,
    clockwork_with_sound,
)
from tests.editor.window_driver import trigger
from tools import make_sounds

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_sounds_are_made_by_the_tool_and_small() -> None:
    assert sound_names() == sorted(make_sounds.SOUNDS)
    assert make_sounds.main(["--check"]) == 0  # every file is what the script makes
    sizes = {name: (SOUNDS / f"{name}.wav").stat().st_size for name in sound_names()}
    assert max(sizes.values()) < 16_000, sizes
    assert sum(sizes.values()) < 100_000
    for name in sound_names():
        values = make_sounds.read_samples(SOUNDS / f"{name}.wav")
        assert max(abs(v) for v in values) > 8_000, name  # not silent (a quarter of full scale)
        assert values[0] == 0, name  # no click at the start
        assert values[-1] == 0, name  # nor at the end


def test_the_check_notices_a_changed_sound(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(make_sounds, "FOLDER", tmp_path)
    assert make_sounds.main([]) == 0
    assert make_sounds.main(["--check"]) == 0
    values = make_sounds.read_samples(tmp_path / "tick.wav")
    values[10] += 3
    (tmp_path / "tick.wav").write_bytes(make_sounds.wav_bytes(values))
    assert make_sounds.main(["--check"]) == 1


def test_common_names_map_to_shipped_sounds_and_others_to_the_default() -> None:
    shipped = set(sound_names())
    assert {DEFAULT_SOUND, "tick", "tock", "step"} <= shipped
    assert set(ALIASES.values()) <= shipped
    assert sound_for(None) == sound_for("") == DEFAULT_SOUND  # a beat that names none
    assert [sound_for(n) for n in ("tick", "tock", "step", "chime")] == [
        "tick",
        "tock",
        "step",
        "chime",
    ]
    assert [sound_for(n) for n in ("ding", "knock", "footstep", "beep", "wait")] == [
        "chime",
        "tock",
        "step",
        "blip",
        "rest",
    ]
    assert [sound_for(n) for n in ("bell-high", "tick2", "step_soft")] == ["chime", "tick", "step"]
    assert sound_for("meow") == sound_for("x-y") == DEFAULT_SOUND
    assert sound_path("../icons/play") is None
    assert sound_path("tick") == SOUNDS / "tick.wav"


def test_beats_sound_in_test_play_named_or_by_default(make_window, settings, qtbot) -> None:
    settings.reduced_motion = False  # sounds follow the beat, animated or not
    window = open_level(make_window, CLOCKWORK)
    sound = RecordingSound()
    window.play_view.sounds.backend = sound
    play(window)
    keys(window, SOLUTION[:8])
    settle_animations(qtbot, window)
    assert sound.asked == []  # nothing carries the clock yet: no beat, no sound
    keys(window, SOLUTION[8:10])
    settle_animations(qtbot, window)
    assert sound.asked == ["tick", "beat"]  # `sound: tick`, then a step naming none
    assert sound.volumes == [gain(75)] * 2  # the default volume
    keys(window, "ZX")  # undo and reset are no beats
    settle_animations(qtbot, window)
    assert window.play_view.moves == 0
    assert sound.asked == ["tick", "beat"]


def test_reduced_motion_keeps_sounds(make_window, settings) -> None:
    window, sound = clockwork_with_sound(make_window, settings)
    keys(window, SOLUTION[:9])
    assert sound.asked == ["tick"]
    assert not window.play_view.board.animating


def test_view_sound_off_stays_off(make_window, settings: EditorSettings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    sound_action = window.actions_by_id["actionSound"]
    assert sound_action.isChecked()
    assert settings.sound_enabled
    trigger(window, "actionSound")  # View ▸ Sound: off
    assert not settings.sound_enabled
    play(window)
    keys(window, SOLUTION[:10])
    assert window.play_view.sounds.asked == []
    assert window.play_view.sounds.backend is None  # Qt Multimedia was not even loaded
    window.close()

    again = open_level(make_window, CLOCKWORK)  # a new window, the same settings
    assert not again.actions_by_id["actionSound"].isChecked()
    sound = RecordingSound()
    again.play_view.sounds.backend = sound
    play(again)
    keys(again, SOLUTION[:10])
    assert sound.asked == []
    trigger(again, "actionSound")  # on again, during play
    keys(again, SOLUTION[10])
    assert sound.asked == ["tick"]


def test_view_sound_volume_is_kept(make_window, settings: EditorSettings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    view_menu = next(
        m for m in window.menuBar().findChildren(QMenu) if m.title().replace("&", "") == "View"
    )
    volume_menu = window.findChild(QMenu, "menuSoundVolume")
    assert volume_menu is not None
    assert volume_menu.menuAction() in view_menu.actions()
    assert [a.text() for a in volume_menu.actions()] == ["25%", "50%", "75%", "100%"]
    assert window.actions_by_id["actionSoundVolume75"].isChecked()
    trigger(window, "actionSoundVolume25")
    assert settings.sound_volume == 25
    assert not window.actions_by_id["actionSoundVolume75"].isChecked()  # one choice
    sound = RecordingSound()
    window.play_view.sounds.backend = sound
    play(window)
    keys(window, SOLUTION[:9])
    assert sound.volumes == [gain(25)]
    assert gain(25) < gain(50) < gain(75) < gain(100) == 1.0
    window.close()
    again = open_level(make_window, CLOCKWORK)
    assert again.actions_by_id["actionSoundVolume25"].isChecked()


def test_playback_sounds_each_beat_and_a_seek_is_silent(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    sound = RecordingSound()
    window.play_view.sounds.backend = sound
    playback = window.play_view.play_moves(SOLUTION, title="Intended solution")
    playback.seek(9)  # a jump over the first beat
    assert window.play_view.moves == 9
    assert sound.asked == []
    assert playback.step()  # the tenth move, at the beat
    assert sound.asked == ["beat"]
    assert playback.step()
    assert sound.asked == ["beat", "tick"]


def test_a_missing_backend_is_reported_and_play_goes_on(make_window, settings) -> None:
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    window.play_view.sounds = BeatSounds(settings, load=lambda: (None, "no luck here"))
    play(window)
    keys(window, SOLUTION[:10])
    assert window.play_view.sounds.asked == ["tick", "beat"]
    assert window.play_view.sounds.played == []
    assert window.play_view.moves == 10
    window._show_sound_problem()  # as the View menu does when it opens
    assert window.actions_by_id["actionSound"].text() == "&Sound (no luck here)"


def test_a_beat_asks_qt_multimedia_to_play_and_it_loads_or_says_why(
    make_window, settings, qtbot
) -> None:
    """The real backend, in this (offscreen) process: the beat's sound effect is asked
    to play and reaches a loaded status, or, without an audio device, the editor says
    so; nothing waits for it either way."""
    settings.reduced_motion = True
    window = open_level(make_window, CLOCKWORK)
    play(window)
    sounds = window.play_view.sounds
    if sounds.backend is None:  # Qt Multimedia cannot be loaded on this machine
        reason = sounds.problem()
        assert reason is not None
        assert reason.startswith("Qt Multimedia could not be loaded")
        window._show_sound_problem()
        assert reason in window.actions_by_id["actionSound"].text()
        pytest.skip(reason)
    started = time.perf_counter()
    keys(window, SOLUTION[:9])
    assert sounds.played == ["tick"]  # the effect was asked to play
    effect = sounds.backend.effect("tick")  # type: ignore[attr-defined]
    assert effect is not None
    qtbot.waitUntil(lambda: sounds.backend.status("tick") != "loading", timeout=5000)  # type: ignore[attr-defined]
    status = sounds.backend.status("tick")  # type: ignore[attr-defined]
    if status == "ready":
        assert effect.isLoaded()
        assert sounds.problem() is None
    else:
        from PySide6.QtMultimedia import QMediaDevices

        assert status == "error"
        assert QMediaDevices.audioOutputs() == []
        assert sounds.problem() == "no audio output device"
        window._show_sound_problem()
        assert window.actions_by_id["actionSound"].text() == "&Sound (no audio output device)"
    assert window.play_view.moves == 9
    print(f"tick: {status}; nine turns in {time.perf_counter() - started:.2f} s")


_CHILD = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from PySide6.QtMultimedia import QMediaDevices
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv)
    from editor.panels.play.sound import default_backend
    from editor.resources import sound_names
    backend, reason = default_backend()
    assert backend is not None, reason
    assert QMediaDevices.audioOutputs(), "no audio output"
    for name in sound_names():
        assert backend.play(name, 0.5), name
    def done():
        if all(backend.status(n) != "loading" for n in sound_names()):
            print(" ".join(f"{n}={backend.status(n)}" for n in sound_names()))
            app.quit()
    timer = QTimer(); timer.timeout.connect(done); timer.start(50)
    QTimer.singleShot(10_000, app.quit)
    app.exec()
    """
)


def test_every_shipped_sound_loads_on_a_null_audio_sink(tmp_path: Path) -> None:
    """Against a real PulseAudio server with a null sink (started here, stopped after):
    every shipped sound reaches the loaded status. Needs ``pulseaudio`` (.ci/run
    installs it)."""
    server = shutil.which("pulseaudio")
    if server is None:
        pytest.skip("pulseaudio is not installed: no audio server to load the sounds on")
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {
        **os.environ,
        "XDG_RUNTIME_DIR": str(runtime),
        "HOME": str(tmp_path),
        "QT_QPA_PLATFORM": "offscreen",
    }
    daemon = subprocess.Popen(
        [
            server,
            "--daemonize=no",
            "-n",
            "--exit-idle-time=-1",
            "--load=module-null-sink sink_name=null",
            "--load=module-native-protocol-unix",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        socket = runtime / "pulse" / "native"
        deadline = time.monotonic() + 10
        while not socket.exists() and time.monotonic() < deadline and daemon.poll() is None:
            time.sleep(0.05)
        assert socket.exists(), "the audio server did not start"
        child = subprocess.run(
            [sys.executable, "-c", _CHILD],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        daemon.terminate()
        daemon.wait(10)
    assert child.returncode == 0, child.stderr[-2000:]
    statuses = dict(item.split("=") for item in child.stdout.split())
    assert statuses == dict.fromkeys(sound_names(), "ready")
