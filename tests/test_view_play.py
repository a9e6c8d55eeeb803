"""Play through the view, offscreen: clicks and keys become rules actions.

A scripted click sequence (order, activate, walk, attack) must produce the
rules' own events; Ctrl+Z must restore the state (hash and positions); the
log must save and load; F12 must write the dispute pair and the verdict."""
from __future__ import annotations

import json
import os

import pytest

from view_fixtures import press, click_model, menu_key, open_controller  # noqa: E402

pytest.importorskip("panda3d")

SCENE = os.path.join(os.path.dirname(__file__), "data", "view", "duel.yaml")


@pytest.fixture()
def ctl(view_app, tmp_path):
    from tools.cmd_view import game_factory, load_world
    world = load_world(SCENE)
    game, geo = game_factory(world, "eldfall")(3)
    c = open_controller(view_app, world, game, geo, tmp_path)
    yield c
    c.close()


def _pass_crouch(app, ctl):
    """The reactive player declines Crouched as a Reaction (P), as often as asked."""
    while ctl.game.pending[0] == "crouch":
        press(app, "p")


def _play_opening(app, ctl):
    """order -> activate -> walk 3" -> (blue passes) -> ranged attack. Returns the events per step."""
    world, game = ctl.world, ctl.game
    steps = {}
    assert game.pending == ("order", "red")
    steps["order"] = press(app, menu_key(ctl, "order red first"))
    assert game.pending == ("tactical", "red")
    steps["activate"] = click_model(app, world, "red-archer")
    _pass_crouch(app, ctl)
    assert game.pending == ("movement", "red-archer")
    assert press(app, menu_key(ctl, "Move: Walk")) == "move"
    press(app, "mouse1", pixel=app.project((10.0, 13.0, 0.0)))
    assert ctl.preview is not None and ctl.preview[1] is None      # the rules call the path legal
    assert sorted(w.observer for w in ctl.path_watchers if w.had_los) == ["blue-archer", "blue-ogre"]  # both face it
    steps["walk"] = press(app, "enter")
    while game.pending[0] in ("reaction", "crouch"):
        steps["pass"] = press(app, "p")
    assert game.pending == ("action", "red-archer")
    assert press(app, menu_key(ctl, "Ranged Attack")) == "target"
    steps["attack"] = click_model(app, world, "blue-archer")
    return steps


def test_scripted_clicks_produce_the_rules_events(view_app, ctl):
    steps = _play_opening(view_app, ctl)
    kinds = {k: [e.kind for e in v] for k, v in steps.items()}
    assert steps["order"][0].data == {"action": "order red first"}
    assert kinds["activate"][:3] == ["action", "ap", "activate"]
    assert steps["activate"][2].data["model"] == "red-archer"
    mv = next(e for e in steps["walk"] if e.kind == "movement")
    assert mv.data["model"] == "red-archer" and mv.data["movement"] == "Walk"
    assert mv.data["end"][:2] == pytest.approx([10.0, 13.0], abs=0.05)
    hb = ctl.world.hitbox("red-archer")
    assert (hb.x, hb.y) == pytest.approx((10.0, 13.0), abs=0.05)       # the world moved with the rules
    assert ctl.table.models["red-archer"].getY() == pytest.approx(13.0, abs=0.05)   # and the drawing
    atk = next(e for e in steps["attack"] if e.kind == "attack")
    assert (atk.data["attacker"], atk.data["target"], atk.data["with"]) == ("red-archer", "blue-archer", "Longbow")
    assert sum(e.kind == "roll" for e in steps["attack"]) >= 2            # the strikes were rolled
    # the HUD shows the dice and the log
    assert "Dice" in ctl.hud.dice.text and "d20" in ctl.hud.dice.text
    assert "red-archer" in ctl.hud.log.text


def test_illegal_path_is_refused_with_the_rules_reason(view_app, ctl):
    world, game = ctl.world, ctl.game
    press(view_app, menu_key(ctl, "order red first"))
    click_model(view_app, world, "red-archer")
    _pass_crouch(view_app, ctl)
    press(view_app, menu_key(ctl, "Move: Walk"))
    press(view_app, "mouse1", pixel=view_app.project((10.0, 19.5, 0.0)))   # 9.5": beyond SPD 5
    action, reason = ctl.preview
    assert reason, "a 9.5 inch walk with SPD 5 must be refused"
    n = len(game.events)
    assert press(view_app, "enter") is None
    assert len(game.events) == n and game.pending == ("movement", "red-archer")
    assert "not allowed" in ctl.message


