"""Every table of the Eldfall seed pages, as table-driven tests.

The rows are parsed from ``<repo>/../shared/seeds`` when present, else from
the verbatim transcription in ``eldfall_seed_transcription.py`` (see
``eldfall_seed_tables.py``). Each test names the page and section it checks.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if str(Path(__file__).resolve().parent) not in sys.path:     # the seed-table helper beside this file
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from eldfall_seed_tables import PAGES, SEEDS_DIR, parse_page, page_tables, seeds_present, table
from rules.eldfall import availability as av
from rules.eldfall.availability import (ACTIONS, ATTACK_ACTIONS, NORMAL_ACTIONS, SPECIAL_ACTIONS,
                                        allowed_actions, allowed_movements, availability_table,
                                        strike_cap, target_restrictions, why_not)
from rules.eldfall.table_settings import TableDataError, TableSettings

ACTIONS_PAGE = "eldfall-actions.txt"
ALL = frozenset(ACTIONS)


# --------------------------------------------------------------------------- helpers

def split_top(cell: str) -> list[str]:
    """Split a cell on commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in cell:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def action_names(cell: str) -> frozenset[str] | None:
    """The actions a cell of an availability table names.

    "All ..." -> every action (None: "no restriction"); "—" -> none; "Attack"
    -> the three attack actions; "X (qualifier)" -> X. Phrases that name no
    action (e.g. "Engage others") are ignored.
    """
    cell = cell.strip()
    if cell in ("—", "-", "--", ""):
        return frozenset()
    if re.match(r"^All\b(?! other)", cell):
        return None
    names: set[str] = set()
    for part in split_top(cell.replace(" or ", ", ")):
        base = re.sub(r"\s*\(.*\)\s*$", "", part).strip()
        base = re.sub(r"\s+only$", "", base)
        if base == "Attack":
            names |= ATTACK_ACTIONS
        elif base in ACTIONS:
            names.add(base)
    return frozenset(names)


# --------------------------------------------------------------------------- the seeds themselves

def test_every_page_has_its_tables():
    counts = {p: len(page_tables(p)) for p in PAGES}
    assert counts == {"eldfall-actions.txt": 8, "eldfall-actions-attack-section.txt": 2,
                      "eldfall-reactions.txt": 2, "eldfall-states.txt": 2}


@pytest.mark.skipif(not seeds_present(), reason="seed pages not beside the clone")
@pytest.mark.parametrize("page", PAGES)
def test_transcription_matches_seeds(page):
    from eldfall_seed_transcription import TRANSCRIPTION
    assert parse_page(page, TRANSCRIPTION[page]) == parse_page(page, (SEEDS_DIR / page).read_text(encoding="utf-8"))


def test_attack_section_repeats_the_actions_page():
    """The attack-section page is a repeat: its tables must equal the Actions page's."""
    full = {t.heading: t for t in page_tables(ACTIONS_PAGE)}
    for t in page_tables("eldfall-actions-attack-section.txt"):
        assert t.header == full[t.heading].header
        assert t.rows == full[t.heading].rows


# --------------------------------------------------------------------------- By Role

BY_ROLE = table(ACTIONS_PAGE, "By Role").dicts()


def test_by_role_lists_the_thirteen_actions_in_order():
    assert tuple(r["Action"] for r in BY_ROLE) == ACTIONS
    assert len(ACTIONS) == 13


@pytest.mark.parametrize("row", BY_ROLE, ids=lambda r: r["Action"])
def test_by_role(row):
    action = row["Action"]
    active_ok = action in allowed_actions("active", "Idle", frozenset())
    reactive_ok = action in allowed_actions("reactive", None, frozenset())
    assert active_ok == (row["Active Role"] == "✓")
    assert reactive_ok == (row["Reactive Role"] == "✓")
    table_row = next(r for r in availability_table()["by_role"] if r["action"] == action)
    assert table_row["notes"] == row["Notes"]
    assert table_row["kind"] == ("special" if "Special Action" in row["Notes"] else "normal")


def test_special_actions_are_the_three_marked_special():
    marked = {r["Action"] for r in BY_ROLE if "Special Action" in r["Notes"]}
    assert SPECIAL_ACTIONS == marked == {"Issue a Duel", "Ritual", "Uncover"}
    assert NORMAL_ACTIONS == ALL - marked


def test_trade_as_reaction_is_a_setting():
    assert "Trade" not in allowed_actions("reactive", None, frozenset())
    assert "Trade" in allowed_actions("reactive", None, frozenset(),
                                      settings=TableSettings(trade_as_reaction=True))
    assert "Trade" in allowed_actions("reactive", None, frozenset(), settings={"trade_as_reaction": True})
    assert "not a valid Reaction" in why_not("reactive", None, frozenset(), "Trade")


@pytest.mark.parametrize("row", BY_ROLE, ids=lambda r: r["Action"])
def test_reactive_strike_is_one(row):
    action = row["Action"]
    if "Reactive STK = 1" in row["Notes"]:
        assert strike_cap("reactive", action, frozenset()) == 1
        assert strike_cap("active", action, frozenset()) is None


# --------------------------------------------------------------------------- Run / Special Movement Restriction

BY_MOVEMENT = table(ACTIONS_PAGE, "Run / Special Movement Restriction").dicts()


def movement_cell(cell: str) -> frozenset[str]:
    if cell == "All Normal Actions":
        return NORMAL_ACTIONS
    if cell.startswith("All Normal Actions + Special Actions"):
        return NORMAL_ACTIONS | SPECIAL_ACTIONS
    if cell == "Nothing only":
        return frozenset({"Nothing"})
    raise AssertionError(f"unexpected cell {cell!r}")


