"""Tokens and summoned creatures in the 3D view, offscreen.

Tokens are drawn as 25 mm discs on the surface in their owner's colour
(hidden: muted, "?"; revealed: full colour and their name); a pickup makes
the disc go, Ctrl+Z brings it back, a saved log loads to the same drawing; a
Perceive target is clicked on its disc; a creature summoned by a Ritual
appears on the table and goes again on undo. Pictures are compared by the
colour of the pixels where the engine's points project."""
from __future__ import annotations

import os

import numpy as np
import pytest

from view_fixtures import press, stage_table, menu_key, open_controller  # noqa: E402

pytest.importorskip("panda3d")

RITUAL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scenes", "ritual.yaml")


def _scene(tmp_path, name="near.yaml") -> str:
    """scenes/ritual.yaml with blue's cache in front of red-archer (in its
    Awareness and sight), the revealed relic in Base Contact with
    red-champion, and a small coin on top of the 1" low wall."""
    text = open(RITUAL, encoding="utf-8").read()
    new = (text.replace("item: Healing Draught, at: [12, 18.2]}", "item: Healing Draught, at: [16, 7.5]}")
               .replace("at: [4, 12], hidden: false}",
                        "at: [8, 5.12], hidden: false}\n  - {id: wall-coin, kind: item, side: red, "
                        "item: Coin, at: [13, 17], base_mm: 10}"))
    assert new.count("[16, 7.5]") == 1 and new.count("[8, 5.12]") == 1
    p = tmp_path / name
    p.write_text(new, encoding="utf-8")
    return str(p)


def _patch(frame, px, radius=2):
    x, y = int(round(px[0])), int(round(px[1]))
    return frame[max(0, y - radius):y + radius + 1, max(0, x - radius):x + radius + 1].reshape(-1, 3).astype(float)


def _colour(app, point, radius=2):
    return _patch(app.frame_array(), app.project(point), radius).mean(axis=0)


def _sat(c):
    c = np.asarray(c, float)
    return (c.max() - c.min()) / max(c.max(), 1.0)


def _top(token_layer, tid):
    from engine.view.tokens import THICKNESS
    x, y, z = token_layer.looks[tid].at
    return (x, y, z + THICKNESS)


def _is_red(c):
    r, g, b = c
    return r > 110 and r > g + 60 and r > b + 60


def _is_blue(c):
    r, g, b = c
    return b > 110 and b > r + 60 and b > g + 20


def _is_table(c):
    r, g, b = c
    return g >= r and g >= b and 60 < g < 220 and _sat(c) < 0.35


# ---------------------------------------------------------------- the scene's tokens, no game
@pytest.fixture()
def scene_table(view_app, tmp_path):
    from tools.loading import load_world
    world = load_world(_scene(tmp_path))
    table, _ = stage_table(view_app, world)
    yield view_app, world, table
    table.root.removeNode()
    view_app.table_scene = None


