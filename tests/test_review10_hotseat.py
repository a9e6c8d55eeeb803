"""Review 10, the hotseat window as a player at home meets it.

* Legends of Norova's turn menu showed raw action text ("throw ranger power_tonic
  knight", "potion ranger power_tonic ranger", "equip ranger main=dagger off=-",
  "end ranger") over two pages, the equipment before the turn's end: every entry
  is in words, an action offered on several models is one entry whose target is
  clicked, and the common choices come first.
* A waypoint clicked on the side of a wall took the height the ray met the face
  (halfway up): the waypoint is where a base stands, at the foot of the face on
  the clicker's side (a climb: on its top).
"""
from __future__ import annotations

import pytest

pytest.importorskip("panda3d")

from view_fixtures import all_menu_entries, click_model, menu_key, open_scene, press  # noqa: E402


@pytest.fixture()
def arena(view_app, tmp_path):
    c = open_scene(view_app, tmp_path, "scenes/norova-arena.yaml", "norova")
    yield c
    c.close()


def _turn_of(c, mid: str) -> None:
    """End turns until ``mid`` is the active character."""
    from rules.norova.actions import EndTurn
    for _ in range(12):
        if c.active_model() == mid:
            return
        c.apply(EndTurn(c.active_model()))
    pytest.fail(f"{mid} never became active")


def test_norova_turn_menu_is_in_words_common_choices_first(view_app, arena):
    c = arena
    assert c.active_model() == "ranger"
    labels = all_menu_entries(c)
    raw = {str(a) for a in c.game.legal_actions()}
    assert not [m for m in labels if m in raw or "_" in m or "=" in m or " ranger " in f" {m} "], labels
    for words in ("end the turn", "wait: act later this round", "drink the power tonic (+5 Power)",
                  "throw the power tonic (+5 Power) to knight", "equip the dagger (main hand)",
                  "put away the shortbow (fight unarmed)"):
        assert words in labels, labels
    # the first page: the moves, the turn's end and the potion; the change of weapons after
    page = [label for label, _ in c.menu]
    assert page[-1].startswith("more ...")
    for words in ("Move: Walk (click the path)", "end the turn", "drink the power tonic (+5 Power)"):
        assert words in page, page
    assert labels.index("end the turn") < labels.index("equip the dagger (main hand)")
    # the words do what they say
    n0 = len(c.game.events)
    press(view_app, menu_key(c, "drink the power tonic"))
    assert [e.data["item"] for e in c.game.events[n0:] if e.kind == "potion"] == ["power_tonic"], c.message
    assert "drink the power tonic (+5 Power)" not in all_menu_entries(c)         # carried one: gone


def test_norova_potion_and_spell_on_several_models_are_clicked(view_app, arena):
    c = arena
    _turn_of(c, "cleric")
    labels = all_menu_entries(c)
    assert "throw the healing potion (+10 Vitality) -> click an ally (knight, pyromancer)" in labels, labels
    assert "cast mend -> click a target (cleric, knight, pyromancer)" in labels, labels
    assert "cast radiant wave (3x3 area around cleric)" in labels, labels
    assert "use second wind (+4 Power)" in labels, labels
    assert press(view_app, menu_key(c, "cast mend -> click")) == "target"
    n0 = len(c.game.events)
    click_model(view_app, c.world, "cleric")                  # on itself
    done = [str(e.data.get("action")) for e in c.game.events[n0:] if e.kind == "action"]
    assert done == ["cast cleric mend cleric"], c.message
    assert press(view_app, menu_key(c, "throw the healing potion")) == "target"
    n0 = len(c.game.events)
    click_model(view_app, c.world, "knight")
    done = [str(e.data.get("action")) for e in c.game.events[n0:] if e.kind == "action"]
    assert done == ["throw cleric healing_potion knight"], c.message


def _click_face(view_app, c, mode: str, at, eye, face, piece):
    """The ranger moved to ``at`` starts a ``mode`` move; a click on ``face`` (a point
    on the side of ``piece``) seen from ``eye``. Returns where the ray meets it."""
    world = c.world
    world.move_model("ranger", at[0], at[1], 0.0)
    c._invalidate()
    c.camera.look(eye, face)
    view_app.step()
    px = view_app.project(face)
    from engine.view.picking import pick_ray
    origin, direction = pick_ray(view_app, view_app.pixel_to_film(*px))
    dist, tri = world.rays.first_hit(origin[None], direction[None])    # past the models
    hit = origin + direction * float(dist[0])
    assert world.pieces[world.tri_piece[int(tri[0])]].id == piece
    assert hit == pytest.approx(face, abs=0.05)
    assert press(view_app, menu_key(c, f"Move: {mode.title()}")) == "move"
    press(view_app, "mouse1", pixel=px)
    return hit


