"""Review 14: an Attack at the ground (a Targetless template aimed at a bare point,
docs/rulings.md "Targetless") offered by the bots and the hotseat view, not only
through the rules interface.
"""
from rules.core.flat import FlatGeometry
from rules.core.units import weapon_dict
from rules.eldfall import BOTS, new_game
from rules.eldfall.actions import Declare
from rules.eldfall.bots import GreedyBot, RandomBot, expected_wounds
from tests.eldfall_scenario import BOW, SWORD, at_action, kinds, setup, unit

POT = weapon_dict("Fire Pot", "ranged", pw=10, stk=1, bands=[(0, 12, 0), (12, 24, -3)],
                  traits=["Targetless", "Circular L"])
# a wall between r1 at (10, 5) and the blue models: it hides them from r1
WALL = [("wall", 4, 9.5, 16, 10, 4)]


def _game(blue=None, red=(), rolls=(), boxes=WALL):
    units = [unit("r1", "red", 10, 5, weapons=[POT, BOW])] + list(red)
    units += blue if blue is not None else [
        unit("b1", "blue", 10, 14, facing=270), unit("b2", "blue", 11.5, 14.5, facing=270)]
    return at_action(setup(units, rolls=rolls, boxes=boxes))


def _ground(d) -> bool:
    return isinstance(d, Declare) and d.point is not None and not d.targets


# ---------------------------------------------------------------- the greedy bot
def test_the_greedy_bot_throws_a_targetless_template_between_two_enemies():
    # b2 3.5" from b1: aimed at b1 the Circular L catches b1 only; at the ground between
    # them it catches both: the bot aims at the ground, and both are Hit
    g = _game(blue=[unit("b1", "blue", 10, 14, facing=270), unit("b2", "blue", 13.5, 14.5, facing=270)],
              rolls=[5, 1, 1])
    d = GreedyBot(0).choose(g)
    assert _ground(d) and d.weapon == "Fire Pot", d
    assert g.why_illegal(d) is None
    a = kinds(g.apply(d), "attack")[0].data
    assert sorted(a["victims"]) == ["b1", "b2"]


def test_the_greedy_bot_catches_an_enemy_it_cannot_name():
    # a Shrouded model cannot be targeted, but a template at the ground covers it
    g = _game(blue=[unit("b1", "blue", 10, 14, facing=270, states=frozenset({"Shrouded"}))])
    assert g.why_illegal(Declare("r1", "Ranged Attack", weapon="Fire Pot",
                                 targets=(("b1", 1),))) is not None
    d = GreedyBot(0).choose(g)
    assert _ground(d), d
    assert g.why_illegal(d) is None


def test_the_greedy_bot_keeps_its_allies_out_of_the_template():
    # an ally just behind b1 and b2: every point that catches both enemies catches
    # the ally too (a template Hits allies as well): its Wounds count against the point
    g = _game(red=[unit("r2", "red", 10.5, 16.0, facing=270, weapons=[SWORD])])
    mid = Declare("r1", "Ranged Attack", weapon="Fire Pot", point=(10.5, 15.3, 0.0))
    from rules.eldfall.resolution import attack_profile, ground_template
    hit = sorted(h.id for h in ground_template(g, "r1", attack_profile(g, mid), mid.point).affected)
    assert hit == ["b1", "b2", "r2"] and g.why_illegal(mid) is None
    one = Declare("r1", "Ranged Attack", weapon="Fire Pot", targets=(("b1", 1),))
    assert abs(expected_wounds(g, mid, "active") - expected_wounds(g, one, "active")) < 1e-9
    d = GreedyBot(0).choose(g)
    assert not _ground(d), d


def test_the_greedy_bot_still_names_a_lone_target_in_the_open():
    # no wall, one enemy: a ground point gains nothing, the named target is kept
    g = _game(blue=[unit("b1", "blue", 10, 14, facing=270)], boxes=())
    d = GreedyBot(0).choose(g)
    assert d.target_ids == ("b1",) and d.point is None, d


# ---------------------------------------------------------------- the random bot
def test_the_random_bot_draws_attacks_at_the_ground_among_its_choices():
    drawn = [RandomBot(seed).choose(_game()) for seed in range(40)]
    ground = [d for d in drawn if _ground(d)]
    assert ground, drawn
    g = _game()
    assert all(g.why_illegal(d) is None for d in ground)
    # one weapon's points together are one choice: not most of the draws
    assert len(ground) < len(drawn) // 2


