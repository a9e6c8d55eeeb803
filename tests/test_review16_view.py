"""Review 16, the 3D view's hotseat and attract mode as players and event organisers
meet them.

* A decision whose outcome ran past the status panel's eight lines lost its dice
  lines, and with them the lines that say an attack missed (the rules emit no event
  for a miss; the narration's ``misses`` adds one after the attack's last die): on
  skirmish.yaml red-archer's two Strikes at blue-guard and blue-marksman's Reaction
  shot at red-archer read "red-archer hits blue-guard ... no wound", with no word
  that one Strike and the whole Reaction had missed. The dice panel and the event
  log never said a miss at all.
* Ctrl+Z (and any decision that moves the selected model) left the live LoS verdict
  of the table as it was: a walk undone put red-champion back, but its rays to the
  hovered blue-guard still started where the walk had ended, and the panel still
  gave that spot's distance, until the pointer moved (and when the new step's camera
  took the hovered model from under the pointer, the stale rays stayed for good).
* The event screen's banner for an Action step of Nothing that Reactions answered
  (blue-ogre walks, red-archer and red-scout shoot, blue-ogre takes no Action) told
  only red's shots and the Wound, as if they were the step.
* The event log was narrated newest first; the narration remembers the initiative
  roll-off, so red's roll read "= 25: blue win..." and blue's winning roll "= 35".
* In a Reaction step, after a reactor's click the status still asked blue to click a
  highlighted model, while the menu listed that reactor's Reactions.
* "click a ringed model to activate it": the camera kept only a model's own steps in
  view; from the window's first view of heights.yaml blue-giant's ring stood half under
  the event log and blue-marksman at the frame's top edge.
"""
from __future__ import annotations

import pytest

pytest.importorskip("panda3d")

from view_fixtures import menu_key, open_scene, press  # noqa: E402


def _play(ctl, *texts):
    """Apply logged actions through the controller (as its menu and clicks do)."""
    out = None
    for t in texts:
        out = ctl.apply(ctl.game.parse_action(t))
        assert out is not None, (t, ctl.message)
    return out


def _over(app, world, mid, f=0.6):
    hb = world.hitbox(mid)
    return app.project((hb.x, hb.y, hb.z + hb.height * f))


# ------------------------------------------------------------ 1. a miss is said, however long the outcome
def test_a_long_outcome_keeps_its_misses_in_the_status_dice_and_log(view_app, skirmish):
    ctl = skirmish
    _play(ctl, "order blue second", "activate red-archer", "pass blue",
          "move red-archer walk 5.125,3.375,2.75 5.125,3.625,2.75 5.625,5.125,2.75 5.84375,5.84375,2.75",
          "declare blue-marksman 'Ranged Attack' 'weapon=Heavy Crossbow' targets=red-archer:1", "pass blue")
    n0 = len(ctl.game.events)
    _play(ctl, "declare red-archer 'Ranged Attack' weapon=Longbow targets=blue-guard:2")
    view_app.step()
    events = ctl.game.events[n0:]
    missed = [ln.strip() for _, ln in sorted(ctl.miss_lines(events).items())]
    # the case: both attacks missed something, and the outcome is longer than the status keeps
    assert any(m.startswith("red-archer misses blue-guard") for m in missed), missed
    assert any(m.startswith("blue-marksman misses red-archer") for m in missed), missed
    said = [t for e in events[1:] for t in [ctl.say(e)] if t]
    assert len(said) > ctl.EXPLAIN_LINES, said
    assert any(e.kind == "hit" for e in events)
    status = [ln.strip() for ln in ctl.hud.status.text.splitlines()]
    dice = [ln.strip() for ln in ctl.hud.dice.text.splitlines()]
    log = [ln.strip() for ln in ctl.hud.log.text.splitlines()]
    for m in missed:
        assert m in status, (m, ctl.hud.status.text)
        assert m in dice, (m, ctl.hud.dice.text)
        assert any(m.startswith(ln.rstrip(".")) for ln in log if ln), (m, ctl.hud.log.text)
    # each miss after its own attack's dice, the hit's line after them
    i = dice.index(missed[0])
    assert dice.index(next(m for m in missed if m.startswith("blue-marksman"))) > i
    assert any(ln.startswith("red-archer hits blue-guard") for ln in dice[i:])


