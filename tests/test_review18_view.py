"""Review 18, the 3D view as its users see it.

* Out of the fight, unsaid: a Legends of Norova character that is dying, stable
  (unconscious), dead or knocked down is drawn as its base alone (with the standing
  hitbox's ghost), exactly as one that crawls low; an Eldfall model Incapacitated
  stands as any other. Late in a game half the table was discs labelled with bare
  names: the big screen said "Standing: foes 2/5" and nobody could tell which. The
  label now says it: "hexer (dying)", "knight (down)", "blue-guard (Dead)".
* The hover verdict and F12 judged on the default sight settings and Eldfall's front
  half-space, whatever the game: with ``eldfall view --settings FILE`` the screen
  said "LoS yes" where the game's rules said no; in Legends of Norova (sight all
  round) a viewer turned away read "LoS no". They ask as the game's rules ask now.
* A Legends of Norova route's preview named Eldfall's Attacks of Opportunity (none
  there): a walk into the ghoul's reach said nothing and Enter drew its blow. The
  route's label and red X now come from the Norova rules.
* A click on a model's name label went through it to the ground behind: nothing
  picked (or "click a highlighted model"). It picks the label's model now, where the
  click would not be a point of the ground (a waypoint, a template, a Knockback).
"""
from __future__ import annotations

import pytest

pytest.importorskip("panda3d")

from view_fixtures import open_scene  # noqa: E402


def _text(ctl, mid: str) -> str:
    return ctl.table.label_nodes[mid].node().getText()


# ------------------------------------------------------------ 1. out of the fight
@pytest.fixture
def norova(view_app, tmp_path):
    c = open_scene(view_app, tmp_path, "scenes/norova-arena.yaml", "norova", seed=4)
    yield c
    c.close()


def test_a_norova_characters_label_says_it_is_dying_stable_dead_or_down(view_app, norova):
    ctl, game = norova, norova.game
    assert _text(ctl, "hexer") == "hexer"
    for mid, status, prone, words in (("hexer", "dying", True, "hexer (dying)"),
                                      ("brute", "stable", True, "brute (stable)"),
                                      ("harpy", "dead", False, "harpy (dead)"),
                                      ("knight", "active", True, "knight (down)")):
        f = game.fighters[mid]
        f.status, f.prone = status, prone
        game._sync_states(f)                 # as the rules put it on the table
    ctl.world_sync()
    view_app.step()
    assert _text(ctl, "hexer") == "hexer (dying)"
    assert _text(ctl, "brute") == "brute (stable)"
    assert _text(ctl, "harpy") == "harpy (dead)"
    assert _text(ctl, "knight") == "knight (down)"
    assert _text(ctl, "ranger") == "ranger"
    # a crawling character (low, standing status) is drawn low as the dying one is,
    # but is in the fight: its label is its name
    f = game.fighters["ranger"]
    f.low = True
    game._sync_states(f)
    assert "Crouched" in ctl.world.hitbox("ranger").states
    ctl.world_sync()
    assert _text(ctl, "ranger") == "ranger"
    # back on its feet (healed): the word goes
    f = game.fighters["hexer"]
    f.status, f.prone = "active", False
    game._sync_states(f)
    ctl.world_sync()
    assert _text(ctl, "hexer") == "hexer"


def test_the_attract_screen_names_the_fallen_in_its_labels(view_app, tmp_path):
    """The event screen: a Norova game played by the bots until someone is out of the
    fight; every such character's label says so, in the frame as drawn."""
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    from view_fixtures import ROOT
    import os
    world = load_world(os.path.join(ROOT, "scenes/norova-arena.yaml"))
    ctl = AttractController(view_app, world, game_factory(world, "norova"), bots_factory("norova", "greedy"),
                            seed=4, out_dir=str(tmp_path))
    try:
        for i in range(120):
            ctl.run_frames(1, str(tmp_path / "frames"), prefix=f"f{i}")
            out = {m: f.status for m, f in ctl.game.fighters.items() if f.status != "active"}
            if out:
                break
        assert out, "nobody fell in 120 decisions"
        for mid, status in out.items():
            assert _text(ctl, mid) == f"{mid} ({status})", (mid, status, _text(ctl, mid))
    finally:
        ctl.close()


