"""Legends of Norova as a plug-in game: whole bot fights, logs and replay, the sample
characters and the two-game scene, action texts, bad data, the HUD, and the
package boundary (rules/norova imports only rules.core; rules/eldfall knows
nothing of it)."""
import ast
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import rules.norova as nv
from rules.core import EventLog, IllegalAction, LogError, Unit, read_log
from rules.core.flat import FlatGeometry
from rules.norova.actions import (Aid, Attack, Cast, EndTurn, Equip, Focus, Move, Perceive, Reload, Stand,
                                  ThrowPotion, Turn, UsePotion, UseSkill, Wait, parse)
from rules.norova.data import NorovaDataError, RuleData
from rules.norova.sheet import sheet_from_block
from test_norova_helpers import block, game, unit

ROOT = Path(__file__).resolve().parents[1]


def skirmish_units():
    return [
        unit("A1", "red", 5, 5, 0, offensive_power=3, skills=["power_strike"], traits={"focus": 3, "evade": 3},
             inventory={"healing_potion": 1}),
        unit("A2", "red", 5, 9, 0, equipment={"main": "shortbow"}, ammo={"arrow": 10}, bow_power=2,
             skills=["aimed_shot", "hide"], traits={"focus": 4}),
        unit("A3", "red", 3, 7, 0, spells=["firebolt", "mend", "flame_burst"], element="fire", runic_power=2,
             traits={"focus": 3}),
        unit("B1", "blue", 20, 5, 180, equipment={"main": "greataxe"}, offensive_power=3, traits={"evade": 2}),
        unit("B2", "blue", 20, 9, 180, equipment={"main": "shortsword", "off": "dagger"},
             abilities=["dual_wielding"], skills=["twin_strike"], offensive_power=2, traits={"focus": 2}),
        unit("B3", "blue", 22, 7, 180, spells=["shadow_bolt"], element="dark", runic_power=2,
             traits={"focus": 3}, equipment={"main": "crossbow"}, ammo={"bolt": 6}),
    ]


def flat_for(units, table=(30, 20)):
    g = FlatGeometry(table)
    for u in units:
        g.add(u.id, u.at[0], u.at[1], facing=u.facing, base=u.base, height=u.height)
    return g


def play(game_, kind_a, kind_b, seed):
    bots = {"red": nv.BOTS[kind_a](seed, side="red"), "blue": nv.BOTS[kind_b](seed + 1, side="blue")}
    n = 0
    while not game_.is_over:
        side = game_.active_side
        action = bots[side].choose(game_)
        assert action in game_.legal_actions(), f"{action} is not legal: {game_.why_illegal(action)}"
        game_.apply(action)
        n += 1
        assert n < 5000
    return n


# ---- whole fights -----------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_greedy_bots_fight_to_the_end(seed):
    us = skirmish_units()
    g = nv.new_game(us, flat_for(us), seed=seed)
    n = play(g, "greedy", "greedy", seed)
    assert g.is_over and g.outcome.termination.value == "elimination"
    loser = [s for s in ("red", "blue") if s != g.outcome.winner][0]
    assert all(not f.able for f in g.fighters.values() if f.side == loser)
    assert n > 10
    # every event of the fight reads as words (no "kind: key=value" fallback lines)
    from rules.norova.narrate import line
    raw = [ln for ln in (line(e) for e in g.events) if ln and ln.strip().split(":")[0].replace("_", "").isalpha()
           and "=" in ln and ":" in ln.split("=")[0]]
    assert not raw, raw[:3]


def test_random_bots_play_legal_actions_to_the_round_limit():
    us = skirmish_units()
    g = nv.new_game(us, flat_for(us), seed=5, settings={"max_rounds": 6})
    play(g, "random", "random", 5)
    assert g.is_over and g.round <= 7
    kinds = {e.kind for e in g.events}
    assert {"move", "turn_end", "round"} <= kinds


def test_every_legal_action_text_round_trips_in_a_game():
    us = skirmish_units()
    g = nv.new_game(us, flat_for(us), seed=2)
    bot = nv.BOTS["random"](2)
    seen = 0
    for _ in range(60):
        if g.is_over:
            break
        for a in g.legal_actions():
            assert parse(str(a)) == a
            seen += 1
        g.apply(bot.choose(g))
    assert seen > 200


