"""Review 11: the Eldfall sequence side (rounds, activation, reactions, States, narration)."""
from __future__ import annotations

from rules.eldfall.actions import Activate, ChooseOrder, Declare, Move, Pass
from tests.eldfall_scenario import setup, unit
from tests.scene_files import write

BASE = 32 / 25.4                       # a Medium base, inches


def _activate(g, model):
    """Activate ``model``; the other side passes its Crouch decision."""
    g.apply(Activate(model))
    if g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))


def _walk_and_nothing(g, model, to):
    """Activate ``model``, Walk it to ``to``, let the reactive player pass, declare Nothing."""
    _activate(g, model)
    g.apply(Move(model, "walk", (to,)) if to else Move(model, "idle"))
    while g.pending[0] != "action":
        g.apply(Pass(g.pending[1]))
    g.apply(Declare(model, "Nothing"))


def _started(tmp_path, name: str, text: str, first: str, activate: str | None = None):
    """A game on the 3D table of scene ``text``: ``first`` plays first, every die a 5;
    with ``activate``, that model activated (the other side passes its Crouch decision)."""
    from rules.core.dice import Dice
    from tools.gameplay import new_game
    _, g = new_game(str(write(tmp_path, name, text)), None, 0)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == first))
    g.dice = Dice.fixed([5] * 40)
    if activate is not None:
        _activate(g, activate)
    return g


# --- Engaged: "within the Melee Weapon Reach and LoS of an enemy model" -------------
def test_walking_into_base_contact_behind_an_enemy_does_not_engage_the_walker():
    # eldfall-states.txt, Engaged: "A model is Engaged when it ends within the Melee
    # Weapon Reach and LoS of an enemy model". b1 faces away (north); r1 walks up to
    # its back: b1 is in r1's Reach and LoS (r1 engages b1), but r1 is not in b1's
    # LoS, so b1 does not engage r1 (docs/rulings.md, "Engagement": "the enemy has
    # LoS to it"). Base contact alone used to engage.
    g = setup([unit("r1", "red", 10, 10, facing=90), unit("b1", "blue", 10, 14, facing=90),
               unit("r2", "red", 30, 3)], [5] * 30)
    _walk_and_nothing(g, "r1", (10.0, 14 - BASE, 0.0))
    assert g.geo.base_contact("r1", "b1") and not g.geo.sight("b1", "r1").los
    assert g.models["b1"].engaged_by == {"r1"} and "Engaged" in g.models["b1"].states
    assert g.models["r1"].engaged_by == frozenset() and "Engaged" not in g.models["r1"].states
    # b1 still has its automatic LoS to the model engaging it (it may react to r1)
    assert g.has_los("b1", "r1")
    # facing r1, b1 engages it as well
    g.geo.set_facing("b1", 270.0)
    _walk_and_nothing(g, "r2", None)
    assert g.models["r1"].engaged_by == {"b1"}


SCENE = """\
name: behind
games: [eldfall]
table: [36, 36]
models:
  - {id: r1, side: red,  profile: sample-red#champion, at: [10, 10], facing: 90}
  - {id: r2, side: red,  profile: sample-red#archer,   at: [30, 3],  facing: 90}
  - {id: b1, side: blue, profile: sample-blue#guard,   at: [10, 14], facing: 90}
  - {id: b2, side: blue, profile: sample-blue#warden,  at: [30, 33], facing: 270}
"""


def test_on_the_3d_table_an_engagement_does_not_turn_mutual_through_the_engaged_los(tmp_path):
    # The 3D table's LoS gives an Engaged viewer automatic LoS to the enemies whose
    # Reach it stands in (engine.sight, "Engaged" exception). Asked as is, the next
    # update after r1 engaged b1 from behind found "b1 sees r1" and made r1 Engaged
    # too; engaging is judged with the enemy's own LoS (front arc, scenery).
    g = _started(tmp_path, "behind.yaml", SCENE, "red")
    reach = (g.models["r1"].unit.base + g.models["b1"].unit.base) / 2
    _walk_and_nothing(g, "r1", (10.0, 14 - reach - 0.001, 0.0))
    assert g.geo.base_contact("r1", "b1")
    assert "Engaged" in g.models["b1"].states and "Engaged" not in g.models["r1"].states
    _walk_and_nothing(g, "r2", None)          # the next Activation Sequence's update
    assert "Engaged" in g.models["b1"].states
    assert "Engaged" not in g.models["r1"].states and not g.models["r1"].engaged_by


