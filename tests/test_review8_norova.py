"""Review 8, Legends of Norova: the greedy bot walks round the scenery instead of
standing behind it to the round limit; a character low to the ground is not
"covered"; no Attack of Opportunity on a hidden crawler; a stopped move leaves
the base on the surface; a potion is not thrown to one who cannot catch it;
the narration of a failed spell and of a flight."""
from pathlib import Path

import pytest

import rules.norova as nv
from rules.core import Dice, Event, IllegalAction
from rules.norova.actions import Attack, EndTurn, Focus, Move, ThrowPotion, Turn, UseSkill
from rules.norova.bots import GreedyBot
from rules.norova.narrate import line
from test_norova_helpers import bot_turns, game, kinds, rolls, unit

ROOT = Path(__file__).resolve().parents[1]


def _stalls_without_the_detour(g, mover, monkeypatch):
    """What the bot did before the detour: no move at all (so it stood there round after round)."""
    with monkeypatch.context() as m:
        m.setattr(GreedyBot, "_detour", lambda self, *a: None)
        return GreedyBot(1).choose(g)


# ---- the greedy bot and a wall ---------------------------------------------------------
def test_the_greedy_bot_walks_round_a_wall_to_its_enemy(monkeypatch):
    wall = ("wall", 5, 10, 15, 10.5, 3.0)           # taller than the hitboxes: no walking over it
    g = game([unit("A", "red", 10, 9, 90), unit("B", "blue", 10, 11.6, 270)], boxes=[wall])
    g.dice = Dice(3)
    old = _stalls_without_the_detour(g, "A", monkeypatch)
    assert not isinstance(old, Move)                 # no straight move gets nearer: it stood there
    first = GreedyBot(1).choose(g)
    assert isinstance(first, Move) and len(first.route) >= 2      # a route with a corner, round the wall
    done = bot_turns(g, "A", lambda g: EndTurn(g.active_model), turns=3)
    assert isinstance(done[-1], Attack) and done[-1].target == "B"
    assert g.round <= 3


def test_the_greedy_bot_walks_round_the_ruined_wall_on_the_real_engine(tmp_path, monkeypatch):
    """The stall of `eldfall simulate scenes/norova-arena.yaml --game norova` (seeds 2 and 5
    ended at the round limit): a knight and a foe on the two sides of the ruined wall."""
    import yaml
    from tools import gameplay
    doc = yaml.safe_load((ROOT / "scenes" / "norova-arena.yaml").read_text())
    doc["models"] = [m for m in doc["models"] if m["id"] in ("knight", "ghoul")]
    scene = tmp_path / "wall.yaml"
    scene.write_text(yaml.safe_dump(doc))
    _, g = gameplay.new_game(str(scene), "norova", 4)
    g.geometry.place("knight", (12.0, 14.6, 0.0), 90)     # the ruined wall: x 10-14, y 15.75-16.25, 2.5" high
    g.geometry.place("ghoul", (12.0, 17.4, 0.0), 270)
    if g.active_model != "knight":
        g.apply(EndTurn(g.active_model))
    assert g.active_model == "knight"
    assert not isinstance(_stalls_without_the_detour(g, "knight", monkeypatch), Move)
    done = bot_turns(g, "knight", lambda g: EndTurn(g.active_model), turns=3)
    assert any(isinstance(a, Move) for a in done)
    assert isinstance(done[-1], Attack) and done[-1].target == "ghoul"


# ---- covered: an obstacle between, not a character low to the ground ----------------------
def test_a_fallen_or_crawling_character_in_the_open_can_be_attacked():
    g = game([unit("A", "red", 10, 10, 0), unit("B", "blue", 11.5, 10, 180, states=["Prone"])])
    assert g.f("B").prone
    assert g.why_illegal(Attack("A", "B", "main")) is None
    assert g.why_illegal(Focus("A", "B")) is None
    # a crawler (low, not fallen) in the open
    g = game([unit("B", "blue", 14, 10, 180), unit("A", "red", 10, 10, 90)])
    g.apply(Move("B", "crawl", ((12.0, 10, 0),), 180.0))
    g.apply(EndTurn("B"))
    assert g.f("B").low and g.active_model == "A"
    g.apply(Turn("A", 0))
    assert g.why_illegal(Attack("A", "B", "main")) is None


def test_hiding_needs_an_obstacle_not_just_lying_low():
    g = game([unit("A", "red", 12, 5, 0, skills=["hide"], states=["Prone"]), unit("B", "blue", 5, 5, 0)])
    with pytest.raises(IllegalAction, match="sees A in the open"):
        g.apply(UseSkill("A", "hide"))


# ---- Attacks of Opportunity ------------------------------------------------------------------
def _aoo_setup(hidden: bool):
    us = [unit("A", "red", 5, 5, 0, states=["Hidden"] if hidden else []),
          unit("B", "blue", 8, 7, 270)]             # B faces down the table, A crosses in front of it
    return game(us)