def test_an_eldfall_model_dead_or_incapacitated_says_so(view_app, tmp_path):
    c = open_scene(view_app, tmp_path, "scenes/skirmish.yaml")
    try:
        c.world.set_states("blue-guard", ("Dead",))
        c.world.set_states("blue-ogre", ("Incapacitated",))
        c.world.set_states("blue-warden", ("Crouched",))
        c.world_sync()
        view_app.step()
        assert _text(c, "blue-guard") == "blue-guard (Dead)"
        assert _text(c, "blue-ogre") == "blue-ogre (Incapacitated)"
        assert _text(c, "blue-warden") == "blue-warden"     # Crouched: drawn low, in the fight
        c.world.set_states("blue-ogre", ())
        c.world_sync()
        assert _text(c, "blue-ogre") == "blue-ogre"
    finally:
        c.close()


# ------------------------------------------------------------ 2. the live verdict on the game's terms
def _hover(view_app, ctl, mid):
    """The pointer on ``mid``'s hitbox, a frame drawn (the live verdict follows)."""
    hb = ctl.world.hitbox(mid)
    view_app.pointer = view_app.pixel_to_film(*view_app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))
    view_app.step()
    view_app.step()


def test_the_live_verdict_and_f12_judge_on_the_games_sight_settings(view_app, tmp_path):
    """``eldfall view --settings FILE``: the game is played on those settings, and the
    hover verdict and F12's pictures said what the default settings would (here: a
    minimum visible area no target reaches; the rules say no LoS, the screen said
    "LoS yes, 100% visible")."""
    import json
    import os

    from engine.sight_settings import default_settings
    from tools.cmd_view import game_factory, load_world
    from tools.gameplay import TableSettings
    from view_fixtures import ROOT, open_controller
    world = load_world(os.path.join(ROOT, "scenes/skirmish.yaml"))
    strict = default_settings().replace(min_visible_area_mm2=1e9)
    game, geo = game_factory(world, "eldfall", table=TableSettings(sight=strict))(3)
    c = open_controller(view_app, world, game, geo, tmp_path)
    try:
        assert geo.sight("red-archer", "blue-marksman").los is False        # the rules' verdict
        c.select("red-archer")
        _hover(view_app, c, "blue-marksman")
        assert c.pair() == ("red-archer", "blue-marksman")
        assert c.verdict is not None and c.verdict.los is False, c.verdict
        assert c.hud.verdict.text.startswith("red-archer -> blue-marksman: LoS NO"), c.hud.verdict.text
        folder, _ = c.dispute("red-archer", "blue-marksman")
        with open(os.path.join(folder, "verdict.json"), encoding="utf-8") as fh:
            saved = json.load(fh)
        assert saved["los"] is False, saved.get("los")
    finally:
        c.close()


def test_a_norova_hover_verdict_sees_all_round_as_its_rules_do(view_app, norova):
    """Legends of Norova asks the table for sight all round (its front arc is its
    own, for attacks); the hover verdict used Eldfall's front half-space: a knight
    turned away from the ghoul read "LoS no" (behind the front arc), a red band on the
    ghoul, where the rules see it."""
    ctl, game = norova, norova.game
    hb = ctl.world.hitbox("knight")
    ctl.world.move_model("knight", hb.x, hb.y, hb.z, facing=270.0)      # its back to the foes
    ctl.world_sync()
    assert game._sight("knight", "ghoul").los is True
    ctl.select("knight")
    _hover(view_app, ctl, "ghoul")
    assert ctl.pair() == ("knight", "ghoul")
    assert ctl.verdict is not None and ctl.verdict.los is True, ctl.hud.verdict.text
    assert "LoS yes" in ctl.hud.verdict.text, ctl.hud.verdict.text