def test_by_movement_covers_every_movement():
    assert sorted(r["Movement Declared"] for r in BY_MOVEMENT) == sorted(av.MOVEMENTS)


@pytest.mark.parametrize("row", BY_MOVEMENT, ids=lambda r: r["Movement Declared"])
def test_by_movement(row):
    movement = row["Movement Declared"]
    expected = movement_cell(row["Allowed Actions"])
    assert allowed_actions("active", movement, frozenset()) == expected
    forbidden = row["Forbidden Actions"]
    if forbidden == "All other Actions":
        assert not (ALL - expected) & allowed_actions("active", movement, frozenset())
    else:
        assert forbidden == "—"
    for action in ALL - expected:
        assert why_not("active", movement, frozenset(), action)


def test_key_rule_run_then_nothing():
    """Activation Sequence key rule: Run in Step 2 -> only Nothing in Step 4."""
    assert allowed_actions("active", "Run", frozenset()) == {"Nothing"}
    assert why_not("active", "Run", frozenset(), "Melee Attack") == "Run was declared: only Nothing is allowed"


# --------------------------------------------------------------------------- By State

BY_STATE = table(ACTIONS_PAGE, "By State").dicts()


def state_of(cell: str) -> tuple[str, str | None]:
    m = re.match(r"^(\w+)(?:\s*\((.*)\))?$", cell)
    return m.group(1), m.group(2)


def expected_for_state(name: str, allowed_cell: str, settings: TableSettings) -> frozenset[str]:
    names = action_names(allowed_cell)
    if names is None:
        return ALL
    out = set(names)
    if out:
        out.add("Nothing")                       # "Nothing: Always available" (By Role)
    if name == "Engaged" and settings.engaged_melee_spells:
        out.add("Spell Attack")                  # a melee-type spell attack is a Melee Attack
    return frozenset(out)


@pytest.mark.parametrize("row", BY_STATE, ids=lambda r: r["State"])
@pytest.mark.parametrize("settings", [TableSettings(), TableSettings(engaged_melee_spells=False)],
                         ids=["default", "no-engaged-spells"])
def test_by_state(row, settings):
    name, qualifier = state_of(row["State"])
    st = frozenset({name})
    if name == "Panicked":
        if "Reactive" in qualifier:
            got = allowed_actions("reactive", None, st, panic_failed=True, settings=settings)
            assert got == action_names(row["Allowed Actions"]) == {"Dodge", "Nothing"}
            assert "toward the nearest field edge" in target_restrictions(
                "reactive", st, panic_failed=True)["Dodge"]
        else:
            assert row["Allowed Actions"] == "Forced Run toward edge"
            assert allowed_movements(st, panic_failed=True) == {"Run"}
            assert allowed_actions("active", "Run", st, panic_failed=True) == {"Nothing"}
            for m in ("Idle", "Walk", "Climb", "Jump"):
                assert allowed_actions("active", m, st, panic_failed=True) == frozenset()
        # a passed Morale roll changes nothing
        assert allowed_actions("active", "Idle", st) == ALL
        return
    expected = expected_for_state(name, row["Allowed Actions"], settings)
    movement = "Idle" if "Idle" in allowed_movements(st) else None
    if movement is None:                          # cannot move at all: cannot activate
        assert expected == frozenset()
        assert allowed_actions("active", "Idle", st, settings=settings) == frozenset()
    else:
        assert allowed_actions("active", movement, st, settings=settings) == expected
    react = allowed_actions("reactive", None, st, settings=settings)
    assert react == expected & allowed_actions("reactive", None, frozenset(), settings=settings)
    forbidden = row["Forbidden Actions"]
    if forbidden.startswith("All other"):
        named = ALL - expected
    elif forbidden.startswith("All Actions"):
        named = ALL
    else:
        named = action_names(forbidden) or frozenset()
    assert not named & allowed_actions("active", "Idle", st, settings=settings)
    assert not named & react
    # qualifiers of the Allowed cell
    if re.search(r"Assist \(self", row["Allowed Actions"]):
        assert "self" in target_restrictions("active", st)["Assist"]
    cap = re.search(r"STK (?:capped at|=) (\d)", row["Allowed Actions"])
    if cap:
        melee_only = "Melee STK" in row["Allowed Actions"]
        assert strike_cap("active", "Melee Attack", st) == int(cap.group(1))
        assert strike_cap("active", "Ranged Attack", st) == (None if melee_only else int(cap.group(1)))


def test_by_state_row_text_is_exposed_for_the_hud():
    rows = {r["state"]: r for r in availability_table()["by_state"]}
    for row in BY_STATE:
        name, _ = state_of(row["State"])
        if name == "Panicked":
            continue
        assert rows[name]["text_allowed"] == row["Allowed Actions"]
        assert rows[name]["text_forbidden"] == row["Forbidden Actions"]


def test_states_combine_by_intersection():
    assert allowed_actions("active", "Idle", {"Engaged", "Blinded"}) == {"Assist", "Dodge", "Nothing"}
    assert allowed_actions("active", "Idle", {"Engaged", "Immobilized"}) == {"Dodge", "Nothing"}
    assert allowed_actions("active", "Walk", {"Crouched", "Shrouded"}) == \
        {"Melee Attack", "Ranged Attack", "Spell Attack", "Dodge", "Nothing"}
    assert allowed_actions("active", "Idle", {"Crouched", "Dead"}) == frozenset()


def test_shrouded_setting_any():
    s = TableSettings(shrouded_actions="any")
    assert allowed_actions("active", "Idle", {"Shrouded"}, settings=s) == ALL
    assert "Trade" not in allowed_actions("active", "Idle", {"Shrouded"})


