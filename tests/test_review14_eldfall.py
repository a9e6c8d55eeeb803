"""Review 14 of the Eldfall rules engine and ``eldfall play``: defects found and fixed.

The play summary (``rules.eldfall.narrate.Summary``, fed decision by decision as
``eldfall play`` does):

* an Idle movement has a line of its own ("r1 stays where it is (Idle)"): before, an
  activation that stayed put and declared a Dodge or an Attack read as if the model
  had no Movement Step at all;
* a reaction line shows the AP the reacting model has left, as an activation does;
* the Reaction Step's "may react to" line follows the reactive side's Crouched
  changes at the end of the Movement Step (the Movement Step ends, then the
  Reaction Step opens), not before them;
* ``eldfall replay --events`` gives the same Idle and AP lines, each at its event number;
* a Stratagem's uses left read "1 use", "2 uses", "no uses" (not "use(s)"); an Uncover
  that succeeds with nothing hidden within Awareness says so.

Bad input: ``--set objectives=...``, ``--set deployment=...`` and ``--set table=...`` of
the wrong shape crashed with a traceback (or blamed the scene's models with a Python
message, or were taken silently); ``--set max_actions=0`` stopped the game at once as
"stalemate: 1 decisions". Each is now one line at the setting, exit 2.
"""
from __future__ import annotations

import pytest

from rules.eldfall.actions import Activate, Crouch, Declare, Move, Pass
from rules.eldfall.narrate import Summary
from tests.cli_run import run_cli
from tests.eldfall_scenario import at_action, setup, unit
from tests.scene_files import write


def _told(g, decisions):
    """The play summary of ``decisions`` applied to ``g`` one by one, as eldfall play
    prints it (each decision's events fed in turn), with the held line at the end."""
    s = Summary()
    out = []
    for a in decisions:
        out += s.feed(g.apply(a))
    return out + s.close()


def _pair():
    # b1 watches r1 walk toward it; both have 2 AP
    return setup([unit("r1", "red", 10, 5), unit("b1", "blue", 10, 16, facing=270)], [20, 20, 20, 20])


def _idle_then(g, action: str) -> list:
    """The play summary of r1 activated Idle, every reaction window passed, then ``action``."""
    s = Summary()
    out = s.feed(g.apply(Activate("r1"))) + s.feed(g.apply(Move("r1", "idle")))
    while g.pending[0] != "action":
        out += s.feed(g.apply(Pass(g.pending[1])))
    return out + s.feed(g.apply(Declare("r1", action)))


def test_an_idle_movement_has_its_own_line_and_the_nothing_after_it_is_not_told_twice():
    out = _idle_then(_pair(), "Nothing")
    assert out.count("  r1 stays where it is (Idle)") == 1, out
    assert out[-1] == "  r1 does nothing", out
    assert not any("stays where it is and does nothing" in x for x in out), out


def test_an_idle_movement_then_a_dodge_says_the_model_stayed():
    out = _idle_then(_pair(), "Dodge")
    i = out.index("  r1 stays where it is (Idle)")
    assert out.index("r1 activates (1 AP left)") < i < next(
        j for j, x in enumerate(out) if x.startswith("  r1 declares: Dodge")), out


def test_a_reaction_line_shows_the_ap_left():
    g = _pair()
    lines = _told(g, [Activate("r1"), Move("r1", "walk", ((10.0, 9.0, 0.0),)),
                      Declare("b1", "Dodge")])
    assert "  b1 reacts (1 AP left): Dodge" in lines, lines
    assert g.models["b1"].ap == 1


