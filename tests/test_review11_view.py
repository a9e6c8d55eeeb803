"""Review 11, the hotseat window as players at home meet it.

* A two-Strike attack that hit twice said only the first Strike's damage in the
  status panel ("... 5 more events"): the second hit, its damage and the Wound
  were cut. The outcome is never cut (the dice go first: the dice panel has them).
* The side's decisions were raw action text: "end red" (pressing it ends the
  turn), "pass blue" in a Reaction step, "duel blue accept"; the Duel's answer
  had no status line saying whose it is.
* Ctrl+O (and ``eldfall view --log``) replayed a log of another scene on the
  table shown: skirmish.yaml's twelve models were put on warbands.yaml's terrain,
  its Stratagems gone, every answer on the wrong table. A log of another scene,
  or of a scene file changed since, is refused with the reason, as
  ``eldfall replay`` does; the log's file is named (not "<log>").
"""
from __future__ import annotations

import pytest

pytest.importorskip("panda3d")

from view_fixtures import (all_menu_entries, click_model, hotseat_activate, hotseat_idle_to_action,  # noqa: E402
                           menu_key, open_scene, press)


@pytest.fixture()
def skirmish(view_app, tmp_path):
    c = open_scene(view_app, tmp_path, "scenes/skirmish.yaml", seed=1)
    yield c
    c.close()


# ------------------------------------------------------------ 1. the outcome in the status
def test_a_two_strike_attack_says_both_hits_and_the_wound(view_app, skirmish):
    c = skirmish
    hotseat_activate(view_app, c, "red-archer", "order blue second")
    hotseat_idle_to_action(view_app, c)
    assert press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target")) == "target"
    n0 = len(c.game.events)
    click_model(view_app, c.world, "blue-marksman")
    new = c.game.events[n0:]
    hits = [e for e in new if e.kind == "hit"]
    wounds = [e for e in new if e.kind == "wound"]
    assert len(hits) == 2 and len(wounds) == 1, [e.kind for e in new]     # seed 1: both Strikes hit (blue-skirmisher is seen only through the forest: -3)
    lines = c.message.splitlines()
    assert len(lines) <= c.EXPLAIN_LINES
    assert sum("hits blue-marksman" in ln for ln in lines) == 2, c.message
    assert sum(ln.strip().startswith("damage on blue-marksman") for ln in lines) == 2, c.message
    assert c.say(wounds[0]).strip() in [ln.strip() for ln in lines], c.message
    assert "more events" not in c.message
    assert c.message in c.hud.status.text


def test_a_long_outcome_keeps_its_end(view_app, skirmish):
    """More lines than the panel takes: the first three, a count, the last four."""
    from rules.core.game import Event
    c = skirmish
    c._narrator = lambda ev: f"line {ev.data['i']}"
    evs = [Event("note", {"i": i}, i) for i in range(20)]
    lines = c.explain(None, evs).splitlines()
    assert lines == ["line 1", "line 2", "line 3", "  ... (12 more in the event log)",
                     "line 16", "line 17", "line 18", "line 19"]


# ------------------------------------------------------------ 2. the side's decisions in words
def test_the_sides_decisions_are_in_words(view_app, skirmish):
    c = skirmish
    assert all_menu_entries(c) == ["order blue first (blue's turn comes first)",
                                   "order blue second (red's turn comes first)"]
    press(view_app, menu_key(c, "order blue second"))
    assert all_menu_entries(c) == ["End red's turn (activate no more models)"]
    click_model(view_app, c.world, "red-archer")
    while c.game.pending[0] == "crouch":
        press(view_app, "p")
    press(view_app, menu_key(c, "Move: Idle"))
    assert c.game.pending == ("reaction", "blue")
    labels = all_menu_entries(c)
    assert "Pass: no (more) Reactions of blue (P)" in labels and "pass blue" not in labels, labels
    press(view_app, menu_key(c, "Pass: no (more) Reactions"))
    while c.game.pending[0] == "crouch":
        press(view_app, "p")
    assert c.game.pending == ("action", "red-archer")
    assert press(view_app, menu_key(c, "Issue a Duel")) == "target"
    click_model(view_app, c.world, "blue-ogre")
    assert c.game.pending == ("duel-answer", "blue")
    assert all_menu_entries(c) == ["Duel: blue-ogre accepts the Duel with red-archer",
                                   "Duel: blue-ogre refuses the Duel with red-archer"]
    assert "Duel: red-archer challenges blue-ogre; blue accepts or refuses" in c.hud.status.text
    n0 = len(c.game.events)
    press(view_app, menu_key(c, "Duel: blue-ogre refuses"))
    assert [e.data["state"] for e in c.game.events[n0:] if e.kind == "duel"] == ["refused"]