def test_special_actions_need_idle_and_active_role():
    for m in ("Walk", "Run", "Climb", "Jump"):
        assert not SPECIAL_ACTIONS & allowed_actions("active", m, frozenset())
    assert SPECIAL_ACTIONS <= allowed_actions("active", "Idle", frozenset())
    assert not SPECIAL_ACTIONS & allowed_actions("reactive", None, frozenset())
    assert why_not("active", "Walk", frozenset(), "Ritual") == "Special Actions require Idle in the Movement Step"


# --------------------------------------------------------------------------- movements by state

SUMMARY = table("eldfall-states.txt", "Summary Table").dicts()


@pytest.mark.parametrize("row", SUMMARY, ids=lambda r: r["State"])
def test_movement_column(row):
    name = row["State"]
    got = allowed_movements({name})
    cell = row["Movement"]
    if cell in ("Normal", "Halved SPD", "Double SPD; over obstacles"):
        assert got == set(av.MOVEMENTS)
    elif cell == "Walk or Idle only":
        assert got == {"Walk", "Idle"}
    elif cell.startswith("Idle or Walk"):
        assert got == {"Idle", "Walk"}
    elif cell == "None":
        assert got == {"Idle"}                    # declares Idle: no movement at all
        assert allowed_actions("active", "Walk", {name}) == frozenset()
    elif cell == "—":
        assert got == frozenset()
    elif name == "Panicked":
        assert got == set(av.MOVEMENTS)           # only a failed roll forces the Run
        assert allowed_movements({name}, panic_failed=True) == {"Run"}
    else:
        raise AssertionError(f"unexpected cell {cell!r}")


def test_engaged_walk_goes_toward_the_engager():
    assert "directly toward" in av.movement_constraints({"Engaged", "Slowed"})["Engaged"]
    assert av.movement_constraints({"Slowed"}) == {}


def test_movement_outside_the_states_allowance_is_illegal():
    assert allowed_actions("active", "Run", {"Engaged"}) == frozenset()
    assert "Run may not be declared while Engaged" in why_not("active", "Run", {"Engaged"}, "Nothing")


def test_panicked_and_engaged_declares_idle_and_dodge():
    st = {"Panicked", "Engaged"}
    assert allowed_movements(st, panic_failed=True) == {"Idle"}
    assert allowed_actions("active", "Idle", st, panic_failed=True) == {"Dodge"}
    # without a failed roll, by default, nothing is forced
    assert "Melee Attack" in allowed_actions("active", "Idle", st)
    s = TableSettings(panicked_engaged_needs_failed_roll=False)
    assert allowed_actions("active", "Idle", st, settings=s) == {"Dodge"}


def test_panicked_crouched_stands_up_to_run():
    f = av.forced_declaration({"Panicked", "Crouched"}, panic_failed=True)
    assert f.movement == "Run" and f.cancels_crouched and f.toward_edge
    assert allowed_actions("active", "Run", {"Panicked", "Crouched"}, panic_failed=True) == {"Nothing"}


def test_deep_water_environment():
    env = {"deep-water"}
    got = allowed_actions("active", "Idle", frozenset(), environment=env)
    assert not got & (ATTACK_ACTIONS | {"Assist", "Ritual"})
    assert "Dodge" in got
    assert "Jump" not in allowed_movements(frozenset(), environment=env)


def test_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="role"):
        allowed_actions("passive", None, frozenset())
    with pytest.raises(ValueError, match="movement"):
        allowed_actions("active", "Fly", frozenset())
    with pytest.raises(ValueError, match="None for a reaction"):
        allowed_actions("reactive", "Walk", frozenset())
    with pytest.raises(ValueError, match="unknown state"):
        allowed_actions("active", "Idle", {"Sleepy"})
    with pytest.raises(ValueError, match="not Panicked"):
        allowed_actions("active", "Run", frozenset(), panic_failed=True)
    assert why_not("active", "Idle", frozenset(), "Fly") .startswith("unknown action")


def test_settings_are_validated():
    with pytest.raises(TableDataError) as e:
        TableSettings.from_mapping({"trade_as_reaction": "yes", "nope": 1, "shrouded_actions": "some"})
    msg = str(e.value)
    assert "settings.trade_as_reaction: must be true or false" in msg
    assert "settings.nope: unknown setting" in msg
    assert "settings.shrouded_actions: must be one of table, any" in msg


# --------------------------------------------------------------------------- States: Summary Table

from rules.eldfall import conditions as cond  # noqa: E402

STAT_WORDS = {"Stamina": "STA"}
BASE = {"STA": 3, "SPD": 10, "ARM": 10, "HP": 3, "OFF": 10, "DEF": 10, "ACC": 10, "INT": 10,
        "AG": 10, "T": 10, "M": 10, "STK": 3}


def test_summary_lists_the_sixteen_states_and_petrified_is_added():
    names = [r["State"] for r in SUMMARY]
    assert len(names) == 16
    assert cond.STATES == tuple(names) + ("Petrified",)
    assert av.KNOWN_STATES == cond.STATES


@pytest.mark.parametrize("row", SUMMARY, ids=lambda r: r["State"])
def test_summary_can_activate_and_react(row):
    st = {row["State"]}
    assert cond.can_activate(st) == row["Can Activate?"].startswith("Yes")
    assert cond.can_react(st) == row["Can React?"].startswith("Yes")
    if row["Can Activate?"] == "No":
        assert cond.allowed_movements(st) == frozenset()
        assert allowed_actions("active", "Idle", st) == frozenset()
        assert allowed_actions("reactive", None, st) == frozenset()
    info = cond.state_info(row["State"])["summary"]
    assert info == {"can_activate": row["Can Activate?"], "can_react": row["Can React?"],
                    "movement": row["Movement"], "actions": row["Actions Available"],
                    "stats": row["Key Stat Changes"], "removed_by": row["Removed By"]}