def test_the_play_command_plays_the_arena_headless(tmp_path, capsys):
    """`eldfall play scenes/norova-arena.yaml --game norova --bots`: the real engine's
    geometry, the sample characters, a whole fight."""
    import yaml
    from tools.cli import main
    # the arena with two characters a side (the whole arena takes ~15 s of CPU here)
    doc = yaml.safe_load((ROOT / "scenes" / "norova-arena.yaml").read_text())
    doc["models"] = [m for m in doc["models"] if m["id"] in ("knight", "pyromancer", "brute", "harpy")]
    scene = tmp_path / "arena-small.yaml"
    scene.write_text(yaml.safe_dump(doc))
    log = tmp_path / "arena.jsonl"
    rc = main(["play", str(scene), "--game", "norova", "--bots", "--seed", "2", "--json", "--log", str(log)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["game"] == "norova" and out["outcome"]["termination"] == "elimination"
    header, events, warnings = read_log(log)
    assert not warnings and header["game"] == "norova"
    assert all("norova" in u["extra"] for u in header["units"])          # the sample sheets were read
    moves = [e["data"] for e in events if e["kind"] == "move" and e["data"]["moved"]]
    start = {u["id"]: u["at"] for u in header["units"]}
    assert any(abs(m["end"][1] - start[m["model"]][1]) > 3 for m in moves)   # they met on the table
    assert any(e["kind"] == "strike" and e["data"]["hit"] for e in events)


# ---- logs and replay ------------------------------------------------------------------
def test_the_log_replays_bit_for_bit(tmp_path):
    us = skirmish_units()
    g = nv.new_game(us, flat_for(us), seed=7)
    g.start_log(EventLog(tmp_path / "fight.jsonl"))
    play(g, "greedy", "random", 7)
    header, events, warnings = read_log(tmp_path / "fight.jsonl")
    assert not warnings and header["game"] == "norova"
    again = nv.game_from_log(header, events, flat_for([Unit.from_dict(u) for u in header["units"]]))
    assert again.state_hash() == g.state_hash() and again.outcome == g.outcome
    # undo: a prefix of the log gives an earlier state
    half = nv.game_from_log(header, events[: len(events) // 2], flat_for(us))
    assert not half.is_over and half.state_hash() != g.state_hash()


def test_a_tampered_log_is_refused(tmp_path):
    us = skirmish_units()
    g = nv.new_game(us, flat_for(us), seed=3)
    g.start_log(EventLog(tmp_path / "fight.jsonl"))
    for _ in range(12):
        g.apply(nv.BOTS["greedy"](3).choose(g))
    header, events, _ = read_log(tmp_path / "fight.jsonl")
    rolls = [e for e in events if e["kind"] == "roll" and e["seq"] > 20]
    rolls[0]["data"]["value"] = 21 - rolls[0]["data"]["value"] if rolls[0]["data"]["value"] != 10 else 9
    with pytest.raises(LogError, match="the replay gives"):
        nv.game_from_log(header, events, flat_for(us))
    header["game"] = "eldfall"
    with pytest.raises(LogError, match="not 'norova'"):
        nv.game_from_log(header, events, flat_for(us))


# ---- the sample characters and the scene ------------------------------------------------
@pytest.mark.parametrize("party", ["norova-party", "norova-foes"])
def test_the_sample_parties_load_and_their_sheets_are_valid(party):
    from engine.profiles import load_party
    profiles = load_party(party)
    data = RuleData()
    assert len(profiles) >= (4 if party == "norova-party" else 3)
    for name, prof in profiles.items():
        sheet = sheet_from_block(prof.extra["norova"], data, where=f"{party}#{name}")
        assert sheet.vitality > 0 and sheet.move > 0
        assert prof.stats["HP"] > 0                   # the Eldfall lines are there too


def test_the_two_game_scene_passes_eldfall_check(capsys):
    from tools.cli import main
    assert main(["check", str(ROOT / "scenes" / "norova-arena.yaml")]) == 0
    assert "valid" in capsys.readouterr().out


def test_an_eldfall_scene_plays_as_norova_by_conversion():
    from engine.scene import load_scene
    from tools.roster import units_from_scene
    scene = load_scene(ROOT / "scenes" / "arena.yaml")
    units = units_from_scene(scene)
    assert not any("norova" in u.extra for u in units)
    g = nv.new_game(units, flat_for(units, scene.table), seed=1)
    champ = g.f("red-champion")
    assert champ.sheet.vitality == 10 * 3 + 5 and champ.sheet.move == 5      # 10 x HP + ARM, SPD
    assert champ.main == "longsword"
    assert g.f("red-archer").main == "shortbow" and g.f("red-archer").ammo["arrow"] == 12
    assert g.f("red-mage").sheet.spells == ("firebolt",) and g.f("red-mage").sheet.element == "fire"


# ---- bad data ---------------------------------------------------------------------------------
def test_bad_settings_are_reported_one_line_each():
    with pytest.raises(NorovaDataError) as exc:
        RuleData({"facing": {"front_half_angle": "wide"}, "nonsense": 1})
    assert exc.value.problems == [
        "settings: facing.front_half_angle: must be a whole number, not 'wide'",
        "settings: nonsense: unknown setting (known: " + ", ".join(sorted(RuleData().rules)) + ")"]
    with pytest.raises(NorovaDataError, match="front and rear half angles"):
        RuleData({"facing": {"front_half_angle": 100, "rear_half_angle": 100}})


def test_a_bad_character_block_lists_every_problem_with_its_path():
    bad = block(traits={"focus": "high"}, equipment={"main": "greataxe", "off": "dagger"}, spells=["fireball"],
                move=0, colour="red")
    with pytest.raises(NorovaDataError) as exc:
        game([Unit("A", "red", extra={"norova": bad}), unit("B", "blue", 9, 9)])
    assert exc.value.problems == [
        "A.norova.colour: unknown key (known: vitality, soul, power, traits, offensive_power, bow_power, "
        "runic_power, runic_casting_speed, move, saves, dominant_hand, abilities, element, equipment, "
        "inventory, ammo, skills, spells)",
        "A.norova.traits.focus: must be a whole number, not 'high'",
        "A.norova.move: must be a positive number of spaces, not 0",
        "A.norova.equipment.off_hand: greataxe is two-handed, the off hand must be empty",
        "A.norova.spells: unknown spell 'fireball' (known: firebolt, frost_shard, flame_burst, shadow_bolt, "
        "mend, radiant_wave)"]


def test_a_fight_needs_two_sides():
    with pytest.raises(NorovaDataError, match="at least two sides"):
        game([unit("A", "red", 5, 5), unit("B", "red", 9, 9)])


def test_bad_action_texts():
    for text, why in (("fly A1", "unknown action 'fly'"), ("move A1 hop 1,2,0", "unknown mode 'hop'"),
                      ("move A1 walk 1,2", "a point is x,y,z"), ("attack A1 B2 left", "unknown hand 'left'"),
                      ("wait", "an action is"), ("attack A1 B2 main aid=A2", "aid is ally/hand/skill"),
                      ("end A1 now", "expected 0 argument")):
        with pytest.raises(ValueError, match=why):
            parse(text)


def test_illegal_actions_say_why():
    g = game([unit("A", "red", 5, 5), unit("B", "blue", 20, 5, 180)])
    for action, why in ((Attack("A", "Z", "main"), "no character 'Z'"),
                        (Cast("A", "firebolt", "B"), "does not know the spell 'firebolt'"),
                        (UseSkill("A", "hide"), "does not know the skill 'hide'"),
                        (Reload("A"), "holds no weapon that needs reloading"),
                        (Stand("A"), "not down"),
                        (Equip("A", "longsword", None), "already in hand"),
                        (Perceive("A", "B"), "B is not hidden"),
                        ("attack A B", "not a Norova action")):
        with pytest.raises(IllegalAction, match=why):
            g.apply(action)


# ---- actions as values --------------------------------------------------------------------------
coord = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
name = st.sampled_from(["A1", "B2", "knight", "red-archer"])
action_st = st.one_of(
    st.builds(Wait, name), st.builds(EndTurn, name), st.builds(Stand, name), st.builds(Reload, name),
    st.builds(Move, name, st.sampled_from(["walk", "sprint", "crawl", "fly", "climb"]),
              st.lists(st.tuples(coord, coord, coord), min_size=1, max_size=3).map(tuple),
              st.one_of(st.none(), st.floats(0, 360))),
    st.builds(Turn, name, st.floats(0, 360)),
    st.builds(Attack, name, name, st.sampled_from(["main", "off", "dual"]),
              st.one_of(st.none(), st.sampled_from(["twin_strike", "power_strike"])),
              st.lists(st.builds(Aid, name, st.sampled_from(["main", "off", "dual"]),
                                 st.one_of(st.none(), st.just("twin_strike"))), max_size=2).map(tuple)),
    st.builds(Cast, name, st.sampled_from(["firebolt", "mend"]), st.one_of(st.none(), name),
              st.lists(st.builds(Aid, name, st.none(), st.sampled_from(["frost_shard"])), max_size=2).map(tuple)),
    st.builds(ThrowPotion, name, st.just("healing_potion"), name),
    st.builds(UsePotion, name, st.just("healing_potion"), name),
    st.builds(Equip, name, st.one_of(st.none(), st.just("longsword")), st.one_of(st.none(), st.just("dagger"))),
    st.builds(Focus, name, name), st.builds(UseSkill, name, st.just("hide")), st.builds(Perceive, name, name))


@settings(max_examples=300, deadline=None)
@given(action_st)
def test_action_text_round_trips(a):
    assert parse(str(a)) == a


# ---- the view's questions ---------------------------------------------------------------------------
def test_the_hud_shows_the_four_action_slots():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180, vitality=100)])
    g.apply(Turn("A", 0))
    assert g.action_slots("A") == {"Attack": False, "Move": True, "Support": False, "Magic": False}
    lines = g.hud_lines("A")
    assert "Actions: Attack free  Move used  Support free  Magic free" in lines
    assert lines[0] == "Legends of Norova - round 1" and lines[1].startswith("Active: A (red)")
    assert "Vitality 30/30  Soul 10/10  Power 10/10" in lines
    # the standing character's status is not shown ("active" read as "its turn"); the fallen's is
    assert g.hud_lines()[2].startswith("A [A, red]  initiative")
    g.f("B").status = "dying"
    assert g.hud_lines("B")[2].startswith("B [B, blue] dying  initiative")


# ---- the package boundary ---------------------------------------------------------------------------
def _imports(folder: Path) -> set[str]:
    out = set()
    for p in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Import):
                out |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                out.add(node.module)
    return out