# ------------------------------------------------------------ 3. a log of another table
def _saved_log(view_app, tmp_path) -> str:
    c = open_scene(view_app, tmp_path, "scenes/skirmish.yaml", seed=1)
    try:
        hotseat_activate(view_app, c, "red-scout", "order blue second")
        return c.save()
    finally:
        c.close()


def _ctrl_o_refused(view_app, tmp_path, scene: str, game: str = "eldfall") -> str:
    """Ctrl+O on a table opened from ``scene``: nothing loads; the message it gives."""
    c = open_scene(view_app, tmp_path, scene, game, seed=1)
    try:
        assert press(view_app, "control-o") is None
        return c.message
    finally:
        c.close()


def test_a_log_of_another_scene_is_refused(view_app, tmp_path):
    from rules.core.errors import LogError
    log = _saved_log(view_app, tmp_path)
    c = open_scene(view_app, tmp_path, "scenes/warbands.yaml", seed=1)
    try:
        before = sorted(c.world.model_ids())
        n = len(c.game.events)
        assert press(view_app, "control-o") is None
        assert c.message.startswith(f"cannot load: {log}:1: scene.sha256: this log was played on "), c.message
        assert "skirmish.yaml, not on" in c.message and "warbands.yaml" in c.message
        assert sorted(c.world.model_ids()) == before          # no skirmish model on this table
        assert sorted(c.game.models) == before and len(c.game.events) == n
        with pytest.raises(LogError) as err:                  # eldfall view --log: one line, exit 2
            c.load(log, strict=True)
        assert err.value.one_line().startswith(f"{log}:1: scene.sha256: ")
    finally:
        c.close()


def test_a_log_of_a_changed_scene_file_is_refused_and_its_own_loads(view_app, tmp_path):
    import shutil
    from view_fixtures import ROOT
    scene = tmp_path / "table.yaml"
    shutil.copy(f"{ROOT}/scenes/warbands.yaml", scene)
    c = open_scene(view_app, tmp_path, str(scene), seed=1)
    try:
        press(view_app, menu_key(c, "order blue second"))
        pending = c.game.pending
        log = c.save()
    finally:
        c.close()
    c = open_scene(view_app, tmp_path, str(scene), seed=1)
    try:
        assert c.game.pending != pending
        assert press(view_app, "control-o") == log, c.message          # its own scene: loads
        assert c.game.pending == pending
    finally:
        c.close()
    scene.write_text(scene.read_text() + "\n# moved a wall\n")
    assert _ctrl_o_refused(view_app, tmp_path, str(scene)) == \
        f"cannot load: {log}:1: scene.sha256: {scene} has changed since the game was logged"


def test_a_log_of_another_game_names_its_file(view_app, tmp_path):
    log = _saved_log(view_app, tmp_path)
    assert _ctrl_o_refused(view_app, tmp_path, "scenes/norova-arena.yaml", "norova") == \
        f"cannot load: {log}:1: game: this log is of game 'eldfall', not 'norova'"


# ------------------------------------------------------------ 4. Backspace after a routed click
def test_backspace_takes_back_a_routed_click_whole(view_app, skirmish):
    """One click in the shaded area behind a wall takes the area's route (several
    waypoints). Backspace dropped only the route's last grid point: the path then
    ended where nobody clicked, and Enter moved the model there."""
    c, world = skirmish, skirmish.world
    hotseat_activate(view_app, c, "red-mage", "order blue second")
    assert press(view_app, menu_key(c, "Move: Walk")) == "move"
    prompt = c.message
    goal = (5.38, 5.88, 2.75)                     # round the ruin's fallen-in corner
    press(view_app, "mouse1", pixel=view_app.project(goal))
    assert len(c.waypoints) > 2 and "the shaded area's route" in c.message
    press(view_app, "backspace")
    assert c.waypoints == [] and c.preview is None
    assert c.message == prompt
    n = len(c.game.events)
    press(view_app, "enter")                      # no path: Enter moves nothing
    assert len(c.game.events) == n and (world.hitbox("red-mage").x, world.hitbox("red-mage").y) == (9.0, 2.6)
    # the route, then a click of the player's own: Backspace takes that click, then the route
    press(view_app, "mouse1", pixel=view_app.project(goal))
    routed = list(c.waypoints)
    press(view_app, "mouse1", pixel=view_app.project((5.9, 4.4, 2.75)))
    assert len(c.waypoints) == len(routed) + 1
    press(view_app, "backspace")
    assert c.waypoints == routed
    press(view_app, "backspace")
    assert c.waypoints == []