def test_undo_restores_the_state(view_app, ctl):
    world = ctl.world
    press(view_app, menu_key(ctl, "order red first"))
    click_model(view_app, world, "red-archer")
    _pass_crouch(view_app, ctl)
    before_walk = ctl.game.state_hash()
    press(view_app, menu_key(ctl, "Move: Walk"))
    press(view_app, "mouse1", pixel=view_app.project((10.0, 13.0, 0.0)))
    press(view_app, "enter")
    while ctl.game.pending[0] in ("reaction", "crouch"):
        press(view_app, "p")
    assert ctl.game.state_hash() != before_walk
    undone = []
    while ctl.game.state_hash() != before_walk:
        u = press(view_app, "control-z")
        assert u is not None and len(undone) < 3
        undone.append(u)
    assert undone[-1].startswith("move red-archer walk")
    hb = world.hitbox("red-archer")
    assert (hb.x, hb.y) == pytest.approx((10.0, 10.0), abs=1e-6)
    assert ctl.table.models["red-archer"].getY() == pytest.approx(10.0, abs=1e-6)
    assert ctl.game.pending == ("movement", "red-archer")


def test_save_and_load_the_log(view_app, ctl, tmp_path):
    steps = _play_opening(view_app, ctl)
    assert steps
    h = ctl.game.state_hash()
    path = ctl.save(str(tmp_path / "game.jsonl"))
    press(view_app, "control-z")
    assert ctl.game.state_hash() != h
    ctl.load(path)
    assert ctl.game.state_hash() == h
    assert (ctl.world.hitbox("red-archer").y) == pytest.approx(13.0, abs=0.05)


def test_live_verdict_and_f12_dispute(view_app, ctl, tmp_path):
    world = ctl.world
    click_model(view_app, world, "blue-ogre")            # select A (not an activation: blue is not active)
    assert ctl.selected == "blue-ogre"
    hb = world.hitbox("red-archer")
    view_app.dispatch("none", pixel=view_app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))   # hover B
    view_app.step()
    assert ctl.hovered == "red-archer"
    assert ctl.verdict is not None and ctl.verdict.viewer == "blue-ogre" and ctl.verdict.target == "red-archer"
    assert "blue-ogre -> red-archer" in ctl.hud.verdict.text
    folder, verdict = ctl.dispute()
    files = sorted(os.listdir(folder))
    assert files == ["eye.png", "overview.png", "verdict.json"]
    with open(os.path.join(folder, "verdict.json")) as fh:
        data = json.load(fh)
    assert data["viewer"] == "blue-ogre" and data["target"] == "red-archer"
    assert data["los"] == ctl.verdict.los and data["cover"] in ("none", "light", "heavy")
    assert data["scene_sha256"] == world.scene.sha256
    for f in ("eye.png", "overview.png"):
        assert os.path.getsize(os.path.join(folder, f)) > 10_000


def test_measure_tool(view_app, ctl):
    world = ctl.world
    press(view_app, "m")
    click_model(view_app, world, "red-archer")
    res = click_model(view_app, world, "blue-archer")
    assert res["distance"] == pytest.approx(world.distance("red-archer", "blue-archer"), abs=1e-9)
    assert res["distance"] == pytest.approx(12.0 - 2 * world.hitbox("red-archer").radius, abs=1e-3)
    press(view_app, "mouse1", pixel=view_app.project((4.0, 30.0, 0.0)))
    res = press(view_app, "mouse1", pixel=view_app.project((7.0, 34.0, 0.0)))
    assert res["distance"] == pytest.approx(5.0, abs=0.05) and res["height_difference"] == pytest.approx(0.0, abs=1e-3)


def test_a_bad_log_is_refused_and_the_game_kept(view_app, ctl, tmp_path):
    world = ctl.world
    press(view_app, menu_key(ctl, "order red first"))
    click_model(view_app, world, "red-archer")
    _pass_crouch(view_app, ctl)
    press(view_app, menu_key(ctl, "Move: Walk"))
    press(view_app, "mouse1", pixel=view_app.project((10.0, 13.0, 0.0)))
    press(view_app, "enter")
    h = ctl.game.state_hash()
    path = ctl.save(str(tmp_path / "game.jsonl"))
    lines = open(path, encoding="utf-8").read().splitlines()
    # tamper with a die: the replay must notice, and the game on the table stays
    for i, ln in enumerate(lines):
        if '"kind":"roll"' in ln.replace(" ", ""):
            lines[i] = ln.replace('"value":', '"value":1') if '"value":1' not in ln else ln.replace('"value":1', '"value":2')
            break
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert ctl.load(str(bad)) is None
    assert "cannot load" in ctl.message
    assert ctl.game.state_hash() == h
    assert world.hitbox("red-archer").y == pytest.approx(13.0, abs=0.05)
    (tmp_path / "torn.jsonl").write_text("not json at all\n", encoding="utf-8")
    assert ctl.load(str(tmp_path / "torn.jsonl")) is None
    assert ctl.game.state_hash() == h


