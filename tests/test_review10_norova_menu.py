"""Review 10, attacking from the Legends of Norova hotseat menu.

The knight (longsword and dagger, dual wielding, power strike and twin strike) in base
contact with the ghoul on scenes/norova-arena.yaml has nine attacks of its own and one
more for each ally who can aid:

* the turn's end was on page 2, behind the attack skills, and the attack with both
  weapons too: the plain attacks (one per hand) and the turn's end are on page 1, the
  attacks with a skill or an aid after them;
* an attack skill read as a list ("with the longsword, power strike"), an aid did not
  say what the ally strikes with ("aided by pyromancer"), and the ghoul's two claws
  were "both weapons (claws and claws)".

Every legal attack is reached through the menu (its pages, its target clicks) and
applies exactly the hand, skill and aid its entry says.
"""
from __future__ import annotations

import math
import os

import pytest

pytest.importorskip("panda3d")

from view_fixtures import all_menu_entries, click_model, menu_key, open_controller, press  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture()
def table(view_app, tmp_path):
    """(controller, reset): ``reset(who, at_foe, more, bearing, facing)`` starts a fresh
    game (seed 3), ends turns until ``who`` acts, puts ``who`` in base contact with
    ``at_foe`` at ``bearing`` (degrees from the foe's centre; south), facing ``facing``
    (None: the foe), and each of ``more`` ((model, other, bearing)) in base contact with
    its other model at that bearing, facing it."""
    from tools.cmd_view import game_factory, load_world
    world = load_world(os.path.join(ROOT, "scenes", "norova-arena.yaml"))
    new = game_factory(world, "norova")
    game, geo = new(3)
    c = open_controller(view_app, world, game, geo, tmp_path)

    def contact(mid, foe, deg, facing=None):
        a, b = world.hitbox(mid), world.hitbox(foe)
        d = a.radius + b.radius + 0.01
        x, y = b.x + d * math.cos(math.radians(deg)), b.y + d * math.sin(math.radians(deg))
        world.move_model(mid, x, y, 0.0, facing=(deg + 180.0) % 360.0 if facing is None else facing)

    def reset(who, at_foe, more=(), bearing=270.0, facing=None):
        from rules.norova.actions import EndTurn
        c.game, c.geometry = new(3)
        for _ in range(12):
            if c.game.active_model == who:
                break
            c.game.apply(EndTurn(c.game.active_model))
        contact(who, at_foe, bearing, facing)
        for mid, foe, deg in more:
            contact(mid, foe, deg)
        for mid in world.models:            # no base overlaps another
            for other in world.models:
                if mid < other:
                    ha, hb = world.hitbox(mid), world.hitbox(other)
                    assert math.hypot(ha.x - hb.x, ha.y - hb.y) > ha.radius + hb.radius, (mid, other)
        c._after_load("")
        assert c.active_model() == who
        view_app.step()
    yield c, reset
    c.close()


KNIGHT_HANDS = {"main": "with the longsword", "dual": "with both weapons (longsword and dagger)",
                "off": "with the dagger (off hand)"}
KNIGHT_SKILLS = {None: "", "power_strike": " using power strike (2 Power)",
                 "twin_strike": " using twin strike (3 Power)"}


def _knight_words(a) -> str:
    """The knight's attack as this test says it, independently of the view's code."""
    aid = "".join(f", aided by {p.ally} (dagger)" for p in a.aid)      # the pyromancer's dagger
    return f"{KNIGHT_HANDS[a.hand]}{KNIGHT_SKILLS[a.skill]}{aid}"