def test_scene_tokens_are_discs_on_the_surface_in_side_colours(scene_table):
    from engine.view.tokens import THICKNESS, muted
    app, world, table = scene_table
    layer = table.tokens
    assert sorted(layer.ids()) == ["blue-cache", "old-relic", "red-snare", "wall-coin"]
    # 25 mm discs (the coin: 10 mm), lying on the surface under their centre
    assert layer.looks["old-relic"].radius == pytest.approx(25 / 25.4 / 2)
    assert layer.looks["wall-coin"].radius == pytest.approx(10 / 25.4 / 2)
    assert layer.nodes["red-snare"].getZ() == pytest.approx(0.0, abs=1e-6)
    assert layer.nodes["wall-coin"].getZ() == pytest.approx(1.0, abs=1e-3)     # on top of the low wall
    lo, hi = layer.nodes["old-relic"].getTightBounds()
    assert hi.x - lo.x == pytest.approx(25 / 25.4, abs=0.01) and hi.z - lo.z == pytest.approx(THICKNESS, abs=0.01)
    # labels: hidden "?", revealed kind and name
    assert layer.label_text("red-snare") == "?"
    assert layer.label_text("blue-cache") == "?"
    assert layer.label_text("old-relic") == "Item: Old Relic"
    # a hidden token's colour is its side's, muted
    assert tuple(layer.nodes["red-snare"].find("disc").getColor()) == pytest.approx(muted(table.side_colour["red"]), abs=2e-3)
    assert tuple(layer.nodes["old-relic"].find("disc").getColor()) == pytest.approx(table.side_colour["blue"], abs=2e-3)
    table.labels_root.hide()                  # labels would cover the discs seen from above
    app.step(2)
    relic = _colour(app, _top(layer, "old-relic"), radius=1)
    assert _is_blue(relic), relic
    snare = _colour(app, _top(layer, "red-snare"), radius=1)
    r, g, b = snare
    assert r > g + 15 and r > b + 15, snare                      # still red...
    assert _sat(snare) < _sat(relic) - 0.15, (snare, relic)       # ...but muted
    coin = _colour(app, _top(layer, "wall-coin"), radius=1)
    wall = _colour(app, (10.5, 17.0, 1.0), radius=1)              # the wall top beside it: stone grey
    assert _sat(wall) < 0.25 and coin[0] > coin[2] + 20 and _sat(coin) > _sat(wall) + 0.1, (coin, wall)
    # the table between tokens is the table
    assert _is_table(_colour(app, (6.0, 12.0, 0.0))), _colour(app, (6.0, 12.0, 0.0))
    # revealed in place: the same token in full colour, with its name
    toks = [dict(t.to_dict(), hidden=False) if t.id == "red-snare" else t for t in world.scene.tokens]
    assert layer.set(toks) is True
    assert layer.label_text("red-snare") == "Spell: Rune Snare"
    app.step()
    assert _is_red(_colour(app, _top(layer, "red-snare"), radius=1))
    assert layer.set(toks) is False           # nothing changed: nothing rebuilt
    table.labels_root.show()


def test_picking_a_token_disc(scene_table):
    from engine.view.picking import pick_token
    app, world, table = scene_table
    app.step()
    layer = table.tokens
    for tid in layer.ids():
        assert pick_token(app, world, layer, pixel=app.project(_top(layer, tid))) == tid, tid
    # beside a disc (2" off): the table, no token
    x, y, z = layer.looks["red-snare"].at
    assert pick_token(app, world, layer, pixel=app.project((x + 2.0, y, z))) is None
    # a model's top is the model, not a token under it
    hb = world.hitbox("red-champion")
    assert pick_token(app, world, layer, pixel=app.project((hb.x, hb.y - 0.2, hb.z + hb.height))) is None


def test_the_table_picture_draws_the_tokens(view_app, tmp_path):
    from panda3d.core import PNMImage
    from engine.view.pictures import table_picture
    from engine.view.tokens import THICKNESS
    from tools.loading import load_world
    world = load_world(RITUAL)
    view_app.clear_table()
    view_app.table_scene = None
    path = table_picture(world, str(tmp_path / "tokens.png"), top=True)
    img = PNMImage()
    assert img.read(path)
    table = view_app.table_scene
    assert table.world is world and sorted(table.tokens.ids()) == ["blue-cache", "old-relic", "red-snare"]
    view_app.table_camera.top_view()               # the picture's camera (the stage put the old one back)
    look = table.tokens.looks["old-relic"]
    x, y, z = look.at

    def rgb(p):
        px = view_app.project(p)
        return np.array(img.getXel(int(round(px[0])), int(round(px[1])))) * 255

    rim = rgb((x - 0.87 * look.radius, y, z + THICKNESS))
    assert rim.min() > 170, rim                    # the light rim of a revealed token
    assert _is_table(rgb((x - 2.0, y, 0.0)))       # beside it: the table
    # the picture of a game's tokens: the relic picked up, the snare revealed
    toks = [dict(t.to_dict(), removed=True) if t.id == "old-relic" else
            dict(t.to_dict(), hidden=False) if t.id == "red-snare" else t for t in world.scene.tokens]
    path = table_picture(world, str(tmp_path / "after.png"), top=True, tokens=toks)
    assert img.read(path)
    view_app.table_camera.top_view()
    assert _is_table(rgb((x - 0.87 * look.radius, y, z + THICKNESS)))
    assert sorted(table.tokens.ids()) == ["blue-cache", "red-snare"]
    assert table.tokens.label_text("red-snare") == "Spell: Rune Snare"
    table.root.removeNode()
    view_app.table_scene = None