@pytest.mark.parametrize("row", SUMMARY, ids=lambda r: r["State"])
def test_summary_actions_available(row):
    name, cell = row["State"], row["Actions Available"]
    st = {name}
    if name == "Panicked":
        assert allowed_actions("reactive", None, st, panic_failed=True) == {"Dodge", "Nothing"}
        return
    if cell == "—":
        assert allowed_actions("reactive", None, st) == frozenset()
        return
    names = set()
    for part in cell.replace(" only", "").split(";") if ";" in cell else [cell]:
        got = action_names(part.strip())
        if got is None:
            names = None
            break
        names |= got
    movement = "Idle" if "Idle" in allowed_movements(st) else "Walk"
    got = allowed_actions("active", movement, st)
    if names is None:
        assert got == ALL
    else:
        extra = {"Nothing"} | ({"Spell Attack"} if name == "Engaged" else set())
        assert got == frozenset(names) | extra


def stat_changes(cell: str) -> dict[str, list[str]]:
    """'OFF, DEF, ACC, INT, AG, M all halved' -> {OFF: [half], ...}."""
    out: dict[str, list[str]] = {}
    pending: list[str] = []
    for part in [p.strip() for p in cell.split(",")]:
        words = part.replace("×", " × ").replace("−", "-").split()
        stats = [STAT_WORDS.get(w, w) for w in words if STAT_WORDS.get(w, w) in BASE]
        pending += stats
        op = None
        if "halved" in words:
            op = "half"
        elif "×" in words and "2" in words:
            op = "double"
        elif "-1" in words:
            op = "add -1"
        elif "=" in words:
            op = f"cap {words[words.index('=') + 1]}"
        if op:
            for s in pending:
                out.setdefault(s, []).append(op)
            pending = []
    return out