def test_the_random_bot_is_unchanged_without_a_targetless_template():
    # no Targetless template: the same draws as before (a seeded game stays the same)
    import random

    from rules.eldfall import legal
    g = at_action(setup([unit("r1", "red", 10, 5, weapons=[BOW]),
                         unit("b1", "blue", 10, 14, facing=270)]))
    assert list(legal.ground_declarations(g, "r1")) == []
    options = g.legal_actions().list()
    for seed in range(5):
        rng = random.Random(seed)
        expect = rng.choices(options, weights=[0.1 if d.action == "Issue a Duel" else 1.0
                                               for d in options], k=1)[0]
        assert RandomBot(seed).choose(g) == expect


# ---------------------------------------------------------------- whole games
def _roster():
    out = []
    for i, x in enumerate((10, 16, 22)):
        out.append(unit(f"r{i}", "red", x, 6, weapons=[POT, SWORD] if i == 0 else [BOW, SWORD],
                        leader=i == 0))
        out.append(unit(f"b{i}", "blue", x + 1, 20, weapons=[POT, SWORD] if i == 1 else [BOW, SWORD],
                        leader=i == 0))
    return out


def _play(kinds_, seed):
    units = _roster()
    geo = FlatGeometry((36, 36), boxes=[("wall", 12, 12, 18, 13, 3)])
    for u in units:
        geo.add_model(u, u.at, u.facing)
    g = new_game(units, geo, seed=seed, scene_info={"table": [36, 36]}, settings={"rounds": 3})
    bots = {"red": BOTS[kinds_[0]](seed), "blue": BOTS[kinds_[1]](seed + 7)}
    ground = 0
    while not g.is_over:
        a = bots[g.decider()].choose(g)
        assert g.why_illegal(a) is None, a
        ground += _ground(a)
        g.apply(a)
    return g, ground


def test_seeded_bot_games_throw_at_the_ground():
    # both bots, two seeds each: every decision legal, and the Attacks at the ground
    # they declared were resolved as such (an attack event aimed at a point)
    for k, seeds in ((("greedy", "greedy"), (4, 5)), (("random", "random"), (1, 2))):
        declared = resolved = 0
        for seed in seeds:
            g, n = _play(k, seed)
            declared += n
            resolved += sum(1 for e in g.events if e.kind == "attack" and e.data.get("target") is None
                            and e.data.get("at") is not None)
        assert declared > 0 and resolved == declared, (k, declared, resolved)


# ---------------------------------------------------------------- the hotseat view
_PARTY = """party: Grenadiers
game: eldfall
profiles:
  bomber:
    name: Bomber
    size: M
    stats: {STA: 2, SPD: 5, ARM: 3, HP: 3, OFF: 12, DEF: 11, ACC: 13, INT: 10, AG: 9, T: 12, M: 13}
    items:
      - {name: Fire Pot, kind: ranged, pw: 10, stk: 1, bands: {"0-12": 0, "13-24": -3},
         traits: [Targetless, Circular L]}
"""
_STATS = "{STA: 2, SPD: 5, ARM: 3, HP: 3, OFF: 12, DEF: 11, ACC: 10, INT: 10, AG: 9, T: 12, M: 13}"


def _view(view_app, tmp_path, states="[]"):
    """A hotseat controller at red-bomber's Action Step: a wall hides b1 and b2 from it."""
    from tests.scene_files import write
    from tools.loading import load_world
    from view_fixtures import at_action_step
    write(tmp_path, "models/grenadiers.yaml", _PARTY)
    scene = write(tmp_path, "scene.yaml", f"""table: [36, 36]
terrain:
  - {{id: wall, shape: box, at: [10, 11.75, 0], size: [8, 0.5, 4]}}
models:
  - {{id: red-bomber, side: red, profile: grenadiers#bomber, at: [10, 5], facing: 90}}
  - {{id: b1, side: blue, size: M, at: [10, 14], facing: 270, states: {states}, stats: {_STATS}}}
  - {{id: b2, side: blue, size: M, at: [11.5, 14.5], facing: 270, states: {states}, stats: {_STATS}}}
""")
    models = str(tmp_path / "models")
    return at_action_step(view_app, load_world(str(scene), models), models, tmp_path, "red-bomber")


