"""Review 15, the 3D view as players at home (hotseat by clicking) and an event
organiser (attract mode) meet it.

* The live LoS verdict (rays, the target's band, the verdict panel) outlived its
  selection: Esc, Tab or a click that selected another model left the rays of the
  old pair on the table (and its words in the panel), and the template tool (G)
  then drew its template over them for as long as it was on.
* The Crouched-as-a-Reaction window named six models in the menu but ringed none,
  and the camera kept only the activated model in view (most of the six stood under
  the status panel).
* The game's first decision, the turn order, came with a status that did not say
  who won the initiative or why it was blue's choice ("round 0, - active, phase
  initiative"); the dice panel cut the line short ("35: blue wi...").
* F1 (every key) made the status panel's lines wrap, and the profile panel below it,
  placed by the status's line count and not its rows, was drawn over its last lines.
* The event screen's banner said "blue-warden: Nothing" for an activation that ended
  with no Action, and named norova-arena's pillars "the pillar e", "the pillar w".
* In a Reaction step a click on a model that may not react (no LoS to the mover,
  not in its Awareness; or the moving side's own) selected it without a word.
* In an attack's target step nothing said whether the model under the pointer was
  a legal target before the click (the Stratagems' target step does).
* Space paused the event screen without a word: the status still offered "Space
  pause", so a paused stand looked stuck.
* Esc left the measure tool (M) but its prompt, "Measure: click two points or
  models", stayed in the status.
"""
from __future__ import annotations

import pytest

pytest.importorskip("panda3d")

from view_fixtures import menu_key, press  # noqa: E402


def _over(app, world, mid, f=0.6):
    hb = world.hitbox(mid)
    return app.project((hb.x, hb.y, hb.z + hb.height * f))


def _los_drawn(ctl) -> bool:
    return any(c.getName() == "los-overlay" for c in ctl.live.getChildren())


