"""The Stratagems window in the view, driven by key presses and clicks.

On scenes/warbands.yaml (SAMPLE Stratagems: red has War Horn (own, 8"),
Shield Wall (all-own, 6") and Field Dressing (own, Awareness, per turn);
blue has Hunter's Mark (enemy, 18"), Fade into Cover (own, 10") and Second
Wind (leader)): the HUD names the phase, the side and the Leader; the menu
has one entry per usable Stratagem plus Pass; a targeted one goes through the
target click (legal targets ringed, an illegal click explained by the rules),
an untargeted one applies at once, P passes, Ctrl+Z undoes."""
from __future__ import annotations

import os
import re

import pytest

from view_fixtures import press, click_model, menu_key, open_controller  # noqa: E402

pytest.importorskip("panda3d")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCENE = os.path.join(ROOT, "scenes", "warbands.yaml")


def _controller(view_app, tmp_path, scene=SCENE, settings=None):
    from tools.cmd_view import game_factory, load_world
    world = load_world(str(scene))
    if settings is None:
        game, geo = game_factory(world, "eldfall")(3)
    else:                                   # the same game as the view's, with settings
        from engine.geometry import WorldGeometry
        from tools.gameplay import game_module, scene_info
        from tools.roster import units_from_scene
        geo = WorldGeometry(world)
        game = game_module("eldfall").new_game(units_from_scene(world.scene, world), geo, seed=3,
                                               settings=settings, scene_info=scene_info(world.scene))
    return open_controller(view_app, world, game, geo, tmp_path)


@pytest.fixture()
def ctl(view_app, tmp_path):
    c = _controller(view_app, tmp_path)
    yield c
    c.close()


def _labels(ctl):
    return [label for label, _ in ctl.menu]


def _open_window(app, ctl, first: str = "red"):
    """The order decision (blue chooses), then the first side's Strategic Phase."""
    other = "blue" if first == "red" else "red"
    press(app, menu_key(ctl, "order blue second" if first == "red" else "order blue first"))
    assert ctl.game.pending == ("stratagem", first), ctl.game.pending
    assert other


def _stratagem_events(events):
    return [e for e in events if e.kind == "stratagem"]


def test_the_window_hud_and_menu(view_app, ctl):
    from engine.view.play import CAN_ACT
    _open_window(view_app, ctl)
    status = ctl.hud.status.text
    assert "Strategic Phase: Stratagems (red), Leader red-champion" in status
    assert "P to pass" in status
    labels = _labels(ctl)
    # one entry per usable Stratagem (the rules offer 10 actions: 4 + 1 + 4 targets, and Pass)
    assert len(ctl.game.legal_actions()) == 10 and len(labels) == 4
    assert labels[0].startswith('War Horn (1 use left this game) -> click a target: a model of red within 8" of the Leader')
    assert labels[0].endswith("SAMPLE. The horn sounds; a warrior near the Champion surges forward.")
    assert labels[1].startswith('Shield Wall (2 uses left this game): on every model of red within 6" of the Leader')
    assert labels[2].startswith("Field Dressing (1 use left this turn) -> click a target: "
                                "a model of red in the Leader's Awareness")
    assert labels[3].startswith("Pass")
    menu = ctl.hud.menu.text
    assert menu.startswith("Stratagems of red (Leader red-champion):")
    assert "1. War Horn" in menu and "4. Pass" in menu and "UseStratagem" not in menu and "stratagem red" not in menu
    assert ctl.table.highlights.get("red-champion") == CAN_ACT        # the Leader is ringed


def test_a_targeted_stratagem_by_clicking_a_model(view_app, ctl):
    from engine.view.play import TARGETABLE
    _open_window(view_app, ctl)
    assert press(view_app, menu_key(ctl, "War Horn")) == "target"
    assert ctl.state == "target"
    legal = sorted(a.target for a in ctl.game.legal_actions()
                   if type(a).__name__ == "UseStratagem" and a.name == "War Horn")
    ringed = sorted(m for m, col in ctl.table.highlights.items() if col == TARGETABLE)
    assert ringed == legal == ["red-archer", "red-champion", "red-scout", "red-shieldbearer"]
    assert ctl.message.startswith("Stratagem War Horn: click a target")
    events = click_model(view_app, ctl.world, "red-archer")
    assert events and events[0].data["action"] == "stratagem red 'War Horn' target=red-archer"
    (st,) = _stratagem_events(events)
    assert (st.data["name"], st.data["targets"], st.data["uses_left"]) == ("War Horn", ["red-archer"], 0)
    assert ctl.state == "idle" and ctl.game.pending == ("tactical", "red")   # one per phase (default setting)
    assert "War Horn on red-archer" in ctl.message                           # narrated
    assert "Strategic Phase: Stratagems" not in ctl.hud.status.text


