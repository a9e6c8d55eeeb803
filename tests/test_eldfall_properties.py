"""Property tests over whole bot games (FlatGeometry): invariants and replay."""
import pytest

from rules.core.flat import FlatGeometry
from rules.core.log import EventLog, read_log
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall import BOTS, game_from_log, new_game
from rules.eldfall.actions import Activate, Declare, Move
from tests.eldfall_scenario import BOW, SWORD, unit

SPEAR = weapon_dict("Spear", "melee", 1, 10, 1, ["Knockback (1)"])
AXE = weapon_dict("Axe", "melee", 0, 12, 2, ["Armor-Piercing", "Poison I"])
JAV = weapon_dict("Javelin", "ranged", pw=10, stk=1, bands=[(0, 8, 0), (8, 16, -3)])
BOLT = spell_dict("Fire Bolt", "Sorcery", "Fire", 1, 12, 1, 24, bands=[(0, 12, 0), (12, 24, -3)])
WARD = spell_dict("Ember Ward", "Enchantment", "Fire", 1, target="ally", rng=12,
                  effect="The target gains +2 ARM.")
MEND = spell_dict("Mend", "Healing", "Fire", 1, target="ally", rng=8, effect="The target regains 1 HP.")


def roster():
    out = []
    kits = [[AXE], [SWORD, BOW], [SPEAR, weapon_dict("Shield", "shield")], [JAV, SWORD]]
    for i, x in enumerate((8, 14, 20, 26)):
        out.append(unit(f"r{i}", "red", x, 4, weapons=kits[i], leader=i == 0,
                        traits=["Watchful"] if i == 2 else []))
        out.append(unit(f"b{i}", "blue", x + 1, 32, weapons=kits[(i + 1) % 4], leader=i == 0))
    out.append(unit("rm", "red", 32, 4, weapons=[weapon_dict("Staff", "melee", 1, 7, 1)],
                    affinities=["Fire"], classes=["Mage"]))
    out[-1].spells = [BOLT, WARD, MEND]
    return out


def table():
    return FlatGeometry((36, 36), boxes=[("wall", 12, 16, 16, 17, 3), ("crate", 22, 18, 23, 19, 1.2)])


def play(seed, kinds=("random", "random"), log=None, check=None, rounds=5):
    units = roster()
    geo = table()
    for u in units:
        geo.add_model(u, u.at, u.facing)
    g = new_game(units, geo, seed=seed, scene_info={"table": [36, 36]}, log=log,
                 settings={"rounds": rounds})
    bots = {"red": BOTS[kinds[0]](seed), "blue": BOTS[kinds[1]](seed + 7)}
    while not g.is_over:
        a = bots[g.decider()].choose(g)
        before = {m.id: m.states for m in g.models.values()}
        if check:
            check(g, a, before)
        g.apply(a)
        for m in g.models.values():
            assert m.ap >= 0, f"{m.id} has {m.ap} AP"
    return g


def _invariants(g, action, before):
    mid = getattr(action, "model", None)
    if mid is not None and isinstance(action, (Activate, Move, Declare)):
        st = g.models[mid].states
        assert "Dead" not in st, f"Dead {mid} acts: {action}"
        if isinstance(action, Declare) and g.pending[0] == "reaction":
            assert "Incapacitated" not in st, f"Incapacitated {mid} reacts: {action}"


def _state_events_never_duplicate(g):
    held = {u.id: set(u.states) for u in g.units}
    for ev in g.events:
        if ev.kind == "states":
            m = ev.data["model"]
            for s in ev.data["added"]:
                assert s not in held[m], f"{m} gained {s} twice (event {ev.seq})"
                held[m].add(s)
            for s in ev.data["removed"]:
                assert s in held[m]
                held[m].discard(s)
        if ev.kind in ("activate",):
            assert "Dead" not in held[ev.data["model"]]
        if ev.kind == "declare" and ev.data.get("role") == "reactive":
            assert not ({"Dead", "Incapacitated"} & held[ev.data["model"]])


@pytest.mark.parametrize("seed,kinds,rounds", [(1, ("random", "random"), 5),
                                               (2, ("random", "random"), 5),
                                               (3, ("greedy", "random"), 3)])
def test_bot_games_keep_the_invariants_and_replay(seed, kinds, rounds, tmp_path):
    path = tmp_path / "game.jsonl"
    log = EventLog(path)
    g = play(seed, kinds, log=log, check=_invariants, rounds=rounds)
    log.close()
    assert g.is_over and g.outcome is not None
    _state_events_never_duplicate(g)
    header, events, warnings = read_log(path)
    assert not warnings and len(events) == len(g.events)
    again = game_from_log(header, events, table_for(header))
    assert again.state_hash() == g.state_hash()


def table_for(header):
    from rules.core.units import Unit
    geo = table()
    for d in header["units"]:
        u = Unit.from_dict(d)
        geo.add_model(u, u.at, u.facing)
    return geo


def test_undo_replays_a_prefix_and_a_torn_log_recovers(tmp_path):
    path = tmp_path / "g.jsonl"
    log = EventLog(path)
    g = play(5, ("random", "random"), log=log)
    log.close()
    header, events, _ = read_log(path)
    acts = [e["seq"] for e in events if e["kind"] == "action"]
    k = acts[len(acts) // 2]
    early = game_from_log(header, events[:k], table_for(header))
    assert sum(1 for e in early.events if e.kind == "action") == len(acts) // 2
    assert not early.is_over
    # the same prefix again gives the same hash (deterministic undo)
    assert game_from_log(header, events[:k], table_for(header)).state_hash() == early.state_hash()
    # tear the last line (a crash in the middle of a write)
    raw = path.read_bytes()
    path.write_bytes(raw[:-7])
    h2, ev2, warnings = read_log(path)
    assert len(ev2) == len(events) - 1 and "torn last line" in warnings[0]
    again = game_from_log(h2, ev2, table_for(h2))
    assert len(again.events) >= len(ev2) - 1


def test_same_seed_same_game():
    a = play(11, ("random", "random"))
    b = play(11, ("random", "random"))
    assert a.state_hash() == b.state_hash() and len(a.events) == len(b.events)
