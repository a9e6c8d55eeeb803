"""Review 17, the 3D view's panels and labels (two README Known gaps).

* The event log cut every line at 70 characters: "may react to red-archer:
  blue-arcanist (LoS), blue-guard (LoS), b..." lost who may react, and a shot's
  "ACC 7 (after cover -2, range -6)" its modifiers. Its lines now wrap, as the dice
  panel's do; the log keeps its newest entries in its rows, below the dice panel
  and above the frame's bottom.
* A label at the frame's edge was slid inside the frame; when every other place
  was taken the place left of a model at the frame's left edge, slid back, lay on
  the model itself (its own model was no obstacle): the name hid the model it
  named (seen on an attract frame). A label never covers its own model now while
  any place does not; the corners of the model are tried when the sides are taken.
"""
from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("panda3d")

from engine.view.labels import LabelItem, place_labels  # noqa: E402
from view_fixtures import label_rect, model_rect, rect_overlap, stage_table  # noqa: E402


def _words(text: str) -> str:
    return " ".join(text.split())


def _log_in_place(app, hud):
    """The log below the dice panel, inside the frame, in its rows."""
    from engine.view.labels import screen_rect
    dice, log = screen_rect(app, hud.dice.np), screen_rect(app, hud.log.np)
    assert dice is None or rect_overlap(dice, log) == 0.0, (dice, log)
    assert log[1] >= 0.0 and log[2] <= app.size[0], log
    assert hud.log.rows() <= hud.log_lines + 1, hud.log.rows()


# ------------------------------------------------------------ 1. the event log wraps
def test_the_event_log_wraps_its_long_lines_whole(view_app, skirmish):
    ctl = skirmish
    for t in ("order blue second", "activate red-archer", "pass blue",
              "move red-archer walk 5.125,3.375,2.75 5.125,3.625,2.75 5.625,5.125,2.75 5.84375,5.84375,2.75",
              "declare blue-marksman 'Ranged Attack' 'weapon=Heavy Crossbow' targets=red-archer:1", "pass blue",
              "declare red-archer 'Ranged Attack' weapon=Longbow targets=blue-guard:2"):
        assert ctl.apply(ctl.game.parse_action(t)) is not None, (t, ctl.message)
    view_app.step()
    hud = ctl.hud
    said = [t for e in ctl.game.events for t in [ctl.say(e)] if t]
    long = [t.strip() for t in said if len(t) > 70]
    log = _words(hud.log.text)
    assert "..." not in hud.log.text, hud.log.text
    shown = [t for t in long if _words(t) in log]
    assert any(t.startswith("may react to red-archer:") and t.endswith("blue-warden (LoS)") for t in shown), log
    assert any("ACC 7 (after cover -2, range -6)" in t for t in shown), log
    assert hud.log.rows() > hud.log.text.count("\n") + 1          # they wrap
    # the newest entry is the last, whole
    assert hud.log.text.splitlines()[-1] == said[-1], (said[-1], hud.log.text)
    _log_in_place(view_app, hud)


def test_the_log_keeps_its_newest_entries_when_they_wrap(view_app, skirmish):
    """Thirty entries of three rows each: the newest whole, in order, the oldest gone;
    pushed down by a tall dice panel, the log still ends on the newest above the
    frame's bottom."""
    hud = skirmish.hud
    entries = [f"entry {i:02d}: " + " ".join(f"word{i}-{k}" for k in range(18)) for i in range(30)]
    events = [SimpleNamespace(kind="note", data={"text": t}) for t in entries]
    for dice in ("", "\n".join(f"die {i}: " + "a long line of the dice panel " * 3 for i in range(10))):
        hud.dice.set(dice)
        hud.show_log(events, narrator=lambda e: e.data["text"])
        hud.place_right()
        lines = hud.log.text.splitlines()
        assert lines[0] == "Event log" and len(lines) >= 3, lines
        assert lines[1:] == entries[len(entries) - len(lines) + 1:], lines
        assert hud.log.rows() > len(lines)
        _log_in_place(view_app, hud)


# ------------------------------------------------------------ 2. a label at the frame's edge
def _free(rect, others) -> bool:
    return all(rect_overlap(rect, o) == 0.0 for o in others)