def test_may_react_follows_the_reactive_crouch_at_the_end_of_the_movement_step():
    g = _pair()
    s = Summary()
    out = s.feed(g.apply(Activate("r1")))
    if g.pending[0] == "crouch":                   # the start of the Movement Step: no change
        out += s.feed(g.apply(Pass("blue")))
    out += s.feed(g.apply(Move("r1", "walk", ((10.0, 9.0, 0.0),))))
    assert g.pending == ("reaction", "blue") and g.act.crouch_window == "end"
    out += s.feed(g.apply(Crouch("blue", (("b1", True),))))
    out += s.feed(g.apply(Declare("b1", "Dodge")))
    out += s.close()
    crouch = next(i for i, x in enumerate(out) if "at the end of r1's Movement Step: b1 crouches" in x)
    may = next(i for i, x in enumerate(out) if x.startswith("  may react to r1:"))
    walk = next(i for i, x in enumerate(out) if x.startswith("  r1 walks"))
    react = next(i for i, x in enumerate(out) if x.startswith("  b1 reacts"))
    assert walk < crouch < may < react, out
    # the crouch's own State line stays with it, before "may react to"
    st = next(i for i, x in enumerate(out) if x.startswith("    b1: +Crouched"))
    assert crouch < st < may, out


def test_may_react_is_told_at_once_when_no_crouch_follows():
    g = _pair()
    s = Summary()
    s.feed(g.apply(Activate("r1")))
    if g.pending[0] == "crouch":
        s.feed(g.apply(Pass("blue")))
    s.feed(g.apply(Move("r1", "walk", ((10.0, 9.0, 0.0),))))
    out = s.feed(g.apply(Declare("b1", "Dodge")))
    assert out[0].startswith("  may react to r1: b1 (LoS)"), out
    assert out[1] == "  b1 reacts (1 AP left): Dodge", out


_DUO = """table: [12, 12]
games: [eldfall]
models:
  - {id: red-a, side: red, size: M, at: [6, 2], facing: 90,
     stats: {STA: 2, SPD: 4, ARM: 2, HP: 2, OFF: 12, DEF: 10, ACC: 12, INT: 10, AG: 10, T: 10, M: 14}}
  - {id: blue-a, side: blue, size: M, at: [6, 10], facing: 270,
     stats: {STA: 2, SPD: 4, ARM: 2, HP: 2, OFF: 12, DEF: 10, ACC: 12, INT: 10, AG: 10, T: 10, M: 14}}
"""


def test_eldfall_play_prints_the_summary_with_idle_lines_and_reaction_ap(tmp_path, capsys):
    scene = write(tmp_path, "duo.yaml", _DUO)
    rc, out, err = run_cli(capsys, "play", str(scene), "--bots", "random", "--seed", "1",
                           "--set", "rounds=2")
    assert rc == 0, err
    lines = out.splitlines()
    assert any(x.endswith(" stays where it is (Idle)") for x in lines), out
    reacts = [x for x in lines if " reacts" in x and ": " in x]
    assert reacts and all(" AP left" in x for x in reacts), reacts


def test_a_stratagem_line_counts_its_uses_left_in_words():
    from rules.core.game import Event
    from rules.eldfall.narrate import line
    base = {"side": "red", "name": "Field Dressing", "leader": "r1", "targets": ["r2"],
            "effect": {"heal": 1, "mods": {}, "states": [], "remove": [], "ap": 0,
                       "duration": "turn"}, "per": "turn"}
    said = [line(Event("stratagem", dict(base, uses_left=n), 1)) for n in (0, 1, 2)]
    assert said[0].endswith("(no uses left this turn)"), said
    assert said[1].endswith("(1 use left this turn)"), said
    assert said[2].endswith("(2 uses left this turn)"), said
    assert not any("use(s)" in s for s in said), said


# ---------------------------------------------------------------------------
# `--set objectives=...` and `--set deployment=...` of the wrong shape: a traceback
# (TypeError, KeyError, AttributeError deep in the rules) or a Python message blamed on
# the scene's models; a side that does not play was silently ignored. Now one line at
# the setting, exit 2.


def _play_duo(tmp_path, capsys, *sets, scene_text=None):
    """`eldfall play` of the duo scene (or ``scene_text``) by the bots, quietly, with ``--set``s."""
    scene = write(tmp_path, "duo.yaml", scene_text or _DUO)
    argv = ["play", str(scene), "--bots", "--quiet"]
    for s in sets:
        argv += ["--set", s]
    return run_cli(capsys, *argv)