# ------------------------------------------------------------ 2. the live verdict after Ctrl+Z
@pytest.mark.parametrize("camera_moves", [False, True])
def test_undo_redraws_the_live_verdict_from_where_the_model_stands_again(view_app, skirmish, camera_moves):
    """The pointer left on blue-guard over Ctrl+Z: the verdict is asked again on the
    table as it is now; when the new step's camera took blue-guard from under the
    pointer (``KEEP_IN_VIEW``), the old rays and words go."""
    from engine.view.play import live_los, verdict_text
    ctl, app, world = skirmish, view_app, skirmish.world
    ctl.KEEP_IN_VIEW = camera_moves
    _play(ctl, "order blue second", "activate red-champion", "pass blue")
    assert ctl.game.pending == ("movement", "red-champion")
    start = world.hitbox("red-champion")
    x0, y0 = start.x, start.y
    _play(ctl, f"move red-champion walk {x0:.3f},{y0 + 2.5:.3f},0")
    assert world.hitbox("red-champion").y == pytest.approx(y0 + 2.5)
    press(app, "none", pixel=_over(app, world, "blue-guard"))
    walked = ctl.hud.verdict.text
    assert walked.startswith("red-champion -> blue-guard"), walked
    view = ctl.camera.target.copy()
    press(app, "control-z")                       # the pointer stays where it was
    app.step()
    assert world.hitbox("red-champion").y == pytest.approx(y0)
    now = verdict_text(live_los(world, "red-champion", "blue-guard")).splitlines()[0]
    assert now != walked.splitlines()[0]
    shown = ctl.hud.verdict.text.splitlines()[:1]
    rays = any(c.getName() == "los-overlay" for c in ctl.live.getChildren())
    if ctl.hovered == "blue-guard":
        assert shown == [now], (ctl.hud.verdict.text, walked)
        assert rays and ctl.verdict.distance == pytest.approx(world.distance("red-champion", "blue-guard"))
    else:                                         # the camera moved it from under the pointer
        assert camera_moves and (ctl.camera.target != view).any()
        assert shown == [] and not rays and "blue-guard" not in ctl.table.marks, ctl.hud.verdict.text


# ------------------------------------------------------------ 3. the event screen: Nothing, then the Reactions
def test_the_banner_of_an_action_step_of_nothing_says_whose_step_it_is(view_app, tmp_path):
    """skirmish.yaml, greedy bots, seed 1: blue-ogre walks, red-archer and red-scout
    react with shots, blue-ogre declares Nothing. The banner of that frame (the camera
    on blue-ogre) told only red's shots and the Wound, as if they were the step; the
    play summary has no line for a Nothing after a move."""
    import os
    from engine.view.play import AttractController
    from tools.cmd_view import attract_factories, attract_games, load_world
    world = load_world(os.path.join(os.path.dirname(__file__), "..", "scenes", "skirmish.yaml"))
    new, bots_for = attract_factories(world, attract_games(world, None), None, "greedy", 1)
    ctl = AttractController(view_app, world, new, bots_for, seed=1, out_dir=str(tmp_path))
    try:
        for _ in range(20):
            n0 = len(ctl.game.events)
            ctl.bot_step()
            evs = ctl.game.events[n0:]
            act = evs[0].data["action"]
            if act.endswith(" Nothing") and any(e.kind == "attack" for e in evs) and \
                    any(e.kind == "declare" and e.data.get("role") == "active" for e in evs):
                break
        else:
            pytest.fail("no Nothing with Reactions resolving in 20 decisions")
        who = act.split()[1]
        lines = ctl.hud.banner.text.splitlines()
        assert lines[0] == f"{who} takes no Action (Nothing): the Reactions against it resolve", lines
        attackers = [e.data["attacker"] for e in evs if e.kind == "attack"]
        assert all(a != who for a in attackers) and any(ln.startswith(attackers[0]) for ln in lines[1:])
    finally:
        ctl.close()