def test_attract_mode_plays_renders_and_loops(view_app, tmp_path):
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    world = load_world(SCENE)
    start = {m: (world.hitbox(m).x, world.hitbox(m).y) for m in world.model_ids()}
    ctl = AttractController(view_app, world, game_factory(world, "eldfall"), bots_factory("eldfall", "random"),
                            seed=5, out_dir=str(tmp_path))
    try:
        frames = ctl.run_frames(2, str(tmp_path / "frames"), decisions_per_frame=2)
        assert len(frames) == 2 and all(os.path.getsize(f) > 10_000 for f in frames)
        kinds = [e.kind for e in ctl.game.events]
        assert kinds.count("action") == 4                 # the bots decided, one action per decision
        assert ctl.hud.banner.text                        # the HUD explains the step
        old = ctl.game
        world.move_model("blue-ogre", 20.0, 30.0)          # as a game would have left it
        world.remove_model("red-champion")                 # a model killed and removed
        assert ctl.next_game() is not None                # the loop: a new game, the next seed
        assert ctl.game is not old and ctl.game.seed == 6
        for m, (x, y) in start.items():
            assert (world.hitbox(m).x, world.hitbox(m).y) == pytest.approx((x, y))
    finally:
        ctl.close()


def test_hotseat_reaction_by_the_reactive_player(view_app, ctl):
    from engine.view.play import CAN_REACT
    world, game = ctl.world, ctl.game
    press(view_app, menu_key(ctl, "order red second"))          # blue plays first
    assert game.pending == ("tactical", "blue")
    click_model(view_app, world, "blue-archer")
    _pass_crouch(view_app, ctl)
    press(view_app, menu_key(ctl, "Move: Walk"))
    press(view_app, "mouse1", pixel=view_app.project((10.0, 20.0, 0.0)))
    press(view_app, "enter")
    assert game.pending == ("reaction", "red")
    # the reactive side's eligible models are ringed; the reactive player clicks one
    assert ctl.table.highlights.get("red-archer") == CAN_REACT
    click_model(view_app, world, "red-archer")
    assert ctl.selected == "red-archer"
    labels = [label for label, _ in ctl.menu]
    assert any(label.startswith("Ranged Attack (Longbow)") for label in labels) and "Pass: no (more) Reactions of red (P)" in labels
    assert press(view_app, menu_key(ctl, "Ranged Attack")) == "target"
    events = click_model(view_app, world, "blue-archer")
    decl = next(e for e in events if e.kind == "declare")
    assert decl.data["model"] == "red-archer" and decl.data["role"] == "reactive"
    assert "blue-archer" in decl.data["action"]
    # red passes its other reactions: the active model's Action step lists its actions and the
    # active model is selected (review 16: the reactor stayed selected, its profile and live LoS
    # on screen while the active model declared; this test pinned that only to see the menu
    # follow the active model, which tests/test_review16_view2.py now checks with the reactor
    # selected by a click)
    while game.pending[0] == "reaction":
        press(view_app, menu_key(ctl, "Pass: no (more) Reactions"))
    assert game.pending == ("action", "blue-archer") and ctl.selected == "blue-archer"
    assert ctl.menu and ctl.hud.menu.text.startswith("Legal for blue-archer:")


def test_the_crouch_window_reads_as_words_and_a_choice_crouches_the_model(view_app, ctl):
    app, game = view_app, ctl.game
    press(app, menu_key(ctl, "order red first"))
    click_model(app, ctl.world, "red-archer")
    assert game.pending[0] == "crouch" and game.pending[1] == "blue"
    # the decision is blue's: the menu and the status say so, not the red model clicked
    assert ctl.hud.menu.text.startswith("Legal for blue now:")
    assert "Crouched as a Reaction: blue may crouch" in ctl.hud.status.text
    labels = [label for label, _ in ctl.menu]
    assert any(m.startswith("Pass: no Crouched change now") for m in labels), labels
    entry = next(m for m in labels if m.startswith("Crouched as a Reaction: crouch ") and "," not in m)
    who = entry.rsplit(" ", 1)[1]
    press(app, menu_key(ctl, entry))
    assert "Crouched" in game.models[who].states
    assert game.pending == ("movement", "red-archer")      # one change per window: it closes