@pytest.mark.parametrize("key, value, says", [
    ("objectives", "5", "setting objectives: must be a list of quest objects"),
    ("objectives", "[5]", "setting objectives[0]: must be a mapping"),
    ("objectives", "[{vp: 2}]", "setting objectives[0].id: the quest object's terrain piece id is missing"),
    ("objectives", "[{id: crate, vps: 2}]", "setting objectives[0].vps: unknown key"),
    ("objectives", "[{id: crate, vp: -1}]", "setting objectives[0].vp: must be a whole number, 0 or more"),
    ("objectives", "[{id: crate, attribute: XYZ}]", "setting objectives[0].attribute: must be one of"),
    ("objectives", "[{id: crate}, {id: crate}]", "setting objectives[1].id: 'crate' is named twice"),
    ("deployment", "5", "setting deployment must be a mapping side -> [[x0, y0], [x1, y1]]"),
    ("deployment", "{red: 5}", "setting deployment.red: expected two corners"),
    ("deployment", "{red: [[0,0],[1]]}", "setting deployment.red: expected two corners"),
    ("deployment", "{red: [[0,0],[a,3]]}", "setting deployment.red: expected two corners"),
    ("deployment", "{green: [[0,0],[12,3]]}", "setting deployment names the side 'green', which has no models"),
    # `--set table=[a,b]` was taken without a word (a list is a list)
    *[("table", v, "setting table must be [width, depth] in inches (two numbers above 0)")
      for v in ("[a,b]", "[0,5]", "[1]", "[36, -2]")],
])
def test_bad_objectives_zones_and_tables_are_one_line_at_the_setting(tmp_path, capsys, key, value, says):
    rc, out, err = _play_duo(tmp_path, capsys, f"{key}={value}")
    assert rc == 2, (out, err)
    assert err.strip().splitlines() == [err.strip()], err
    assert err.startswith(f"<command line>: --set {key}: " + says), err


def test_good_objectives_and_zones_still_play(tmp_path, capsys):
    from rules.eldfall.sequence import merge_settings
    ok = merge_settings({"objectives": [{"id": "crate", "vp": 2, "attribute": "INT",
                                         "modifier": -2, "item": "Relic"}],
                         "deployment": {"red": [[0, 0], [12, 3.5]]}})
    assert ok["objectives"][0]["id"] == "crate"
    rc, out, err = _play_duo(tmp_path, capsys, "rounds=1",
                             "deployment={red: [[0,0],[12,3]], blue: [[0,9],[12,12]]}")
    assert rc == 0, err


def test_max_actions_is_at_least_one_and_the_stalemate_counts_in_words(tmp_path, capsys):
    rc, out, err = _play_duo(tmp_path, capsys, "max_actions=0")
    assert rc == 2 and err.startswith("<command line>: --set max_actions: setting max_actions "
                                      "must be at least 1"), (out, err)
    rc, out, err = _play_duo(tmp_path, capsys, "max_actions=1")
    assert rc == 0, err
    assert "stalemate: the safety stop after 1 decision (setting max_actions)" in out, out
    assert "1 decisions" not in out, out


def test_replay_events_lists_idle_and_reaction_ap_at_their_event_numbers(tmp_path, capsys, monkeypatch):
    # `eldfall replay --events` told the log without the play summary's lines: no Idle
    # line, no AP left on a reaction
    scene = write(tmp_path, "duo.yaml", _DUO)
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_cli(capsys, "play", "duo.yaml", "--bots", "random", "--seed", "1",
                           "--set", "rounds=2", "--log", "game.jsonl", "--quiet")
    assert rc == 0, err
    rc, out, err = run_cli(capsys, "replay", "game.jsonl", "--events")
    assert rc == 0, err
    listed = [ln for ln in out.splitlines() if ln[:5].strip().isdigit()]
    seqs = [int(ln[:5]) for ln in listed]
    assert seqs == sorted(seqs), listed                  # in the log's order, by event number
    assert any(ln.endswith(" stays where it is (Idle)") for ln in listed), listed
    reacts = [ln for ln in listed if " reacts" in ln]
    assert reacts and all(" AP left" in ln for ln in reacts), reacts
    assert scene.exists()