def test_norova_uses_only_rules_core_and_eldfall_knows_nothing_of_it():
    mods = _imports(ROOT / "rules" / "norova")
    assert not [m for m in mods if m.split(".")[0] in ("engine", "tools", "panda3d", "direct")]
    assert not [m for m in mods if m.startswith("rules.eldfall")]
    for p in (ROOT / "rules" / "eldfall").rglob("*.py"):
        assert "norova" not in p.read_text().lower(), p
    assert callable(nv.new_game) and callable(nv.game_from_log) and set(nv.BOTS) == {"random", "greedy"}


def test_cover_on_the_real_engine_blocks_the_attack_until_the_same_side():
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    from tools.roster import units_from_scene
    scene = load_scene(ROOT / "scenes" / "norova-arena.yaml")
    world = World(scene)
    g = nv.new_game(units_from_scene(scene, world), WorldGeometry(world), seed=1)
    g.geometry.place("ranger", (12, 4, 0), 90)         # the low wall (y 8.75-9.25, 1" high) is between
    g.geometry.place("brute", (12, 10.0, 0), 270)
    g.queue.insert(0, "ranger")
    why = g.why_illegal(Attack("ranger", "brute", "main"))
    assert why == "brute is covered by low-wall: ranger must be on the same side of it"
    g.geometry.place("ranger", (13, 13, 0), 270)       # now on the brute's side of the wall
    assert g.why_illegal(Attack("ranger", "brute", "main")) is None