# ------------------------------------------------------------ 5. eldfall demo outside the project
def test_demo_finds_its_default_scene_from_any_folder(tmp_path, capsys, monkeypatch):
    """`eldfall demo` with no scene, run outside the project folder, said
    "scenes/skirmish.yaml: file not found": the default is the project's own scene."""
    from cli_run import run_cli
    from tools.cmd_demo import DEFAULT_SCENE, demo_scene
    from view_fixtures import ROOT
    monkeypatch.chdir(tmp_path)
    assert demo_scene(DEFAULT_SCENE) == f"{ROOT}/{DEFAULT_SCENE}"
    assert demo_scene("mine.yaml") == "mine.yaml"                 # a scene named: as given
    (tmp_path / "scenes").mkdir()
    (tmp_path / "scenes" / "skirmish.yaml").write_text("x")
    assert demo_scene(DEFAULT_SCENE) == DEFAULT_SCENE              # one here is the user's
    (tmp_path / "scenes" / "skirmish.yaml").unlink()
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    # the scene loads (the table's summary would follow); the --out given is refused, so
    # nothing renders here
    rc, out, err = run_cli(capsys, "demo", "--offscreen", "--frames", "1", "--out", str(blocker))
    assert rc == 2 and "file not found" not in err and "--out" in err, err


# ------------------------------------------------------------ 6. the Crouched window's "all" entry
def test_crouching_all_at_once_is_a_short_entry(view_app, skirmish):
    """At every activation the reactive player's menu offered "crouch blue-warden,
    crouch blue-guard, ... crouch blue-skirmisher" (six models, 120 characters): the
    menu panel, as wide as its longest line, covered half the near side of the table."""
    c = skirmish
    press(view_app, menu_key(c, "order blue second"))
    click_model(view_app, c.world, "red-archer")
    assert c.game.pending == ("crouch", "blue")
    labels = all_menu_entries(c)
    assert labels[-1] == "Crouched as a Reaction: crouch all 6 at once", labels
    assert max(len(m) for m in c.hud.menu.text.splitlines()) <= 50, c.hud.menu.text
    n0 = len(c.game.events)
    press(view_app, menu_key(c, "Crouched as a Reaction: crouch all 6"))
    blue = [m for m in c.world.model_ids() if c.world.hitbox(m).side == "blue"]
    assert len(blue) == 6 and all("Crouched" in c.game.models[m].states for m in blue), c.message
    assert len(c.game.events) > n0


# ------------------------------------------------------------ 7. P with nothing to pass
def test_p_with_nothing_to_pass_says_so(view_app, skirmish):
    """P in the Tactical Phase (a player who means "I'm done") did nothing, silently."""
    c = skirmish
    press(view_app, menu_key(c, "order blue second"))
    n = len(c.game.events)
    assert press(view_app, "p") is None
    assert len(c.game.events) == n
    assert c.message == "P: nothing to pass now (the turn ends with the menu's \"End red's turn " \
                        "(activate no more models)\")"
    assert c.message in c.hud.status.text


# ------------------------------------------------------------ 8. the Dodge move's status
def test_the_dodge_move_says_who_is_active_and_who_dodges(view_app, skirmish):
    """After a successful Dodge the status read "blue-skirmisher active, step:
    dodge-move": the dodger is not the active model (red-archer's activation goes on)."""
    c = skirmish
    hotseat_activate(view_app, c, "red-archer", "order blue second")
    press(view_app, menu_key(c, "Move: Idle"))
    click_model(view_app, c.world, "blue-skirmisher")
    press(view_app, menu_key(c, "Dodge"))
    while c.game.pending[0] in ("reaction", "crouch"):
        press(view_app, "p")
    press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target"))
    click_model(view_app, c.world, "blue-skirmisher")
    assert c.game.pending == ("dodge-move", "blue-skirmisher"), c.message     # seed 1: the Dodge succeeds
    status = c.hud.status.text.splitlines()
    assert "red-archer active, step: dodge-move" in status, status
    assert "blue-skirmisher active, step: dodge-move" not in status
    assert "Dodge: blue-skirmisher may make its Dodge move (number keys; a move: click the path)" in status
    assert c.hud.menu.text.startswith("Legal for blue-skirmisher:")
    assert all_menu_entries(c)[:2] == ["Dodge: stay", "Dodge: move (click the path)"]