# ---------------------------------------------------------------- play
@pytest.fixture()
def ctl(view_app, tmp_path):
    from tools.cmd_view import game_factory, load_world
    world = load_world(_scene(tmp_path))
    game, geo = game_factory(world, "eldfall")(4)
    c = open_controller(view_app, world, game, geo, tmp_path)
    c.table.labels_root.hide()
    view_app.step()
    yield c
    c.table.labels_root.show()
    c.close()


def _to_action(app, ctl, model):
    """red first; ``model`` activates (clicked), stays idle; nobody reacts."""
    g = ctl.game
    if g.pending[0] == "order":              # red plays first, whoever won the initiative
        press(app, menu_key(ctl, "order red first" if g.pending[1] == "red" else "order blue second"))
    hb = ctl.world.hitbox(model)
    press(app, "mouse1", pixel=app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))
    while g.pending[0] == "crouch":
        press(app, "p")
    assert g.pending == ("movement", model)
    press(app, menu_key(ctl, "Move: Idle"))
    while g.pending[0] in ("reaction", "crouch"):
        press(app, "p")
    assert g.pending == ("action", model)


def test_a_picked_up_token_disappears_and_undo_and_load_bring_the_drawing_back(view_app, ctl, tmp_path):
    app, layer = view_app, ctl.table.tokens
    spot = _top(layer, "old-relic")
    assert _is_blue(_colour(app, spot, radius=1))
    _to_action(app, ctl, "red-champion")
    # one menu entry per token to Interact with (the cache is hidden: not offered)
    entries = [label for label, _ in ctl.menu if label.startswith("Interact")]
    assert entries == ["Interact: old-relic"], entries
    events = press(app, menu_key(ctl, "Interact: old-relic"))
    assert [e.data["event"] for e in events if e.kind == "token"] == ["picked up"]
    assert ctl.game.tokens["old-relic"].removed
    assert "old-relic" not in layer.ids() and "old-relic" not in layer.label_nodes
    assert layer.root.find("token-old-relic").isEmpty()
    app.step()
    assert _is_table(_colour(app, spot, radius=1)), _colour(app, spot, radius=1)
    saved = ctl.save(str(tmp_path / "picked.jsonl"))
    assert saved
    # Ctrl+Z: the token is back on the field, drawn as before
    press(app, "control-z")
    assert not ctl.game.tokens["old-relic"].removed and "old-relic" in layer.ids()
    app.step()
    assert _is_blue(_colour(app, spot, radius=1))
    # Ctrl+O: the saved log, in which it was picked up
    assert ctl.load(str(tmp_path / "picked.jsonl")) == str(tmp_path / "picked.jsonl")
    assert "old-relic" not in layer.ids()
    app.step()
    assert _is_table(_colour(app, spot, radius=1))


def test_perceive_by_clicking_the_hidden_disc_reveals_it(view_app, ctl):
    app, layer = view_app, ctl.table.tokens
    spot = _top(layer, "blue-cache")
    hidden = _colour(app, spot, radius=1)
    assert hidden[2] > hidden[0] + 30 and hidden[2] > hidden[1] + 20, hidden    # bluish (muted: below)
    assert layer.label_text("blue-cache") == "?"
    _to_action(app, ctl, "red-archer")
    assert press(app, menu_key(ctl, "Perceive")) == "target"
    assert "blue-cache" in ctl.message
    assert not layer.nodes["blue-cache"].find("ring").isEmpty()          # a legal target: ringed
    # a click beside it is no target; on the disc it is
    x, y, z = spot
    press(app, "mouse1", pixel=app.project((x + 3.0, y, z)))
    assert ctl.state == "target" and not ctl.game.tokens["blue-cache"].removed
    events = press(app, "mouse1", pixel=app.project(spot))
    check = [e.data for e in events if e.kind == "check" and e.data.get("check") == "Perceive"]
    assert check and check[0]["target"] == "blue-cache" and check[0]["die"]["success"], check
    assert not ctl.game.tokens["blue-cache"].hidden
    assert layer.label_text("blue-cache") == "Item: Healing Draught"
    assert layer.nodes["blue-cache"].find("ring").isEmpty()
    app.step()
    shown = _colour(app, spot, radius=1)
    assert _is_blue(shown) and _sat(shown) > _sat(hidden) + 0.15, (shown, hidden)
    # undo: hidden again
    press(app, "control-z")
    assert layer.label_text("blue-cache") == "?" and ctl.game.tokens["blue-cache"].hidden
    app.step()
    assert _colour(app, spot, radius=1) == pytest.approx(hidden, abs=6)