def test_the_turns_end_and_the_plain_attacks_are_on_page_1(view_app, table):
    c, reset = table
    reset("knight", "ghoul")
    page = [label for label, _ in c.menu]
    assert page[-1].startswith("more ...")
    for words in ("end the turn", "attack ghoul with the longsword",
                  "attack ghoul with both weapons (longsword and dagger)", "attack ghoul with the dagger (off hand)"):
        assert words in page, page
    labels = all_menu_entries(c)
    # the attacks with a skill after the turn's end, none lost
    skilled = [m for m in labels if " using " in m]
    assert len(skilled) == 6 and labels.index("end the turn") < min(labels.index(m) for m in skilled), labels


def test_attack_entries_say_the_hand_skill_and_aid(view_app, table):
    c, reset = table
    reset("knight", "ghoul", [("pyromancer", "ghoul", 90.0)])
    labels = all_menu_entries(c)
    assert len(labels) == len(set(labels)), labels
    for words in ("attack ghoul with the longsword using power strike (2 Power)",
                  "attack ghoul with both weapons (longsword and dagger) using twin strike (3 Power)",
                  "attack ghoul with the dagger (off hand) using power strike (2 Power)",
                  "attack ghoul with the longsword, aided by pyromancer (dagger)"):
        assert words in labels, labels
    # the ghoul's two claws, and its allies' weapons
    reset("ghoul", "knight", [("brute", "knight", 0.0)])
    labels = all_menu_entries(c)
    for words in ("attack knight with the claws", "attack knight with the claws (off hand)",
                  "attack knight with both claws", "attack knight with the claws, aided by brute (greataxe)"):
        assert words in labels, labels
    assert not [m for m in labels if "claws and claws" in m], labels


def _press_entry(view_app, c, label: str, pages: int):
    """Turn the menu's pages (key 0) until ``label`` shows, then press its key."""
    for _ in range(pages):
        if label in [m for m, _ in c.menu]:
            return press(view_app, menu_key(c, label))
        assert c.menu[-1][0].startswith("more ..."), (label, c.menu)
        press(view_app, "0")
    pytest.fail(f"no entry {label!r} on {pages} pages")


def test_every_legal_attack_is_reached_and_does_what_its_entry_says(view_app, table):
    from rules.norova.actions import Aid, Attack
    c, reset = table
    # the knight (facing 90 degrees) against the ghoul and the brute, 30 degrees either side
    # (its front arc: 45), the pyromancer (its turn still to come) in contact with the
    # ghoul: it may aid an attack on the ghoul only
    more = [("brute", "knight", 120.0), ("pyromancer", "ghoul", 0.0)]
    where = dict(bearing=240.0, facing=90.0)
    reset("knight", "ghoul", more, **where)
    attacks = [a for a in c.game.legal_actions() if isinstance(a, Attack)]
    on = {t: [a for a in attacks if a.target == t] for t in ("ghoul", "brute")}
    # each of the nine ways, aided by the pyromancer (its dagger, no attack skill) or not
    assert len(on["ghoul"]) == 18 and len(on["brute"]) == 9, attacks
    aid = (Aid("pyromancer", "main", None),)
    assert [a for a in attacks if a.aid] == [Attack("knight", "ghoul", a.hand, a.skill, aid) for a in on["brute"]]
    pages = -(-len(all_menu_entries(c)) // 9)
    clicked = 0
    for a in attacks:
        reset("knight", "ghoul", more, **where)
        both = any(b.target != a.target and (b.hand, b.skill, b.aid) == (a.hand, a.skill, a.aid) for b in attacks)
        if both:                                 # offered on both: one entry, the target clicked
            label = f"attack {_knight_words(a)} -> click a target (brute, ghoul)"
            assert _press_entry(view_app, c, label, pages) == "target", c.message
            click_model(view_app, c.world, a.target)
            clicked += 1
        else:
            _press_entry(view_app, c, f"attack {a.target} {_knight_words(a)}", pages)
        assert c.applied and c.applied[-1][0] == a, (a, c.message)
        done = [str(e.data.get("action")) for e in c.applied[-1][1] if e.kind == "action"]
        assert done == [str(a)]
    assert clicked == 18                         # the nine ways, on each of the two