def test_an_illegal_click_is_explained(view_app, tmp_path):
    # the scout stands 10.5" from the Champion: beyond War Horn's 8"
    text = open(SCENE, encoding="utf-8").read()
    text = text.replace("profile: sample-red#scout,        at: [20, 4]", "profile: sample-red#scout,        at: [23.5, 5]")
    assert "[23.5, 5]" in text
    (tmp_path / "far.yaml").write_text(text, encoding="utf-8")
    c = _controller(view_app, tmp_path, tmp_path / "far.yaml")
    try:
        _open_window(view_app, c)
        press(view_app, menu_key(c, "War Horn"))
        assert "red-scout" not in c.table.highlights                        # not offered
        n = len(c.game.events)
        assert click_model(view_app, c.world, "red-scout") is None
        assert c.message == ('red-scout is not a legal target for Stratagem War Horn: '
                             'red-scout is not within 8" of red-champion')
        assert click_model(view_app, c.world, "blue-guard") is None
        assert c.message == ("blue-guard is not a legal target for Stratagem War Horn: "
                             "War Horn targets a model of red, not blue-guard")
        assert "\n" not in c.message and c.message in c.hud.status.text
        assert len(c.game.events) == n and c.state == "target" and c.game.pending == ("stratagem", "red")
        # the table, not a model: the step stays and says what to do
        assert press(view_app, "mouse1", pixel=view_app.project((2.0, 12.0, 0.0))) is None
        assert c.message.startswith("Stratagem War Horn: click a highlighted model") and c.state == "target"
        assert press(view_app, "escape") == "cancel" and c.state == "idle"
        assert c.game.pending == ("stratagem", "red") and len(c.game.events) == n
    finally:
        c.close()


def test_an_untargeted_stratagem_applies_at_once(view_app, ctl):
    _open_window(view_app, ctl)
    events = press(view_app, menu_key(ctl, "Shield Wall"))
    assert events and events[0].data["action"] == "stratagem red 'Shield Wall'"
    (st,) = _stratagem_events(events)
    w = ctl.world
    near = sorted(m for m in w.model_ids() if w.hitbox(m).side == "red"
                  and (m == "red-champion" or w.distance("red-champion", m) <= 6.0 + 1e-6))
    assert sorted(st.data["targets"]) == near and "red-scout" not in near     # the scout stands 8" away
    assert st.data["uses_left"] == 1
    assert all(ctl.game.models[m].boosts for m in near)


def test_pass_with_p(view_app, ctl):
    _open_window(view_app, ctl)
    events = press(view_app, "p")
    assert events[0].data["action"] == "pass red"
    done = [e for e in events if e.kind == "stratagems_done"]
    assert done and done[0].data == {"side": "red", "used": 0}
    assert ctl.game.pending == ("tactical", "red")
    assert not _stratagem_events(ctl.game.events)


def test_undo_returns_to_the_window(view_app, ctl):
    from engine.view.play import CAN_ACT
    _open_window(view_app, ctl)
    before = ctl.game.state_hash()
    press(view_app, menu_key(ctl, "Field Dressing"))
    assert click_model(view_app, ctl.world, "red-shieldbearer")
    assert ctl.game.state_hash() != before and ctl.game.pending[0] != "stratagem"
    undone = press(view_app, "control-z")
    assert undone == "stratagem red 'Field Dressing' target=red-shieldbearer"
    assert ctl.game.state_hash() == before and ctl.game.pending == ("stratagem", "red")
    assert _labels(ctl)[2].startswith("Field Dressing (1 use left this turn)")
    assert "Strategic Phase: Stratagems (red), Leader red-champion" in ctl.hud.status.text
    assert ctl.table.highlights.get("red-champion") == CAN_ACT
    # and the window works again after the undo
    assert press(view_app, "p")[0].data["action"] == "pass red"


def test_uses_left_follow_the_game_in_one_window(view_app, tmp_path):
    c = _controller(view_app, tmp_path, settings={"stratagems_per_phase": 2})
    try:
        _open_window(view_app, c)
        press(view_app, menu_key(c, "Shield Wall"))
        assert c.game.pending == ("stratagem", "red")                      # a second use may follow
        assert _labels(c)[1].startswith("Shield Wall (1 use left this game)")
        press(view_app, menu_key(c, "War Horn"))
        (st,) = _stratagem_events(click_model(view_app, c.world, "red-scout"))
        assert st.data["name"] == "War Horn" and c.game.pending == ("tactical", "red")
    finally:
        c.close()


def test_blue_leader_and_enemy_targets(view_app, ctl):
    from engine.view.play import TARGETABLE
    _open_window(view_app, ctl, first="blue")
    assert "Strategic Phase: Stratagems (blue), Leader blue-warden" in ctl.hud.status.text
    labels = _labels(ctl)
    assert labels[0].startswith('Hunter\'s Mark (1 use left this game) -> click a target: an enemy model within 18"')
    assert labels[2].startswith("Second Wind (1 use left this game): on the Leader")
    press(view_app, menu_key(ctl, "Hunter's Mark"))
    assert sorted(m for m, col in ctl.table.highlights.items() if col == TARGETABLE) == [
        "red-archer", "red-champion", "red-scout", "red-shieldbearer"]
    assert click_model(view_app, ctl.world, "blue-guard") is None
    assert ctl.message.endswith("Hunter's Mark targets an enemy, not blue-guard")
    events = click_model(view_app, ctl.world, "red-champion")
    assert _stratagem_events(events)[0].data["targets"] == ["red-champion"]
    assert "Slowed" in ctl.game.models["red-champion"].states