def test_climbing_the_rock_on_the_real_engine_at_half_rate():
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    from tools.roster import units_from_scene
    scene = load_scene(ROOT / "scenes" / "norova-arena.yaml")
    world = World(scene)
    units = units_from_scene(scene, world)
    g = nv.new_game(units, WorldGeometry(world), seed=1)
    g.geometry.place("knight", (18.0, 6.0, 0.0), 0)     # the climbable rock: x 20-22, y 5-7, 1.5" high
    g.queue.insert(0, "knight")
    assert g.move_allowance("knight", "climb") == 3
    assert "more than the 3\" of this climb" in g.why_illegal(Move("knight", "climb", ((21.5, 6, 1.5),)))
    g.apply(Move("knight", "climb", ((20.9, 6, 1.5),)))
    assert g.geometry.position("knight")[2] == pytest.approx(1.5)


def test_a_flight_on_the_real_engine_passes_over_the_wall_a_walk_cannot():
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    from tools.roster import units_from_scene
    scene = load_scene(ROOT / "scenes" / "norova-arena.yaml")
    from tools.gameplay import scene_info
    world = World(scene)
    g = nv.new_game(units_from_scene(scene, world), WorldGeometry(world), seed=1,
                    scene_info=scene_info(scene))           # the arena allows flying
    # the ruined wall (x 10-14, y 15.75-16.25, 2.5" high) lies across the route
    g.geometry.place("harpy", (12.0, 17.5, 0.0), 270)
    g.queue.insert(0, "harpy")
    why = g.why_illegal(Move("harpy", "walk", ((12.0, 14.5, 0.0),)))
    assert why is not None and "illegal route" in why and "needs a climb move" in why
    assert g.why_illegal(Move("harpy", "fly", ((12.0, 14.5, 0.0),))) is None
    mv, allowance = g.move_check(Move("harpy", "fly", ((12.0, 14.5, 0.0),)))
    assert mv.distance == pytest.approx(3.0, abs=1e-6) and allowance == 12
    g.apply(Move("harpy", "fly", ((12.0, 14.5, 0.0),)))
    assert g.geometry.position("harpy") == pytest.approx((12.0, 14.5, 0.0), abs=1e-6)


def test_simulate_runs_norova_games_on_a_reused_table(capsys):
    from tools.cli import main
    args = ["simulate", "scenes/norova-arena.yaml", "--game", "norova", "--games", "2", "--seed", "4",
            "--bots", "random", "--set", "max_rounds=2", "--jobs", "1", "--json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "norova" and out["games"] == 2 and len(out["per_game"]) == 2
    assert out["per_game"][0]["state_hash"] != out["per_game"][1]["state_hash"]