def test_a_hidden_crawler_draws_no_attack_of_opportunity():
    g = _aoo_setup(hidden=True)
    rolls(g, [15] * 10)
    evs = g.apply(Move("A", "crawl", ((7.9, 5.0, 0),), 0.0))
    assert not kinds(evs, "aoo") and g.f("A").hidden
    assert kinds(evs, "move")[0]["stopped"] is False
    # seen, the same crawl draws the attack
    g = _aoo_setup(hidden=False)
    rolls(g, [15] * 10)
    evs = g.apply(Move("A", "crawl", ((7.9, 5.0, 0),), 0.0))
    assert kinds(evs, "aoo") and kinds(evs, "move")[0]["stopped"] is True
    # a hidden character that walks is no longer hidden as it goes: the attack comes
    g = _aoo_setup(hidden=True)
    rolls(g, [15] * 10)
    evs = g.apply(Move("A", "walk", ((7.9, 5.0, 0),), 0.0))
    assert kinds(evs, "aoo") and not g.f("A").hidden


def test_a_move_stopped_on_the_low_wall_leaves_the_base_on_top_of_it():
    """The real engine: an AoO stops a walk over the low wall (1" high) with the
    base over the wall: it stands on the wall, not inside it at the route's z."""
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    from tools.roster import units_from_scene
    scene = load_scene(ROOT / "scenes" / "norova-arena.yaml")
    world = World(scene)
    g = nv.new_game(units_from_scene(scene, world), WorldGeometry(world), seed=0)
    mover = g.active_model
    g.geometry.place(mover, (12, 7.0, 0), 90)        # the low wall: x 9.5-14.5, y 8.75-9.25
    g.geometry.place("knight", (12, 11.3, 0), 270)   # a longsword (1") facing the mover
    g.dice = Dice.fixed([15] * 8)
    evs = g.apply(Move(mover, "walk", ((12, 10.0, 0.0),), 90.0))
    (aoo,) = kinds(evs, "aoo")
    assert aoo["model"] == "knight" and 8.75 < aoo["at"][1] < 9.25
    x, y, z = g.geometry.position(mover)
    assert z == pytest.approx(g.geometry.ground(x, y)[2], abs=1e-3) and z > 0.9
    assert kinds(evs, "move")[0]["end"][2] == pytest.approx(z, abs=1e-6)


# ---- potions ---------------------------------------------------------------------------------
def test_no_potion_is_thrown_to_a_dying_ally():
    g = game([unit("A", "red", 5, 5, 0, inventory={"healing_potion": 1}), unit("C", "red", 8, 5, 180),
              unit("B", "blue", 20, 5, 180)])
    g.f("C").vitality, g.f("C").status = 0, "dying"
    why = g.why_illegal(ThrowPotion("A", "healing_potion", "C"))
    assert why == "C is dying: it cannot catch a potion"


# ---- narration ----------------------------------------------------------------------------------
def test_a_failed_spell_reads_as_failed_and_a_flight_as_flies():
    g = game([unit("C", "red", 5, 5, 0, spells=["firebolt"], runic_power=2), unit("B", "blue", 9, 5, 180)])
    rolls(g, [2])                                    # the spell's roll: 2 + 0 < 12
    evs = g.apply(nv.parse_action("cast C firebolt B"))
    (spell,) = [e for e in evs if e.kind == "spell"]
    assert line(spell) == "   C casts firebolt on B: it fails"
    assert not kinds(evs, "damage")
    g = game([unit("C", "red", 5, 5, 0, spells=["firebolt"], runic_power=2), unit("B", "blue", 9, 5, 180)])
    rolls(g, [15, 5, 15])                            # success, no critical, B's Evade succeeds
    evs = g.apply(nv.parse_action("cast C firebolt B"))
    (spell,) = [e for e in evs if e.kind == "spell"]
    assert line(spell) == "   C casts firebolt on B"
    fly = Event("move", {"model": "H", "mode": "fly", "moved": True, "end": [1, 2, 0], "facing": 90.0}, 0)
    assert line(fly) == "   H flies to (1.00, 2.00) facing 90"


def test_an_unknown_movement_mode_is_refused_with_a_reason():
    # an Eldfall mode name in a Norova log or a view bug: a reason, not a KeyError
    g = game([unit("A", "red", 10, 10, 0), unit("B", "blue", 20, 10, 180)])
    why = g.why_illegal(Move("A", "run", ((12.0, 10.0, 0.0),)))
    assert why is not None and "unknown movement mode 'run'" in why
    assert "sprint" in why


def test_a_check_line_shows_what_the_trait_and_modifiers_added_and_why():
    from rules.core.game import Event
    ev = Event("check", {"model": "ghoul", "check": "evade", "trait": "evade", "natural": 13, "total": 16,
                         "target": 12, "success": True, "critical": None,
                         "why": "attack strike 1 from pyromancer (side)"})
    assert line(ev) == ("     ghoul evade (attack strike 1 from pyromancer (side)): "
                        "d20 13 +3 evade -> 16 vs 12: success")