@pytest.mark.parametrize("row", SUMMARY, ids=lambda r: r["State"])
def test_summary_key_stat_changes(row):
    name, cell = row["State"], row["Key Stat Changes"]
    st = {name}
    changes = stat_changes(cell)
    got = cond.modified_stats(BASE, st)
    for stat, base in BASE.items():
        ops = changes.get(stat, [])
        if "Melee" in cell and stat == "STK":      # Flying: Melee STK only, via strike_cap
            assert strike_cap("active", "Melee Attack", st) == 1
            assert got["STK"] == base
            continue
        want = base
        for op in ops:
            if op == "half":
                want = -(-want // 2)
            elif op == "double":
                want *= 2
            elif op.startswith("add"):
                want += int(op.split()[1])
            elif op.startswith("cap"):
                want = min(want, int(op.split()[1]))
        assert got[stat] == want, (stat, ops)
    # the cells that are not stat changes
    if cell == "No LoS (except self)":
        assert cond.sight_rule(st) == "none"
    elif cell == "360° LoS":
        assert cond.sight_rule(st) == "360"
    elif cell == "Immediately enters Crouched":
        assert cond.add_state(frozenset(), name)[0] == {name, "Crouched"}
    elif cell == "Cannot regain AP in Upkeep":
        assert not cond.receives_ap(st) and cond.upkeep_ap(BASE, st) == 0
    elif cell.startswith("T roll"):
        assert cond.strategic_rolls(st) == [{"state": name, "stat": "T", "modifier": -6, "on_fail": "wound"}]
    elif cell == "—":
        assert got == BASE
    else:
        assert changes, f"unparsed stat cell {cell!r}"


# cause names implied by the words of the "Removed By" cell; origin for conditional ones
REMOVED_BY_WORDS = [
    ("Specific abilities", "ability", None),
    ("Voluntary", "voluntary", None),
    ("or voluntary", "voluntary", None),
    ("or Dodge", "dodge_success", None),
    ("Leave RCH", "leave_reach", None),
    ("Dodge (Disengage)", "disengage", None),
    ("render engager", "engager_down", None),
    ("Next Strategic Phase (Weak Poison)", "strategic_phase", "Poison I"),
    ("Next Strategic Phase", "strategic_phase", None),
    ("Incapacitated, Dead, Immobilized, Petrified, Crouched", "priority", None),
    ("Successful Dodge", "dodge_success", None),
    ("Regain ≥1 HP", "regain_hp", None),
    ("if caused by effect", "strategic_phase", "effect"),
    ("End of game", "end_of_game", None),
    ("specific abilities", "ability", None),
    ("Declare any Normal Action other than Nothing", "declared_action", None),
    ("Perceive by enemy", "perceived", None),
]
# causes the data adds beyond the Summary cell, each with its source
EXTRA_CAUSES = {
    "Crouched": {"dodge"},                          # Dodge page: "regardless of success" (setting)
    "Engaged": {"priority"},                        # Flying: cannot be Engaged
    "Panicked": {"morale_restored", "strategic_phase"},   # facts Broken Morale; Friendly Fire
    "Bleeding": set(),
}


def implied_causes(cell: str) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    rest = cell
    for words, cause, origin in REMOVED_BY_WORDS:
        if words in rest:
            out.setdefault(cause, origin)
            rest = rest.replace(words, "")
    return out


@pytest.mark.parametrize("row", SUMMARY, ids=lambda r: r["State"])
def test_summary_removed_by(row):
    name, cell = row["State"], row["Removed By"]
    implied = implied_causes(cell)
    got = cond.removal_causes(name)
    if cell == "Cannot be removed":
        assert got == {}
    assert set(implied) <= set(got)
    assert set(got) - set(implied) <= EXTRA_CAUSES.get(name, set())
    for cause, origin in implied.items():
        assert got[cause] == origin
        assert cond.remove_state({name}, name, cause, origin=origin) == frozenset()
    for cause in set(cond.CAUSES) - set(got):
        with pytest.raises(cond.StateRuleError):
            cond.remove_state({name}, name, cause)


# --------------------------------------------------------------------------- State Priorities

PRIORITY_ROWS = table("eldfall-states.txt", "State Priorities").dicts()


def _check_priority(situation: str) -> None:
    if situation == "Model is Flying and becomes Crouched":
        st, notes = cond.add_state({"Flying"}, "Crouched")
        assert st == {"Crouched"} and "flying_cancelled" in [n.code for n in notes]
    elif situation == "Rider's model becomes Crouched":
        assert "dismount_rider" in [n.code for n in cond.add_state(frozenset(), "Crouched")[1]]
    elif situation == "Model is Incapacitated (HP = 0)":
        assert cond.add_state(frozenset(), "Incapacitated")[0] == {"Incapacitated", "Crouched"}
    elif situation == "Incapacitated model suffers another Wound":
        st, notes = cond.on_wound({"Incapacitated", "Crouched"})
        assert st == {"Incapacitated", "Crouched", "Dead"} and notes[0].code == "dead"
        assert cond.on_wound({"Crouched"}) == (frozenset({"Crouched"}), [])
    elif situation == "Model is Panicked and Engaged at Activation start":
        f = cond.on_activation_start({"Panicked", "Engaged"}, morale_failed=True)
        assert (f.movement, f.actions) == ("Idle", {"Dodge"})
    elif situation == "Panicked model would move past field edge":
        assert [n.code for n in cond.on_past_edge({"Panicked"})] == ["removed_from_play_as_loss"]
        assert cond.on_past_edge(frozenset()) == []
    elif situation == "Shrouded model declares any Action except Nothing":
        for action in ACTIONS:
            st, _ = cond.on_action_declared({"Shrouded"}, action)
            assert ("Shrouded" in st) == (action == "Nothing")
    elif situation == "Shrouded model declares Attack":
        for action in ATTACK_ACTIONS:
            st, notes = cond.on_action_declared({"Shrouded"}, action)
            assert st == frozenset() and [n.code for n in notes] == ["shrouded_cancelled", "surprise_attack"]
        assert "surprise_attack" not in [n.code for n in cond.on_action_declared({"Shrouded"}, "Dodge")[1]]
    elif situation == "Flying model becomes Immobilized/Petrified/Dead":
        for s in ("Immobilized", "Petrified", "Dead"):
            assert cond.add_state({"Flying"}, s)[0] == {s}
    else:
        raise AssertionError(f"no check for {situation!r}")


@pytest.mark.parametrize("row", PRIORITY_ROWS, ids=lambda r: r["Situation"])
def test_state_priorities(row):
    data = [p for p in cond.PRIORITIES if p["situation"] == row["Situation"]]
    assert len(data) == 1, "every printed row is in states.yaml"
    assert data[0]["result_text"] == row["Result"]
    _check_priority(row["Situation"])


# --------------------------------------------------------------------------- Reactions page

from rules.eldfall import reaction_rules as rr  # noqa: E402

REACTIONS_PAGE = "eldfall-reactions.txt"
AVAILABLE = table(REACTIONS_PAGE, "Available Reactions (Normal Actions)").dicts()
REACT_BY_STATE = table(REACTIONS_PAGE, "Restrictions by State").dicts()
TRADE_ON = TableSettings(trade_as_reaction=True)


def test_available_reactions_rows_are_transcribed_in_order():
    data = rr.reaction_table()["available"]
    assert [d["reaction"] for d in data] == [r["Reaction"] for r in AVAILABLE]
    for d, r in zip(data, AVAILABLE):
        assert d["text"] == {"los": r["Requires LoS?"], "awareness": r["Requires Awareness?"], "notes": r["Notes"]}


def row_actions(reaction: str) -> frozenset[str]:
    m = re.match(r"^Attack \((Melee|Ranged)\)$", reaction)
    if m:
        return frozenset({f"{m.group(1)} Attack"})
    return frozenset({re.sub(r"\s*\(.*\)$", "", reaction)})


@pytest.mark.parametrize("row", AVAILABLE, ids=lambda r: r["Reaction"])
@pytest.mark.parametrize("qualification", ["all", "table"])
def test_available_reactions(row, qualification):
    s = TableSettings(trade_as_reaction=True, reaction_qualification=qualification)
    for action in row_actions(row["Reaction"]):
        # Perceive needs a Shrouded Activated model; Attacks cannot target one
        shrouded = {"Shrouded"} if action == "Perceive" else frozenset()
        assert action in NORMAL_ACTIONS
        los = row["Requires LoS?"]
        aware = row["Requires Awareness?"]
        # qualified by LoS and Awareness: always allowed
        assert action in rr.allowed_reactions(frozenset(), True, True, activated_states=shrouded, settings=s)
        without_los = rr.allowed_reactions(frozenset(), False, True, activated_states=shrouded, settings=s)
        if los == "Yes":
            assert action not in without_los
        elif los.startswith("No (Awareness only)"):
            assert action in without_los
            assert action not in rr.allowed_reactions(frozenset(), False, False, settings=s)
            assert rr.dodge_agility_halved(had_los=False) and not rr.dodge_agility_halved(had_los=True)
        else:
            assert los == "—"
            # "—": no LoS needed as printed (default); with qualification "all" a
            # Reaction still needs LoS to the Activated model, except Nothing
            expect = qualification == "table" or action == "Nothing"
            assert (action in without_los) == expect
        if aware in ("Yes", "Within Awareness") and action != "Dodge":
            assert action not in rr.allowed_reactions(frozenset(), True, False, activated_states=shrouded,
                                                      settings=s)
        if aware == "Base Contact":
            assert rr.reaction_row(action)["base_contact"] in ("quest object", "ally")


def test_trade_reaction_follows_the_setting():
    assert "Trade" not in rr.allowed_reactions(frozenset(), True, True)
    assert "Trade" in rr.allowed_reactions(frozenset(), True, True, settings=TRADE_ON)


def test_reactions_are_normal_actions_only():
    got = rr.allowed_reactions(frozenset(), True, True, activated_states={"Shrouded"})
    assert got <= NORMAL_ACTIONS and "Death Blow" not in got
    assert rr.REACTION_AP_COST == 1


def reaction_cell(cell: str) -> frozenset[str] | None:
    if cell == "Any Normal Action":
        return None
    return action_names(cell.replace(" only", "")) or frozenset()


REACT_STATE_CHECKS = {
    "Engaged": lambda: (rr.allowed_reactions({"Engaged"}, True, False) == frozenset()
                        and "Ranged Attack" not in rr.allowed_reactions({"Engaged"}, True, True)),
    "Crouched": lambda: strike_cap("reactive", "Melee Attack", {"Crouched"}) == 1,
    "Flying": lambda: ("Ranged Attack" in rr.allowed_reactions({"Flying"}, False, False)
                       and not cond.can_be_engaged({"Flying"}) and not cond.causes_engagement({"Flying"})),
    "Shrouded": lambda: (cond.targeting_block({"Shrouded"}, "Ranged Attack") is not None
                         and cond.targeting_block({"Shrouded"}, "Perceive") is None
                         and "Dodge" in rr.allowed_reactions(frozenset(), True, True,
                                                             activated_states={"Shrouded"})),
    "Blinded": lambda: not (ATTACK_ACTIONS | {"Perceive"}) & rr.allowed_reactions({"Blinded"}, True, True),
    "Panicked": lambda: rr.allowed_reactions({"Panicked"}, True, True, panic_failed=True) == {"Dodge", "Nothing"},
    "Immobilized": lambda: (cond.crouch_change_allowed({"Immobilized"}, "after_dodge") is not None
                            and "AG or T" in target_restrictions("reactive", {"Immobilized"})["Dodge"][0]),
    "Incapacitated": lambda: not cond.can_activate({"Incapacitated"}),
    "Dead": lambda: not cond.can_activate({"Dead"}),
    "Confused": lambda: cond.modified_stats(BASE, {"Confused"}) == {
        **BASE, **{k: 5 for k in ("OFF", "DEF", "ACC", "AG", "INT", "M")}},
    "Weakened": lambda: cond.modified_stats(BASE, {"Weakened"}) == {**BASE, "T": 5, "STA": 2},
    "Slowed": lambda: cond.modified_stats(BASE, {"Slowed"})["SPD"] == 5,
    "Fatigued": lambda: cond.upkeep_ap(BASE, {"Fatigued"}) == 0,
    "Bleeding": lambda: cond.strategic_rolls({"Bleeding"})[0]["modifier"] == 0,
    "Poisoned": lambda: cond.strategic_rolls({"Poisoned"})[0]["modifier"] == -6,
    "Crippled": lambda: cond.modified_stats(BASE, {"Crippled"}) == {**BASE, "SPD": 5, "AG": 5},
}


def test_restrictions_by_state_rows_are_transcribed():
    data = rr.reaction_table()["by_state"]
    assert [(d["state"], d["can_react"], d["allowed_text"], d["restrictions"]) for d in data] == \
        [(r["State"], r["Can React?"], r["Allowed Reactions"], r["Restrictions"]) for r in REACT_BY_STATE]


@pytest.mark.parametrize("row", REACT_BY_STATE, ids=lambda r: r["State"])
def test_restrictions_by_state(row):
    name = row["State"]
    st = {name}
    assert cond.can_react(st) == (row["Can React?"] == "Yes")
    kw = {"panic_failed": name == "Panicked"}
    got = rr.allowed_reactions(st, True, True, **kw)
    base = rr.allowed_reactions(frozenset(), True, True)
    names = reaction_cell(row["Allowed Reactions"])
    if names is None:
        assert got == base
    elif name == "Shrouded":
        # ruling "Reactions of a Shrouded model": the printed row with the setting,
        # the Actions page's By State row by default
        s = TableSettings(shrouded_reactions="dodge")
        assert rr.allowed_reactions(st, True, True, settings=s) == names | {"Nothing"}
        assert got == {"Melee Attack", "Ranged Attack", "Spell Attack", "Dodge", "Nothing"}
    else:
        extra = set()
        if names:
            extra.add("Nothing")
        if name == "Engaged":
            extra.add("Spell Attack")          # melee-type spells (setting engaged_melee_spells)
        assert got == names | extra
    assert REACT_STATE_CHECKS[name](), row["Restrictions"]


# --------------------------------------------------------------------------- Attack of Opportunity, switching, notes

def test_attack_of_opportunity():
    assert rr.may_declare_attack_of_opportunity(frozenset(), attack="Melee Attack", enters_reach=True) is None
    assert rr.may_declare_attack_of_opportunity(frozenset(), attack="Melee Attack", enters_reach=False)
    assert rr.may_declare_attack_of_opportunity(frozenset(), attack="Ranged Attack", enters_reach=False,
                                                moving_toward=True) is None
    assert rr.may_declare_attack_of_opportunity(frozenset(), attack="Ranged Attack", enters_reach=False)
    assert rr.may_declare_attack_of_opportunity(frozenset(), attack="Melee Attack", enters_reach=True,
                                                already_reacted=True)
    assert rr.may_declare_attack_of_opportunity({"Engaged"}, attack="Ranged Attack", enters_reach=True,
                                                moving_toward=True)
    assert rr.may_declare_attack_of_opportunity({"Dead"}, attack="Melee Attack", enters_reach=True)
    # declared (even if it fails): no other Reaction in the sequence
    assert rr.allowed_reactions(frozenset(), True, True, aoo_declared=True) == frozenset()
    assert rr.measure_before_declaring("Assisted") and rr.measure_before_declaring("Standard")
    assert not rr.measure_before_declaring("Realism")
    with pytest.raises(ValueError):
        rr.measure_before_declaring("Casual")


def test_switch_to_attack_against_shrouded_or_flying():
    assert rr.may_switch_to_attack("Dodge", {"Shrouded"}, True)
    assert rr.may_switch_to_attack("Perceive", {"Flying"}, True)
    assert not rr.may_switch_to_attack("Dodge", {"Flying"}, False)
    assert not rr.may_switch_to_attack("Dodge", frozenset(), True)
    assert not rr.may_switch_to_attack("Nothing", {"Shrouded"}, True)


def test_reaction_targets_and_sight():
    # a reaction targets the Activated model: a Flying one cannot be meleed but by flyers
    assert "Melee Attack" not in rr.allowed_reactions(frozenset(), True, True, activated_states={"Flying"})
    assert "Melee Attack" in rr.allowed_reactions({"Flying"}, True, True, activated_states={"Flying"})
    # all models have LoS to a Flying model
    assert "Ranged Attack" in rr.allowed_reactions(frozenset(), False, False, activated_states={"Flying"})
    # Engaged: automatic LoS to its engagers
    assert "Melee Attack" in rr.allowed_reactions({"Engaged"}, False, True, activated_is_engager=True)
    assert "Melee Attack" not in rr.allowed_reactions({"Engaged"}, False, True)
    # a Shrouded Activated model may only be Perceived (or Dodged)
    got = rr.allowed_reactions(frozenset(), True, True, activated_states={"Shrouded"})
    assert not got & ATTACK_ACTIONS and {"Perceive", "Dodge"} <= got
    assert "Perceive" not in rr.allowed_reactions(frozenset(), True, True, activated_states=frozenset())


def test_awareness_setting():
    s = TableSettings(awareness_required_for_all_reactions=True)
    assert rr.allowed_reactions(frozenset(), True, False, settings=s) == frozenset()
    assert "Ranged Attack" in rr.allowed_reactions(frozenset(), True, False)


def test_notes():
    notes = rr.reaction_table()["notes"]
    assert len(notes) == 3
    assert rr.dodge_order_chooser() == "active"
    assert rr.may_react_late(True, False) and not rr.may_react_late(True, True)
    assert not rr.may_react_late(False, False)


# --------------------------------------------------------------------------- Actions page: the other tables

import math  # noqa: E402

from rules.eldfall import tables as tb  # noqa: E402


def test_activation_sequence():
    rows = table(ACTIONS_PAGE, "Activation Sequence").dicts()
    assert len(rows) == 5
    assert [(int(r["Step"]), r["Name"], r["Who Acts"], r["What Happens"]) for r in rows] == \
        [(s["step"], s["name"], s["who"], s["what"]) for s in tb.activation_steps()]
    assert "Run" in tb.tables()["key_rule"] and "Nothing" in tb.tables()["key_rule"]


def distance_from_text(cell: str, spd: int) -> float:
    cell = cell.replace("Up to ", "")
    if cell == "0":
        return 0.0
    if cell == "SPD":
        return float(spd)
    if cell.startswith("SPD ×2"):
        return 2.0 * spd
    if cell.startswith("SPD ÷ 2"):
        return float(math.ceil(spd / 2)) if "rounded up" in cell else spd / 2
    raise AssertionError(f"unexpected distance {cell!r}")


MOVEMENT_ROWS = ([("Normal Movement", r) for r in table(ACTIONS_PAGE, "Normal Movement").dicts()]
                 + [("Special Movement", r) for r in table(ACTIONS_PAGE, "Special Movement").dicts()])


@pytest.mark.parametrize("section,row", MOVEMENT_ROWS, ids=lambda x: x if isinstance(x, str) else x["Movement"])
@pytest.mark.parametrize("spd", [1, 2, 3, 4, 5, 6, 7, 10, 11])
def test_movement_distances(section, row, spd):
    name = row["Movement"]
    assert tb.movement_distance(name, spd) == distance_from_text(row["Distance"], spd)
    data = tb.movement_row(name)
    text = data["special_text"] if section == "Special Movement" and "special_text" in data else data["text"]
    assert text["distance"] == row["Distance"]
    assert text["notes"] == row["Notes"]
    if section == "Special Movement":
        assert text["requirement"] == row["Requirement"]
        assert allowed_actions("active", name, frozenset()) == {"Nothing"}   # "Important:" line


def test_jump_rounding_setting_and_dodge_move():
    assert tb.movement_distance("Jump", 5) == 2.5
    assert tb.movement_distance("Jump", 5, settings=TableSettings(jump_round_up=True)) == 3.0
    assert [tb.dodge_move_distance(s) for s in (1, 4, 5, 6, 7)] == [1, 2, 3, 3, 4]
    with pytest.raises(ValueError):
        tb.movement_distance("Fly", 5)


SPELL_ROWS = table(ACTIONS_PAGE, "Spell Attack").dicts()


@pytest.mark.parametrize("row", SPELL_ROWS, ids=lambda r: r["Type"])
def test_spell_types(row):
    t = tb.spell_type(row["Type"])
    assert (t["duration"], t["role_text"], t["notes"]) == (row["Duration"], row["Role"], row["Notes"])
    assert av.spell_type_allowed(row["Type"], "active")
    assert av.spell_type_allowed(row["Type"], "reactive") == ("Reactive" in row["Role"])
    assert set(t["roles"]) == ({"active", "reactive"} if "Reactive" in row["Role"] else {"active"})
    assert t["dodgeable"] == ("Cannot be Dodged" not in row["Notes"])
    assert (t["max_same_name_per_model"] == 1) == ("Max 1" in row["Notes"])
    assert (t["requires_action"] == "Ritual") == ("Ritual" in row["Role"])
    assert t["mana_cost"] == ("Mana Cost" in row["Notes"])


def test_spell_types_cover_the_table():
    assert tb.SPELL_TYPES == tuple(r["Type"] for r in SPELL_ROWS)
    rules = tb.casting_rules()
    assert rules["per_activation"] == 1 and rules["forbidden_with_both_hands_full"] and rules["needs_affinity"]
    assert tb.roll_attribute("Spell Attack", "active") == ("INT",)
    assert tb.roll_attribute("Spell Attack", "active", mystic=True) == ("M",)


AOE_ROWS = table(ACTIONS_PAGE, "Area of Effect (AoE) Attacks").dicts()


@pytest.mark.parametrize("row", AOE_ROWS, ids=lambda r: r["Template Type"])
def test_aoe_templates(row):
    m = re.match(r"^(Circular|Spray) ([SL]) \((?:d=)?(\d+)mm\)$", row["Template Type"])
    name = f"{m.group(1)} {m.group(2)}"
    t = tb.template(name)
    assert t["size_mm"] == int(m.group(3))
    assert t["size_in"] == pytest.approx(int(m.group(3)) / 25.4)
    assert t["shape"] == ("circle" if m.group(1) == "Circular" else "spray")
    band = re.match(r'^±(\d+)" above/below (center|attacker)$', row["Height"])
    assert (t["band_in"], t["band_from"]) == (int(band.group(1)), band.group(2))
    assert t["los_from"] == ("center" if "AoE center" in row["Notes"] else "attacker")
    assert row["Coverage"] == "Target must be fully covered" and tb.aoe_rules()["main_target"] == "fully_covered"
    assert t["text"] == {"type": row["Template Type"], "coverage": row["Coverage"], "height": row["Height"],
                         "notes": row["Notes"]}


def test_aoe_rules():
    r = tb.aoe_rules()
    assert r == {"main_target": "fully_covered", "affected": "partially_covered",
                 "multiple_templates": "each_separately", "dodge_after_placement": True,
                 "nullified_if_main_target_wins_confrontation": True, "user_affected": False}
    assert tb.TEMPLATES == ("Circular S", "Circular L", "Spray S", "Spray L")


# --------------------------------------------------------------------------- Recovery Check and the numbered rules

def test_recovery_check():
    rc = tb.recovery_check()
    assert rc["roll"] == "T" and rc["who"] == "Incapacitated" and "Strategic Phase" in rc["when"]
    assert tb.recovery_outcome(True) == {"regain_hp": 1, "enter": ["Weakened"], "cancel": ["Incapacitated"]}
    assert tb.recovery_outcome(False) == {"remain": "Incapacitated"}
    assert tb.recovery_reroll_allowed(True, False, False)
    assert not tb.recovery_reroll_allowed(False, False, False)
    assert not tb.recovery_reroll_allowed(True, True, False)
    assert not tb.recovery_reroll_allowed(True, False, True)
    assert rc["reroll"]["times"] == 1
    # the outcome applied with the state rules
    st = cond.remove_state({"Incapacitated", "Crouched"}, "Incapacitated", "regain_hp")
    st, _ = cond.add_state(st, "Weakened")
    assert st == {"Crouched", "Weakened"}


def test_profiles_and_attributes():
    champion = {"T": 13, "AG": 10, "OFF": 16}
    u = tb.profile("Unarmed", champion)
    assert (u["pw_options"], u["pw"], u["rch"], u["stk"], u["traits"]) == ([13, 7], 13, 0, 1, ["Unkeen"])
    b = tb.profile("Shield Bash", champion)
    assert (b["pw"], b["traits"], b["needs"]) == (13, ["Knockback 1", "Unkeen"], "Shield")
    assert tb.roll_attribute("Melee Attack", "active") == ("OFF",)
    assert tb.roll_attribute("Melee Attack", "reactive") == ("DEF",)
    assert tb.roll_attribute("Melee Attack", "active", spell=True) == ("INT",)
    assert tb.roll_attribute("Ranged Attack", "reactive") == ("ACC",)
    assert tb.roll_attribute("Ranged Attack", "active", spell=True, mystic=True) == ("M",)
    assert tb.roll_attribute("Dodge", "reactive", immobilized=True) == ("AG", "T")
    assert tb.roll_attribute("Uncover", "active") == ("INT",) and tb.uncover_halved()
    with pytest.raises(ValueError):
        tb.roll_attribute("Uncover", "reactive")


def test_modifiers_duel_ritual():
    assert [tb.friendly_fire_modifier(n) for n in (0, 1, 2, 3)] == [0, -4, -8, -12]
    assert [tb.friendly_fire_hits_ally(r, 1) for r in (16, 17, 20)] == [False, True, True]
    assert not tb.friendly_fire_hits_ally(18, 0)
    assert (tb.cover_modifier("light"), tb.cover_modifier("heavy"), tb.cover_modifier("none")) == (-2, -4, 0)
    assert tb.duel_vp("win") == {"winner": 6, "loser": 0} and tb.duel_vp("draw") == {"each": 3}
    r = tb.ritual_rules()
    assert r["needs_movement"] == "Idle" and r["roll"] is False and r["summon_ap"] == "STA"
    assert tb.summoning_allowed([1], 1, 2) and not tb.summoning_allowed([1, 1], 1, 2)