def test_a_label_at_the_frames_left_edge_keeps_off_its_crowded_model():
    """A model at the frame's left edge, its neighbours above, right and below: their
    labels take its places above, right and below; the place left of it, slid inside
    the frame, lay on the model itself."""
    edge = (2.0, 180.0, 32.0, 220.0)
    up, right, down = (0.0, 226.0, 30.0, 256.0), (40.0, 185.0, 70.0, 215.0), (0.0, 145.0, 30.0, 175.0)
    items = [LabelItem(t, 60.0, 16.0, 2.0) for t in (up, right, down)] + [LabelItem(edge, 60.0, 16.0)]
    out = place_labels(items, screen=(640, 400))
    (rect, moved), labels = out[-1], [r for r, _ in out[:-1]]
    assert rect_overlap(rect, edge) == 0.0, rect
    assert moved and _free(rect, [up, right, down, *labels]), (rect, labels)
    assert rect[0] >= 0.0


def test_a_label_covers_its_own_model_only_when_every_place_does():
    """Every place taken (a panel over the whole frame but the model): the label
    covers the panel, not its model. A model bigger than the frame: the least of it."""
    edge = (0.0, 150.0, 40.0, 210.0)
    panels = [(0.0, 0.0, 640.0, 150.0), (0.0, 210.0, 640.0, 400.0), (40.0, 150.0, 640.0, 210.0)]
    ((rect, _),) = place_labels([LabelItem(edge, 60.0, 16.0)], panels, screen=(640, 400))
    assert rect_overlap(rect, edge) == 0.0, rect
    huge = (-50.0, 10.0, 700.0, 420.0)               # only the frame's bottom rows are clear of it
    ((rect, _),) = place_labels([LabelItem(huge, 60.0, 16.0)], screen=(640, 400))
    assert rect[1] == pytest.approx(0.0) and rect_overlap(rect, huge) == pytest.approx(60.0 * 6.0), rect


def test_a_crowded_model_at_the_frames_edge_is_not_labelled_over_itself(view_app):
    """Drawn: red's "edge" at the frame's left edge, blue models above, right of it and
    below it (labelled first): its label, as rendered, lies off its model and the others."""
    from engine.scene import ModelSpec, Scene
    from engine.world import World
    at = {"edge": (3.0, 18.0), "above": (3.0, 19.5), "right": (4.8, 18.0), "below": (3.0, 16.5)}
    world = World(Scene("", (36.0, 36.0), (), tuple(
        ModelSpec(m, "red" if m == "edge" else "blue", 32, 30, (x, y, None)) for m, (x, y) in at.items())))
    table, cam = stage_table(view_app, world)
    cam.set_orbit((12.0, 18.0, 0.0), 0.0, 90.0, 22.0)
    view_app.step()
    table.layout_labels(view_app, obstacles=[], important=["above", "right", "below"])
    view_app.step()
    models = {m: model_rect(view_app, world, m) for m in at}
    labels = {m: label_rect(view_app, table.label_nodes[m]) for m in at}
    assert models["edge"][0] < 6.0, models["edge"]                 # at the frame's left edge
    lab = labels["edge"]
    assert lab[0] >= -0.5 and rect_overlap(lab, models["edge"]) < 2.0, (lab, models["edge"])
    for m in ("above", "right", "below"):
        assert rect_overlap(lab, models[m]) < 2.0 and rect_overlap(lab, labels[m]) < 2.0, (m, lab)


def test_the_dice_panel_without_a_narrator_keeps_whole_lines(skirmish):
    """A game with no narration (the raw events' fallback) cut its dice lines at 70 characters
    too; the panel wraps them as it does the narrated ones."""
    why = "attack: red-archer Longbow vs blue-marksman, second strike, after cover and range"
    evs = [SimpleNamespace(kind="action", data={"action": "declare red-archer 'Ranged Attack'"}),
           SimpleNamespace(kind="roll", data={"value": 7, "sides": 20, "why": why})]
    skirmish.hud.show_dice(evs)
    text = skirmish.hud.dice.text
    assert why in text and "..." not in text, text
    assert skirmish.hud.dice.rows() > text.count("\n") + 1          # the long line wraps
