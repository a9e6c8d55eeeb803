"""Session 10 review of the Eldfall rules against the user's pages, table by
table: each test plays a position through the public API and checks one rule
sentence of seeds/eldfall-*.txt or eldfall-facts.md."""
from rules.core.units import spell_dict
from rules.eldfall.actions import Activate, Declare, EndTurn, Move
from tests.eldfall_scenario import kinds, setup, unit

BASE = 32 / 25.4                     # a Medium base, inches


# --- Assist: "While Engaged: may only Assist self" (both roles) ---------------------
MEND = spell_dict("Mend", "Sorcery", "Fire", 0, target="ally", rng=12, effect="+1 ARM")


def test_an_engaged_reactor_may_assist_only_itself():
    # Reactions page, Engaged row: "Melee Attack, Dodge, Assist (self only)"; the
    # Reactive Role's "may target other allied models" does not lift it
    r1 = unit("r1", "red", 10, 10)
    r2 = unit("r2", "red", 14, 8)
    b1 = unit("b1", "blue", 10, 10 + BASE + 0.2, weapons=[], affinities=["Fire"])
    b1.spells = [MEND]
    b2 = unit("b2", "blue", 6, 7)                   # in b1's Front arc, in range
    g = setup([r1, r2, b1, b2], [5] * 10)
    assert "Engaged" in g.models["b1"].states
    g.apply(Activate("r2"))
    g.apply(Move("r2", "idle"))
    assert g.pending == ("reaction", "blue")
    other = Declare("b1", "Assist", spell="Mend", targets=(("b2", 1),))
    assert "only Assist itself" in (g.why_illegal(other) or "")
    assert g.why_illegal(Declare("b1", "Assist", spell="Mend", targets=(("b1", 1),))) is None
    # a reactor that is not Engaged may still Assist another ally
    g = setup([r1, r2, unit("b1", "blue", 8, 13.5, weapons=[], affinities=["Fire"]), b2], [5] * 10)
    g.models["b1"].unit.spells = [MEND]
    assert "Engaged" not in g.models["b1"].states
    g.apply(Activate("r2"))
    g.apply(Move("r2", "idle"))
    assert g.why_illegal(Declare("b1", "Assist", spell="Mend", targets=(("b2", 1),))) is None


# --- Panicked: "If the model would be moved past the edge: it is removed" -----------
def _panicked_runner(boxes=(), blocker=None):
    r1 = unit("r1", "red", 4, 18, states=["Panicked"])
    us = [r1, unit("b1", "blue", 30, 30)]
    if blocker is not None:
        us.append(unit("b2", "blue", *blocker))
    g = setup(us, [20] + [5] * 20, boxes=boxes)      # 20: the Morale roll fails
    g.apply(Activate("r1"))
    return g


def test_a_panicked_run_does_not_go_through_a_wall_off_the_table():
    # the left edge is 3.4" from the base, the Run 10": nothing in the way, it flees
    g = _panicked_runner()
    assert g.models["r1"].removed
    # a 5" wall between it and the edge stops the run: it runs as far as it can, up to
    # the wall (docs/rulings.md "Panicked forced Run"; it stopped at 4 - 10/8 = 2.75, the
    # halved run, before the thirteenth review), and stays
    g = _panicked_runner(boxes=[("wall", 1.6, 10, 2.0, 26, 5.0)])
    m = g.models["r1"]
    assert not m.removed and m.on_table
    x, y, _ = g.geo.position("r1")
    touching = 2.0 + g.models["r1"].unit.base / 2     # the base against the wall's face
    assert y == 18.0 and touching <= x <= touching + 0.05, x
    assert not kinds(g.events, "removed")


def test_a_panicked_run_stops_at_an_enemy_in_base_contact():
    # "Movement ends at once on base contact with an enemy": an enemy between the
    # model and the edge stops it there, so it is not moved past the edge
    g = _panicked_runner(blocker=(4 - BASE - 1.5, 18))
    m = g.models["r1"]
    assert not m.removed and m.on_table
    mv = [e.data for e in kinds(g.events, "movement")][-1]
    assert mv["stopped_by"] == "b2"


# --- Incapacitated: "Triggered when the model's HP reaches 0" ----------------------
def test_a_model_set_up_incapacitated_regains_1_hp_at_its_recovery_check():
    # Recovery Check: "Success: Regains 1 HP" -- not its whole profile HP back
    r1 = unit("r1", "red", 10, 10, states=["Incapacitated", "Crouched"])
    g = setup([r1, unit("r2", "red", 20, 10), unit("b1", "blue", 30, 30)], [5] * 10, first="blue")
    assert g.models["r1"].hp == 0
    g.apply(EndTurn("blue"))                          # red's Strategic Phase: T 12, roll 5
    m = g.models["r1"]
    assert "Incapacitated" not in m.states and "Weakened" in m.states
    assert m.hp == 1


def test_a_model_set_up_with_0_hp_is_incapacitated():
    r3 = unit("r3", "red", 10, 10, stats={"HP": 0})
    g = setup([r3, unit("r2", "red", 20, 10), unit("b1", "blue", 30, 30)], [20] * 10, first="blue")
    m = g.models["r3"]
    assert {"Incapacitated", "Crouched"} <= m.states      # "immediately enters Crouched"
    assert g.why_illegal(Activate("r3")) is not None or g.pending[1] != "red"
    g.apply(EndTurn("blue"))                               # red: its Recovery Check fails (20)
    assert "Incapacitated" in g.models["r3"].states
    assert "cannot activate" in g._why_not_activate("r3")


# --- Ritual: "Creatures summoned by a caster are removed from the field when the
# caster becomes Incapacitated or Dead" -- in the middle of a Resolution Step -----
def _summoner_killed(reactor, target):
    """r1 Death Blows the Incapacitated summoner b1 while ``reactor`` Assists ``target``."""
    r1 = unit("r1", "red", 10, 10)
    b1 = unit("b1", "blue", 10, 10 + BASE, states=["Incapacitated", "Crouched"])
    s1 = unit("s1", "blue", 14, 12, facing=90, weapons=[], affinities=["Fire"],
              extra={"summoned_by": "b1"})
    b2 = unit("b2", "blue", 16, 16, weapons=[], affinities=["Fire"])     # they see each other
    s1.spells = [MEND]
    b2.spells = [MEND]
    g = setup([r1, b1, s1, b2], [5] * 20)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare(reactor, "Assist", spell="Mend", targets=((target, 1),)))
    assert g.pending == ("reaction", "blue")
    from rules.eldfall.actions import Pass
    g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Death Blow", targets=(("b1", 1),)))
    return g, ev


def test_a_creature_removed_with_its_summoner_does_not_resolve_its_reaction():
    # the Death Blow makes b1 Dead, s1 leaves the table; its Assist (declared in
    # the Reaction Step) is void, not a crash
    g, ev = _summoner_killed("s1", "b2")
    assert "Dead" in g.models["b1"].states and g.models["s1"].removed
    void = [e.data for e in kinds(ev, "reaction_void")]
    assert void and void[0]["model"] == "s1"
    assert "ARM" not in str(g.models["b2"].enchantments) and g.pending == ("tactical", "red")


def test_an_assist_on_a_creature_removed_with_its_summoner_does_nothing():
    g, ev = _summoner_killed("b2", "s1")
    assert g.models["s1"].removed
    void = [e.data for e in kinds(ev, "reaction_void")]
    assert void and void[0]["model"] == "b2" and "s1" in void[0]["why"]
    assert not [e for e in kinds(ev, "check") if e.data.get("model") == "b2"]   # no casting roll