def test_a_waypoint_clicked_on_a_wall_side_stands_at_its_foot(view_app, arena):
    c = arena
    # the ruined wall: y 15.75 to 16.25, 2.5" high; a click halfway up its near side
    hit = _click_face(view_app, c, "walk", (12.0, 13.0), (12.0, 7.0, 6.0), (12.3, 15.75, 1.25), "ruined-wall")
    r = c.world.hitbox("ranger").radius
    x, y, z = c.waypoints[-1]
    assert z == pytest.approx(0.0, abs=1e-6)                  # the ground, not 1.25" up the wall
    assert x == pytest.approx(hit[0], abs=1e-3)
    assert 15.75 - y == pytest.approx(r + 0.01, abs=1e-3)    # the base's edge against the wall
    action, reason = c.preview
    assert reason is None, c.message
    n0 = len(c.game.events)
    press(view_app, "enter")
    assert len(c.game.events) > n0, c.message
    hb = c.world.hitbox("ranger")
    assert (hb.x, hb.y, hb.z) == pytest.approx((x, y, 0.0), abs=1e-3)


def test_a_climb_clicked_on_a_wall_side_ends_on_its_top(view_app, arena):
    c = arena
    # the climbable rock: x 20 to 22, y 5 to 7, 1.5" high; a click halfway up its near side
    hit = _click_face(view_app, c, "climb", (21.3, 4.0), (21.0, -3.0, 5.0), (21.3, 5.0, 0.75), "rock")
    x, y, z = c.waypoints[-1]
    assert z == pytest.approx(1.5, abs=1e-6)
    assert 5.0 < y < 5.05 and x == pytest.approx(hit[0], abs=1e-3)
    action, reason = c.preview
    assert reason is None, c.message


def test_a_crawls_shading_is_what_the_rules_take(view_app, arena):
    """A crawling (low) character's Crouched hitbox is 0.14" high; the rules judge its route
    low but stepping up as a standing one (``judged_pose``: Crouched and Crawling, a crawl
    steps up 1" as a walk does), and so does the shading (``motion.step_height_of``):
    the 1" low wall is crossed, and every end shaded, the wall's far side included, is one
    the rules take. (The shading once stepped up the game's 1" while the rules' route
    check stepped up only the hitbox's 0.14", and refused the far side.)"""
    from rules.norova.actions import Move
    c, game = arena, arena.game
    f = game.fighters["ranger"]
    c.world.move_model("ranger", 12.0, 8.0, 0.0)              # the low wall: y 8.75 to 9.25, 1" high
    f.low = True
    game._sync_states(f)
    c._invalidate()
    grid = c.reach_grid("ranger", "crawl")
    pts = grid.points()
    assert len(pts) > 100                                    # the crawl's own side is shaded
    beyond = [q for q in pts.tolist() if q[1] > 9.25 + f.radius]
    assert beyond                                            # over the low wall
    refused = []
    for p in pts[::7].tolist() + beyond[::3]:
        end = tuple(float(v) for v in p)
        if game.why_illegal(Move("ranger", "crawl", (end,))) is None:
            continue
        route = tuple(tuple(float(v) for v in q) for q in grid.shortest_path(end)[1:])
        why = game.why_illegal(Move("ranger", "crawl", route))
        if why:
            refused.append((end, why))
    assert not refused, refused[:3]
    assert "Crouched" in c.world.hitbox("ranger").states    # the pose is put back


def test_norova_status_panel_names_the_game_and_round(view_app, arena):
    """The hotseat status panel's first line was the summary's heading, "Round 1:" (a
    colon with nothing after it); it is the round and how the fight stands, as in the
    attract mode."""
    first = arena.hud.status.text.splitlines()[0]
    assert first == "Legends of Norova - round 1 | Standing: foes 5/5, party 4/4 (even)", arena.hud.status.text
    assert "Standing:" not in arena.hud.profile.text


def test_a_flying_model_lands_from_the_menu(view_app, tmp_path):
    """The rules offer a Flying model to land at the start or the end of its Movement Step
    (``Move ... land=``); the menu showed the landing Idle as a second "Move: Idle" and
    offered no landing walk. Each reads as what it does; "Land, then Walk" shades and
    previews the walk from where the model lands, on foot."""
    from test_review10_flying import SCENE      # red-b Flying 5" over the ground
    from view_fixtures import hotseat_activate
    c = open_scene(view_app, tmp_path, SCENE)
    world, game = c.world, c.game
    try:
        hotseat_activate(view_app, c, "red-b", "order blue second")
        assert game.pending == ("movement", "red-b")
        labels = [label for label, _ in c.menu]
        for want in ("Move: Idle", "Move: Idle and land", "Move: Land, then Walk (click the path)",
                     "Move: Walk, then land (click the path)"):
            assert want in labels, labels
        assert press(view_app, menu_key(c, "Move: Land, then Walk")) == "move"
        assert c.move_land == "start"
        grid = c.reach_grid("red-b", "walk")
        assert grid.contains(22.0, 10.0, 0.0)                 # from the ground it lands on
        hb = world.hitbox("red-b")
        assert hb.z == pytest.approx(5.0) and "Flying" in hb.states       # put back
        n0 = len(game.events)
        press(view_app, "mouse1", pixel=view_app.project((22.0, 10.0, 0.0)))
        action, reason = c.preview
        assert reason is None, c.message
        assert action.land == "start"
        press(view_app, "enter")
        assert len(game.events) > n0, c.message
        hb = world.hitbox("red-b")
        assert "Flying" not in game.models["red-b"].states
        assert (hb.x, hb.y, hb.z) == pytest.approx((22.0, 10.0, 0.0), abs=0.05)
    finally:
        c.close()