# ------------------------------------------------------------ 4. the event log told forwards
def test_the_event_log_tells_the_initiative_as_the_status_does(view_app, skirmish):
    """The log was narrated newest first, and the narration remembers the roll-off:
    red's roll read "= 25: blue win..." and blue's winning roll "= 35", against the
    status's (and the rules') order."""
    ctl = skirmish
    status = [ln for ln in ctl.hud.status.text.splitlines() if ln.startswith("initiative:")]
    log = [ln for ln in ctl.hud.log.text.splitlines() if ln.startswith("initiative:")]
    assert len(status) == len(log) == 2 and "wins the initiative" in status[1], (status, log)
    for s, g in zip(status, log):
        assert s == g or (g.endswith("...") and s.startswith(g[:-3])), (s, g)
    # told again at every refresh: still in the rules' order after the next decision
    press(view_app, menu_key(ctl, "order blue second"))
    log = [ln for ln in ctl.hud.log.text.splitlines() if ln.startswith("initiative:")]
    assert log and "wins" not in log[0], log


# ------------------------------------------------------------ 5. the Reaction step after a reactor's click
def test_the_reaction_step_says_what_follows_the_reactors_click(view_app, skirmish):
    """After blue-marksman was clicked the menu listed its Reactions, but the status
    still asked blue to click a highlighted model (the click just made)."""
    from view_fixtures import click_model
    ctl, app, world = skirmish, view_app, skirmish.world
    _play(ctl, "order blue second", "activate red-archer", "pass blue",
          "move red-archer walk 5.125,3.375,2.75 5.125,3.625,2.75 5.625,5.125,2.75 5.84375,5.84375,2.75")
    app.step()
    assert ctl.game.pending == ("reaction", "blue")
    assert "Reaction step: blue clicks a highlighted model, or P to pass" in ctl.hud.status.text
    click_model(app, world, "blue-marksman")
    assert ctl.selected == "blue-marksman" and ctl.hud.menu.text.startswith("Legal for blue-marksman:")
    status = ctl.hud.status.text
    assert "Reaction step: blue-marksman reacts with a menu entry (number keys)" in status, status
    assert "blue clicks a highlighted model" not in status
    press(app, menu_key(ctl, "Ranged Attack"))
    click_model(app, world, "red-archer")             # declared: blue-marksman has no more to choose
    assert ctl.game.pending == ("reaction", "blue"), ctl.game.pending
    assert "Reaction step: blue clicks a highlighted model, or P to pass" in ctl.hud.status.text


# ------------------------------------------------------------ 6. the models to activate in view
def test_the_models_to_activate_are_kept_off_the_panels(view_app, tmp_path):
    """heights.yaml from the window's first camera: at blue's "click a ringed model to
    activate it" blue-giant stood half under the event log (its ring hidden) and
    blue-marksman at the frame's top edge; only a model's own steps moved the camera."""
    from view_fixtures import model_rect, rect_overlap
    ctl = open_scene(view_app, tmp_path, "scenes/heights.yaml", seed=3)
    try:
        ctl.camera.reset()                     # the window's first view (eldfall view)
        view_app.step()
        press(view_app, menu_key(ctl, "order blue first"))
        while ctl.game.pending[0] == "stratagem":
            press(view_app, "p")
        assert ctl.game.pending == ("tactical", "blue")
        view_app.step()
        ringed = sorted({a.model for a in ctl.legal() if type(a).__name__ == "Activate"})
        assert len(ringed) >= 3, ringed
        w, h = view_app.size
        panels = ctl.hud.rects()
        for mid in ringed:
            r = model_rect(view_app, ctl.world, mid)
            assert r is not None and r[0] >= 0 and r[1] >= 0 and r[2] <= w and r[3] <= h, (mid, r)
            assert all(rect_overlap(r, p) == 0 for p in panels), (mid, r, panels)
    finally:
        ctl.close()