# ------------------------------------------------------------ 3. a Norova route's Attacks of Opportunity
def test_a_norova_routes_preview_names_the_attack_of_opportunity_it_will_draw(view_app, tmp_path):
    """The route's label and its red X came from Eldfall's path check: a Norova walk
    into the ghoul's reach, in its front arc, read "3.40" / 5.00"" with no
    "opportunity", and Enter drew the ghoul's Attack of Opportunity. The preview now
    says what the Norova rules will do."""
    from view_fixtures import menu_key, press
    c = open_scene(view_app, tmp_path, "scenes/norova-arena.yaml", "norova", seed=2)
    try:
        press(view_app, menu_key(c, "end the turn"))              # the ghoul's turn: over
        assert c.active_model() == "pyromancer"
        c.world.move_model("ghoul", 18.0, 8.6, None, facing=270.0)   # facing the pyromancer's way
        c.world_sync()
        press(view_app, menu_key(c, "Move: Walk"))
        press(view_app, "mouse1", pixel=view_app.project((18.0, 6.4, 0.0)))
        assert c.preview is not None and c.preview[1] is None, c.message
        texts = [n.node().getText() for n in c.play_live.findAllMatches("**/+TextNode")]
        route = next(t for t in texts if '" / ' in t)
        assert "opportunity: ghoul" in route, route
        assert c.rules_opportunities(c.preview[0])[0][0] == "ghoul"
        n0 = len(c.game.events)
        press(view_app, "enter")
        said = " ".join(c.say(e) or "" for e in c.game.events[n0:])
        assert "Attack of Opportunity: ghoul on pyromancer" in said, said
    finally:
        c.close()


# ------------------------------------------------------------ 4. a click on a name label
def _label_centre(view_app, ctl, mid):
    """The pixel (x, y down) at the middle of ``mid``'s label as drawn now."""
    from view_fixtures import label_rect
    x0, y0, x1, y1 = label_rect(view_app, ctl.table.label_nodes[mid])
    return (x0 + x1) / 2.0, view_app.size[1] - (y0 + y1) / 2.0


def test_a_click_on_a_models_name_label_picks_that_model(view_app, skirmish):
    """The names are drawn over everything; a player clicks "blue-guard" to pick
    blue-guard. The click went through the label to the ground (or the wall) behind
    it: nothing selected, or in a target step "click a highlighted model"."""
    from engine.view.picking import pick
    from view_fixtures import menu_key, press
    ctl = skirmish
    press(view_app, menu_key(ctl, "order blue second"))            # red's turn first
    view_app.step()

    def click_label(mid):
        px = _label_centre(view_app, ctl, mid)
        behind = pick(view_app, ctl.world, pixel=px)
        assert behind is None or behind.id != mid, behind          # the label is not on its model
        view_app.pointer = view_app.pixel_to_film(*px)
        press(view_app, "mouse1", pixel=px)

    click_label("blue-guard")                   # blue's: selected, with the rules' reason
    assert ctl.selected == "blue-guard", (ctl.selected, ctl.message)
    assert "blue-guard selected, not activated" in ctl.message, ctl.message
    click_label("red-archer")                   # red's: activated
    assert ctl.active_model() == "red-archer", (ctl.game.pending, ctl.message)


def test_a_norova_routes_seen_by_line_looks_all_round(view_app, norova):
    """The route preview's "seen by" (who gains LoS to the mover) used Eldfall's front arcs in
    Legends of Norova too, whose rules ask the table all round: every foe turned its back
    and the line named none of them."""
    ctl = norova
    for mid in ("brute", "crossbowman", "hexer", "ghoul", "harpy"):
        hb = ctl.world.hitbox(mid)
        ctl.world.move_model(mid, hb.x, hb.y, hb.z, facing=90.0)       # their backs to the party
    ctl.world_sync()
    k = ctl.world.hitbox("knight")
    route = [(k.x, k.y, k.z), (k.x, k.y + 4.0, k.z)]
    seen = {w.observer for w in ctl.watchers("knight", route) if w.had_los}
    assert seen, "no foe sees the knight all round"
    from engine import sight
    arcs = {w.observer for w in sight.watchers(ctl.world, "knight", route) if w.had_los}
    assert seen > arcs        # by the front arcs, fewer (none: all turned away)