def _point_at(view_app, c, p):
    from view_fixtures import point_at_ground
    point_at_ground(view_app, c, p)


def test_the_hotseat_aims_a_targetless_template_at_a_clicked_point_of_the_ground(view_app, tmp_path):
    from view_fixtures import menu_key, press
    c = _view(view_app, tmp_path)
    try:
        labels = [label for label, _ in c.build_menu()]
        assert "Ranged Attack (Fire Pot) -> click target or the ground" in labels, labels
        assert press(view_app, menu_key(c, "Ranged Attack (Fire Pot)")) == "target"
        assert "or a point of the ground" in c.message and "allies too" in c.message, c.message
        # the preview under the pointer: the template as the rules lay it, who it would Hit
        _point_at(view_app, c, (10.5, 15.3, 0.0))
        assert c.template_result is not None
        assert any(n.getName() == "template-overlay" for n in c.live.getChildren())
        text = c.hud.verdict.text
        assert "at the ground at (10.5, 15.3)" in text and "would Hit b1, b2" in text, text
        # a point the rules refuse says why
        _point_at(view_app, c, (10.0, 33.0, 0.0))
        assert "the point is out of range" in c.hud.verdict.text, c.hud.verdict.text
        press(view_app, "mouse1", pixel=view_app.project((10.0, 33.0, 0.0)))
        assert c.state == "target" and "the point is out of range" in c.message, c.message
        # the click declares it
        n0 = len(c.game.events)
        press(view_app, "mouse1", pixel=view_app.project((10.5, 15.3, 0.0)))
        att = [e.data for e in c.game.events[n0:] if e.kind == "attack"]
        assert att and att[0]["target"] is None and att[0]["at"] == [10.5, 15.3, 0.0], att
        assert sorted(att[0]["victims"]) == ["b1", "b2"]
        assert c.state == "idle" and c.template_result is None
        assert "Fire Pot at the ground at (10.5, 15.3)" in c.message, c.message
    finally:
        c.close()


def test_the_hotseat_offers_the_ground_when_no_model_may_be_named(view_app, tmp_path):
    from view_fixtures import menu_key, press
    c = _view(view_app, tmp_path, states="[Shrouded]")
    try:
        labels = [label for label, _ in c.build_menu()]
        assert not any(x.startswith("Ranged Attack (Fire Pot) -> click target") for x in labels), labels
        assert "Ranged Attack (Fire Pot) -> click the ground (Targetless: no model may be named)" in labels
        assert press(view_app, menu_key(c, "Ranged Attack (Fire Pot)")) == "target"
        # a click on b1 says why it may not be named; one on the ground aims there
        press(view_app, "mouse1", pixel=view_app.project((10.0, 14.0, 1.0)))
        assert "b1 is not a legal target for Ranged Attack: " in c.message and "Shrouded" in c.message, c.message
        n0 = len(c.game.events)
        _point_at(view_app, c, (10.5, 15.3, 0.0))
        assert "would Hit b1, b2" in c.hud.verdict.text, c.hud.verdict.text
        press(view_app, "mouse1", pixel=view_app.project((10.5, 15.3, 0.0)))
        att = [e.data for e in c.game.events[n0:] if e.kind == "attack"]
        assert att and sorted(att[0]["victims"]) == ["b1", "b2"], c.message
    finally:
        c.close()


def test_the_clicked_height_is_not_raised_by_the_picks_float_noise(view_app, tmp_path):
    # a pick 0.00002" above the table was declared at z 0.01 (rounded up to the hundredth)
    from view_fixtures import menu_key, press
    c = _view(view_app, tmp_path)
    try:
        assert press(view_app, menu_key(c, "Ranged Attack (Fire Pot)")) == "target"
        assert c.ground_decl((10.5, 15.3, 0.00002)).point == (10.5, 15.3, 0.0)
        assert c.ground_decl((10.5, 15.3, -0.00002)).point == (10.5, 15.3, 0.0)
        assert c.ground_decl((10.5, 15.3, 1.004)).point == (10.5, 15.3, 1.01)
    finally:
        c.close()