SCRUM = """\
name: scrum
games: [eldfall]
table: [36, 36]
models:
  - {id: r1, side: red,  profile: sample-red#shieldbearer, at: [10, 15.9], facing: 270}
  - {id: r3, side: red,  profile: sample-red#brute,        at: [10, 11.6], facing: 270}
  - {id: b1, side: blue, profile: sample-blue#guard,       at: [10, 14],   facing: 90}
  - {id: b2, side: blue, profile: sample-blue#warden,      at: [30, 33],   facing: 270}
"""


def test_an_engaged_model_sees_only_the_models_engaging_it_not_every_enemy_in_reach(tmp_path):
    # States, Engaged: "Automatically has LoS to all models causing the Engaged
    # State". r1 (Spear, in front of b1, facing it) engages b1. r3 stands behind b1,
    # b1 inside its Maul's Reach, but r3 faces away: it causes no Engaged State, and
    # b1 (facing north, away from r3) has no LoS to it. The 3D table's Engaged
    # exception counted every enemy whose Reach b1 stands in.
    g = _started(tmp_path, "scrum.yaml", SCRUM, "red")
    assert g.models["b1"].engaged_by == {"r1"}
    assert g.geo.in_reach("r3", "b1", g.melee_reach("r3"))
    assert g.has_los("b1", "r1") and not g.has_los("b1", "r3")
    _activate(g, "r3")
    g.apply(Move("r3", "idle"))
    # b1 qualifies by Awareness only (Dodge with halved AG), not by LoS
    q = g.act.qualified["b1"]
    assert q["aware"] and not q["los"]
    assert "never had LoS to r3" in (g.why_illegal(Declare("b1", "Melee Attack", weapon="War Hammer",
                                                            targets=(("r3", 1),))) or "")


def test_on_the_3d_table_an_engaged_model_may_disengage_in_any_direction_after_a_dodge(tmp_path):
    # eldfall-actions.txt, Dodge: "After Dodge resolution (regardless of success): May
    # move up to SPD / 2 (rounded up) in any direction"; "Disengage: An Engaged model
    # that declares Dodge may move out of the enemy's Melee Reach". The 3D table
    # judged the move as an Engaged model's Walk ("may only Walk directly toward the
    # enemy engaging it") and refused every other direction; the legal moves the bots
    # draw from held only points toward an engager.
    import math
    from rules.eldfall.actions import DodgeMove
    g = _started(tmp_path, "scrum.yaml", SCRUM, "blue", activate="b1")
    g.apply(Move("b1", "idle"))
    while g.pending[0] != "action":
        g.apply(Pass(g.pending[1]))
    g.apply(Declare("b1", "Dodge"))
    while g.pending[0] != "dodge-move":
        g.apply(Pass(g.pending[1]))
    assert g.pending == ("dodge-move", "b1") and "Engaged" in g.models["b1"].states
    start = g.geo.position("b1")

    def away(p):          # farther from both red models than where it stands
        return all(math.dist(p[:2], g.geo.position(r)[:2]) > math.dist(start[:2], g.geo.position(r)[:2])
                   for r in ("r1", "r3"))
    sampled = [a for a in g.legal_actions().list() if isinstance(a, DodgeMove) and a.path]
    assert any(away(a.path[-1]) for a in sampled)
    side = DodgeMove("b1", ((11.9, 14.0, 0.0),))           # sideways, out of r1's Reach
    assert g.why_illegal(side) is None
    g.apply(side)
    assert "Engaged" not in g.models["b1"].states and not g.models["b1"].engaged_by