def test_clicking_a_token_says_what_it_is(view_app, ctl):
    app, layer = view_app, ctl.table.tokens
    _to_action(app, ctl, "red-champion")
    out = press(app, "mouse1", pixel=app.project(_top(layer, "old-relic")))
    assert out == ("token", "old-relic")
    assert ctl.message.startswith("blue item token old-relic (Old Relic)")
    assert "(Interact: old-relic)" in ctl.message
    out = press(app, "mouse1", pixel=app.project(_top(layer, "blue-cache")))
    assert out == ("token", "blue-cache") and ctl.message.startswith("hidden blue item token blue-cache")
    assert "Healing Draught" not in ctl.message


def test_a_summoned_creature_appears_and_goes_on_undo(view_app, ctl):
    from rules.eldfall.actions import Declare
    app, table = view_app, ctl.table
    assert "ritual-wolf" not in table.models
    _to_action(app, ctl, "red-summoner")
    events = ctl.apply(Declare("red-summoner", "Ritual", spell="Call the Wolf"))
    assert [e.data["model"] for e in events if e.kind == "summon"] == ["ritual-wolf"]
    assert "ritual-wolf" in table.models and "ritual-wolf" in table.label_nodes
    hb = ctl.world.hitbox("ritual-wolf")
    assert tuple(table.models["ritual-wolf"].getPos()) == pytest.approx((hb.x, hb.y, hb.z), abs=1e-6)
    assert table.colour_of("ritual-wolf") == table.side_colour["red"]
    app.step()
    f = np.radians(hb.facing)
    top = (hb.x - 0.55 * hb.radius * np.cos(f), hb.y - 0.55 * hb.radius * np.sin(f), hb.z + hb.height)
    assert _is_red(_colour(app, top)), _colour(app, top)
    # a selected model that leaves the table is forgotten (no stale HUD profile)
    ctl.select("ritual-wolf")
    ctl.hover_trail = ["blue-warden", "ritual-wolf"]
    assert ctl.undo() == "declare red-summoner Ritual 'spell=Call the Wolf'"
    assert "ritual-wolf" not in table.models and "ritual-wolf" not in ctl.world.model_ids()
    assert ctl.game.models["ritual-wolf"].reserve and ctl.game.pending == ("action", "red-summoner")
    assert ctl.selected == "red-summoner" and ctl.hover_trail == ["blue-warden"]
    app.step()
    assert not _is_red(_colour(app, top))


def test_a_bot_game_keeps_the_drawing_in_step_with_the_game(view_app):
    """Random bots on scenes/ritual.yaml (seed 3: a token revealed, then a
    spell token destroyed): after every decision the discs drawn are the
    tokens on the field, hidden exactly when the game says, and the models
    drawn are the World's."""
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    world = load_world(RITUAL)
    ctl = AttractController(view_app, world, game_factory(world, "eldfall"), bots_factory("eldfall", "random"),
                            seed=3, max_games=1)
    seen = set()
    try:
        for _ in range(600):
            if ctl.game.is_over:
                break
            for e in ctl.bot_step() or ():
                if e.kind in ("token", "summon"):
                    seen.add((e.kind, e.data.get("event")))
            toks = ctl.game.tokens
            assert sorted(ctl.table.tokens.ids()) == sorted(t.id for t in toks.values() if not t.removed)
            assert all(ctl.table.tokens.looks[t].hidden == toks[t].hidden for t in ctl.table.tokens.ids())
            assert all(ctl.table.tokens.label_text(t) == ("?" if toks[t].hidden else ctl.table.tokens.looks[t].label)
                       for t in ctl.table.tokens.ids())
            assert sorted(ctl.table.models) == sorted(world.model_ids())
        assert ctl.game.is_over
        assert {("token", "revealed"), ("token", "destroyed")} <= seen, seen
    finally:
        ctl.close()