def test_an_idle_turn_keeps_its_line_and_the_nothing_after_it_is_short():
    g = _pair()
    s = Summary()
    out = s.feed(g.apply(Activate("r1"))) + s.feed(g.apply(Move("r1", "idle", facing=45.0)))
    while g.pending[0] != "action":
        out += s.feed(g.apply(Pass(g.pending[1])))
    out += s.feed(g.apply(Declare("r1", "Nothing")))
    assert "  r1 stays in place and turns to 45\u00b0" in out, out
    assert "  r1 stays where it is (Idle)" not in out, out
    assert out[-1] == "  r1 does nothing", out


def _uncover(g):
    """r1 Idle to its Action Step, then Uncover: (the narrated lines, the Uncover roll's line)."""
    from rules.eldfall.narrate import narrate
    at_action(g)
    lines = narrate(g.apply(Declare("r1", "Uncover")))
    return lines, next(s for s in lines if "Uncover" in s and "roll" in s)


def test_an_uncover_with_nothing_hidden_in_awareness_says_so():
    # "blue-a Uncover halved INT roll: 4 vs 5 -> success" and nothing more: a success
    # that revealed nothing read as if something had been found
    lines, chk = _uncover(setup([unit("r1", "red", 10, 5), unit("b1", "blue", 10, 30, facing=270)], [4, 20]))
    assert chk.endswith("4 vs 6 -> success (nothing hidden within its Awareness)"), lines


def test_an_uncover_that_finds_a_shrouded_model_has_no_such_note():
    g = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 10, 9, facing=270)], [4, 20, 20, 20])
    g.models["b1"].states = frozenset({"Shrouded"})
    g.geo.set_states("b1", g.models["b1"].states)
    lines, chk = _uncover(g)
    assert chk.endswith("-> success"), lines
    assert any("b1: -Shrouded (revealed by r1's Uncover)" in s for s in lines), lines


def test_a_foresight_reaction_line_shows_the_ap_left_too():
    from tests.eldfall_scenario import BOW
    r = unit("r1", "red", 10, 10, weapons=[BOW])
    seer = unit("b1", "blue", 10, 16, facing=270, skills=["Foresight"])
    g = setup([r, seer, unit("b2", "blue", 14, 16, facing=270)], [3, 3, 20])
    lines = _told(g, [Activate("r1"), Move("r1", "idle"), Pass("blue"),
                      Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)),
                      Declare("b1", "Dodge")])
    assert "  b1 reacts (Foresight, 1 AP left): Dodge" in lines, lines


def test_an_objective_on_a_piece_the_scene_lacks_is_refused(tmp_path, capsys):
    # a quest object is taken by Interact in Base Contact with its terrain piece: one
    # the scene does not have could never be taken, and the game said nothing
    rc, out, err = _play_duo(tmp_path, capsys, "objectives=[{id: crate, vp: 2}]")
    assert rc == 2, (out, err)
    assert err.strip() == ("<command line>: --set objectives: objectives[0].id: "
                           f"{tmp_path / 'duo.yaml'} has no terrain piece 'crate' (its pieces: none)"), err
    crated = _DUO.replace("models:", "terrain:\n  - {id: crate, shape: box, at: [2, 6, 0], size: [1, 1, 1]}\nmodels:")
    rc, out, err = _play_duo(tmp_path, capsys, "rounds=1", "objectives=[{id: crate, vp: 2}]", scene_text=crated)
    assert rc == 0, err


def test_a_failed_uncover_does_not_tell_whether_anything_is_hidden():
    lines, chk = _uncover(setup([unit("r1", "red", 10, 5), unit("b1", "blue", 10, 30, facing=270)], [20, 20]))
    assert chk.endswith("20 vs 6 -> fail"), lines