# ------------------------------------------------------------ 1. the verdict goes with its selection
@pytest.mark.parametrize("keys", [("escape",), ("tab",), ("tab", "g")])
def test_the_live_verdict_goes_with_its_selection(view_app, skirmish, keys):
    ctl, app, world = skirmish, view_app, skirmish.world
    press(app, menu_key(ctl, "order"))
    ctl.select("red-archer")
    press(app, "none", pixel=_over(app, world, "blue-marksman"))
    assert _los_drawn(ctl) and ctl.hud.verdict.text.startswith("red-archer -> blue-marksman")
    for key in keys:
        press(app, key)
    press(app, "none", pixel=(3, app.size[1] // 2))          # the pointer leaves the model
    assert ctl.selected != "red-archer"
    assert not _los_drawn(ctl), [c.getName() for c in ctl.live.getChildren()]
    assert not ctl.hud.verdict.text.startswith("red-archer"), ctl.hud.verdict.text
    if "g" not in keys:                                        # (G: the template's band may stay)
        assert "blue-marksman" not in ctl.table.marks


# ------------------------------------------------------------ 2. the crouch window's models
def test_the_crouch_window_rings_its_models_and_keeps_them_in_view(view_app, skirmish):
    """Right after red-archer's activation blue may crouch any of six models (the menu
    names them), but none was ringed and the camera kept only the archer in view: on
    skirmish.yaml most of them stood under the status panel."""
    from engine.view.play import CAN_REACT
    from view_fixtures import model_rect, rect_overlap
    ctl, app, world = skirmish, view_app, skirmish.world
    press(app, menu_key(ctl, "order blue second"))
    press(app, "mouse1", pixel=_over(app, world, "red-archer"))
    assert ctl.game.pending[0] == "crouch", ctl.game.pending
    named = ctl.crouch_models()
    assert named == sorted(m for m in world.model_ids() if world.hitbox(m).side == "blue")
    assert all(ctl.table.highlights.get(m) == CAN_REACT for m in named), ctl.table.highlights
    app.step(2)
    assert "its ringed models" in ctl.hud.status.text
    w, h = app.size
    panels = ctl.hud.rects()
    hidden = []
    for m in named:
        r = model_rect(app, world, m)
        if r is None or r[0] < 0 or r[1] < 0 or r[2] > w or r[3] > h or any(rect_overlap(r, p) > 0 for p in panels):
            hidden.append(m)
    assert not hidden, hidden


# ------------------------------------------------------------ 3. the turn order says why
def test_the_turn_order_says_who_won_the_initiative(view_app, skirmish):
    ctl = skirmish
    assert ctl.game.pending == ("order", "blue")
    status = ctl.hud.status.text
    assert "initiative: blue rolls 19 + M 16 (Leader blue-warden) = 35: blue wins the initiative" in status, status
    assert "initiative: red rolls 8 + M 17 (Leader red-champion) = 25" in status
    assert "Turn order: blue chooses (number keys)" in status
    press(view_app, menu_key(ctl, "order blue second"))
    assert "Turn order" not in ctl.hud.status.text and "wins the initiative" not in ctl.hud.status.text


# ------------------------------------------------------------ 4. F1 and the profile panel
def test_the_profile_panel_stays_below_a_wrapped_status(view_app, skirmish):
    from engine.view.labels import screen_rect
    from view_fixtures import rect_overlap
    ctl, app = skirmish, view_app
    press(app, menu_key(ctl, "order blue second"))
    ctl.select("red-mage")
    press(app, "f1")
    hud = ctl.hud
    assert hud.status.tn.getNumRows() > hud.status.text.count("\n") + 1     # F1's long line wraps
    status, profile = screen_rect(app, hud.status.np), screen_rect(app, hud.profile.np)
    assert rect_overlap(status, profile) == 0.0, (status, profile)


# ------------------------------------------------------------ 5. the dice panel keeps its words
def test_the_dice_panel_wraps_instead_of_cutting(view_app, skirmish):
    """The dice panel cut every narrated line at 70 characters: the initiative's
    "... = 35: blue wi..." lost who won, an attack's "ACC 9 (..." its range modifier.
    Its lines now wrap; the event log below it keeps above the frame's bottom."""
    from engine.view.labels import screen_rect
    from view_fixtures import rect_overlap
    hud = skirmish.hud
    assert "35: blue wins the initiative and chooses the turn order" in " ".join(hud.dice.text.split())
    assert "..." not in hud.dice.text
    dice, log = screen_rect(view_app, hud.dice.np), screen_rect(view_app, hud.log.np)
    assert rect_overlap(dice, log) == 0.0, (dice, log)
    assert log[1] >= 0.0, log


# ------------------------------------------------------------ 6. Esc leaves the measure tool's words too
def test_esc_from_the_measure_tool_takes_its_prompt(view_app, skirmish):
    ctl, app = skirmish, view_app
    press(app, "m")
    assert "Measure: click two points or models" in ctl.hud.status.text
    press(app, "escape")
    assert not ctl.measuring
    assert "Measure" not in ctl.hud.status.text, ctl.hud.status.text



# ------------------------------------------------------------ 6b. a refused reactor says why
def test_a_click_on_a_model_that_may_not_react_says_why(view_app, skirmish):
    ctl, app, world = skirmish, view_app, skirmish.world
    press(app, menu_key(ctl, "order blue second"))
    press(app, "mouse1", pixel=_over(app, world, "red-brute"))
    while ctl.game.pending[0] == "crouch":
        press(app, "p")
    press(app, menu_key(ctl, "Move: Walk"))
    hb = world.hitbox("red-brute")
    press(app, "mouse1", pixel=app.project((hb.x - 1.0, hb.y + 4.0, 0.0)))
    press(app, "enter")
    assert ctl.game.pending == ("reaction", "blue"), ctl.game.pending
    press(app, "mouse1", pixel=_over(app, world, "blue-warden"))
    assert ctl.selected == "blue-warden"
    assert ("blue-warden selected, it may declare no Reaction now: blue-warden never had LoS to red-brute "
            "during its movement and it is not in its Awareness") in ctl.hud.status.text, ctl.hud.status.text
    press(app, "mouse1", pixel=_over(app, world, "red-mage"))
    assert "red-mage selected, it may declare no Reaction now: only the reactive player (blue)" in ctl.hud.status.text
    press(app, "mouse1", pixel=_over(app, world, "blue-marksman"))          # it may: no refusal
    assert "may declare no Reaction" not in ctl.hud.status.text
    assert ctl.menu[0][0] == "Nothing"


# ------------------------------------------------------------ 6c. the target step says it before the click
def test_the_target_step_says_whether_the_model_under_the_pointer_may_be_clicked(view_app, skirmish):
    from view_fixtures import hotseat_activate, hotseat_idle_to_action
    ctl, app, world = skirmish, view_app, skirmish.world
    hotseat_activate(app, ctl, "red-archer", "order blue second")
    hotseat_idle_to_action(app, ctl)
    press(app, menu_key(ctl, "Ranged Attack (Longbow) -> click target"))
    press(app, "none", pixel=_over(app, world, "blue-marksman"))
    lines = ctl.hud.verdict.text.splitlines()
    assert lines[0].startswith("red-archer -> blue-marksman: LoS")          # the verdict stays first
    assert lines[-1] == "Ranged Attack on blue-marksman: a legal target, click to declare", lines
    press(app, "none", pixel=_over(app, world, "red-mage"))
    assert ctl.hud.verdict.text.splitlines()[-1] == (
        "Ranged Attack on red-mage: not a legal target: red-mage is not an enemy (friendly models are "
        "Assisted, not Attacked)"), ctl.hud.verdict.text
    assert "blue-marksman: a legal target" not in ctl.hud.verdict.text
    press(app, "none", pixel=_over(app, world, "blue-marksman"))
    press(app, "mouse1")                                                     # declared: the step is over
    assert ctl.state == "idle"
    assert "click to declare" not in ctl.hud.verdict.text and "legal target" not in ctl.hud.verdict.text

# ------------------------------------------------------------ 7. the event screen's words
def test_the_banner_says_an_activation_ends_with_nothing(view_app, tmp_path):
    """After a move the active model's Nothing has no line in the play summary, so the
    big screen's banner read "blue-warden: Nothing" (greedy bots, seed 1, its 19th
    decision on skirmish.yaml). Here the decision's events as the rules log them."""
    import os
    from engine.view.play import AttractController
    from rules.core.game import Event
    from rules.eldfall.actions import Declare
    from tools.cmd_view import attract_factories, attract_games, load_world
    world = load_world(os.path.join(os.path.dirname(__file__), "..", "scenes", "skirmish.yaml"))
    new, bots_for = attract_factories(world, attract_games(world, None), None, "greedy", 1)
    ctl = AttractController(view_app, world, new, bots_for, seed=1, out_dir=str(tmp_path))
    try:
        act = Declare("blue-warden", "Nothing")
        events = [Event("action", {"action": str(act)}),
                  Event("declare", {"model": "blue-warden", "action": str(act), "role": "active"})]
        assert ctl.narrate(act, events) == "blue-warden takes no Action (Nothing): its activation ends"
        # a reactor's Nothing is not the end of its activation
        events[1] = Event("declare", {"model": "blue-warden", "action": str(act), "role": "reactive"})
        assert "activation ends" not in ctl.narrate(act, events)
    finally:
        ctl.close()



def test_space_says_the_stand_is_paused(view_app, tmp_path):
    import os
    from engine.view.play import AttractController
    from tools.cmd_view import attract_factories, attract_games, load_world
    world = load_world(os.path.join(os.path.dirname(__file__), "..", "scenes", "open.yaml"))
    new, bots_for = attract_factories(world, attract_games(world, None), None, "greedy", 1)
    ctl = AttractController(view_app, world, new, bots_for, seed=1, out_dir=str(tmp_path))
    try:
        assert "Space pause" in ctl.hud.status.text
        press(view_app, "space")
        assert ctl.paused and "PAUSED: Space resumes" in ctl.hud.status.text, ctl.hud.status.text
        n = len(ctl.game.events)
        ctl.tick(10.0)                                      # the clock stands: no step taken
        assert len(ctl.game.events) == n
        press(view_app, "space")
        assert not ctl.paused and "Space pause" in ctl.hud.status.text
    finally:
        ctl.close()


def test_the_event_screen_shows_no_verdict_for_a_resting_mouse(view_app, tmp_path):
    """Each step selects its actor: the old pair's verdict goes (it was stale), and a
    mouse left resting on a model does not put a verdict panel over the next step."""
    import os
    from engine.view.play import AttractController
    from tools.cmd_view import attract_factories, attract_games, load_world
    world = load_world(os.path.join(os.path.dirname(__file__), "..", "scenes", "open.yaml"))
    new, bots_for = attract_factories(world, attract_games(world, None), None, "greedy", 1)
    ctl = AttractController(view_app, world, new, bots_for, seed=1, out_dir=str(tmp_path))
    try:
        ctl.run_frames(2, str(tmp_path / "f"))
        other = next(m for m in world.model_ids()
                     if m != ctl.selected and _over(view_app, world, m) is not None)
        ctl.frames_driven = True            # the camera holds still: the model stays under the mouse
        press(view_app, "none", pixel=_over(view_app, world, other))   # a visitor points: a verdict
        first = ctl.selected
        for _ in range(12):
            ctl.bot_step()
            view_app.step()
            if ctl.selected != first:
                break
        assert ctl.selected != first
        assert ctl.hud.verdict.text == "", (ctl.hud.verdict.text, first, ctl.selected, ctl.hovered, other)
        assert not _los_drawn(ctl)
    finally:
        ctl.close()

def test_a_pieces_compass_letter_reads_as_a_word():
    from engine.view.play import piece_words
    assert piece_words("pillar-e") == "east pillar"
    assert piece_words("wall-nw") == "north-west wall"
    assert piece_words("low-wall-3") == "low wall 3"
    assert piece_words("ruined_wall") == "ruined wall"
    assert piece_words("e") == "e"