def test_leader_stratagem_applies_at_once(view_app, ctl):
    _open_window(view_app, ctl, first="blue")
    (st,) = _stratagem_events(press(view_app, menu_key(ctl, "Second Wind")))
    assert st.data["targets"] == ["blue-warden"] and st.data["name"] == "Second Wind"


def test_a_long_window_pages_its_menu(view_app, tmp_path):
    text = open(SCENE, encoding="utf-8").read()
    extra = "".join(f"    - {{name: Drill {i}, target: all-own, effect: {{mods: {{DEF: 1}}}}}}\n" for i in range(1, 10))
    text = text.replace("  blue:                                  # SAMPLE", extra + "  blue:   # SAMPLE", 1)
    (tmp_path / "many.yaml").write_text(text, encoding="utf-8")
    c = _controller(view_app, tmp_path, tmp_path / "many.yaml")
    try:
        _open_window(view_app, c)
        first = _labels(c)
        assert len(first) == 10 and first[-1] == "more ... (page 1 of 2)"
        assert re.match(r"Drill 6 \(1 use left this game\): on every model of red", first[8])
        assert press(view_app, "0") == "page"
        second = _labels(c)
        assert [x.split(" (")[0] for x in second] == ["Drill 7", "Drill 8", "Drill 9", "Pass: no", "more ..."]
        assert "0. more ... (page 2 of 2)" in c.hud.menu.text            # key 0 turns, on every page
        assert press(view_app, "5") is None and _labels(c) == second      # no entry 5 on this page
        assert press(view_app, "0") == "page" and _labels(c) == first     # and back round
        press(view_app, "0")
        (st,) = _stratagem_events(press(view_app, menu_key(c, "Drill 8")))
        assert st.data["name"] == "Drill 8"
    finally:
        c.close()


def test_attract_mode_bots_decide_the_window(view_app, tmp_path):
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    world = load_world(SCENE)
    c = AttractController(view_app, world, game_factory(world, "eldfall"), bots_factory("eldfall", "greedy"),
                          seed=2, out_dir=str(tmp_path))
    try:
        seen = False
        for _ in range(4):
            was = c.game.pending
            c.bot_step()
            if was[0] == "stratagem":
                seen = True
                assert c.hud.banner.text
                assert any(e.kind in ("stratagem", "stratagems_done") for e in c.game.events)
                break
        assert seen, "the bots never met the Stratagems window"
        assert c.hud.menu.text == ""                       # attract mode shows no menu
        view_app.step()
    finally:
        c.close()


def _hover(app, world, mid):
    hb = world.hitbox(mid)
    app.dispatch("none", pixel=app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))
    app.step()


def test_hover_says_whether_a_model_may_be_named_and_the_range_is_drawn(view_app, tmp_path):
    text = open(SCENE, encoding="utf-8").read()
    text = text.replace("profile: sample-red#scout,        at: [20, 4]", "profile: sample-red#scout,        at: [23.5, 5]")
    (tmp_path / "far.yaml").write_text(text, encoding="utf-8")
    c = _controller(view_app, tmp_path, tmp_path / "far.yaml")
    try:
        _open_window(view_app, c)
        click_model(view_app, c.world, "red-archer")         # a selection: no LoS verdict in the step
        press(view_app, menu_key(c, "War Horn"))
        rings = [n for n in c.play_live.getChildren() if n.getName() == "range-ring"]
        assert len(rings) == 1
        _hover(view_app, c.world, "red-scout")
        assert c.hovered == "red-scout" and (c.verdict is None or c.verdict.target != "red-scout")
        assert c.hud.verdict.text == 'Stratagem War Horn on red-scout: red-scout is not within 8" of red-champion'
        _hover(view_app, c.world, "red-shieldbearer")
        assert c.hud.verdict.text == "Stratagem War Horn on red-shieldbearer: legal, click to use"
        press(view_app, "escape")
        assert c.hud.verdict.text == "" and not [n for n in c.play_live.getChildren() if n.getName() == "range-ring"]
        # Field Dressing has no range: no ring
        press(view_app, menu_key(c, "Field Dressing"))
        assert not [n for n in c.play_live.getChildren() if n.getName() == "range-ring"]
    finally:
        c.close()


def test_save_and_load_inside_the_window(view_app, ctl, tmp_path):
    _open_window(view_app, ctl)
    path = ctl.save(str(tmp_path / "window.jsonl"))
    h = ctl.game.state_hash()
    press(view_app, menu_key(ctl, "Shield Wall"))
    assert ctl.game.pending == ("tactical", "red")
    assert ctl.load(path) == path
    assert ctl.game.state_hash() == h and ctl.game.pending == ("stratagem", "red")
    assert "Strategic Phase: Stratagems (red), Leader red-champion" in ctl.hud.status.text
    assert [x.split(" (")[0] for x in _labels(ctl)] == ["War Horn", "Shield Wall", "Field Dressing", "Pass: no"]
