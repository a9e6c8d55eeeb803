"""Review 14, the dispute (`eldfall los`, `eldfall measure`) as players arguing over a shot use
it: small scenes whose answer a judge with a ruler knows, and what is printed about them.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165"); Colossal 80 x 80 mm
(3.14961" tall, 5,439 sample points).
"""
from __future__ import annotations

import json
import re

from engine import sight
from engine.scene import load_scene
from tools.loading import build_world
from cli_run import run_cli  # noqa: E402
from scene_files import write  # noqa: E402


def _world(tmp_path, text: str, name: str = "scene.yaml"):
    p = write(tmp_path, name, text)
    return build_world(load_scene(str(p)), str(p))


# a Colossal model right behind a wall a hair lower than its hitbox, a Medium one 10" away: only
# a sliver of the top rim shows over the wall
SLIVER = """\
table: [36, 36]
terrain:
  - {{id: wall, shape: box, at: [18, 18, 0], size: [0.5, 8, {h}]}}
models:
  - {{id: a, side: red, size: M, at: [8, 18], facing: 0}}
  - {{id: b, side: blue, size: C, at: [19.9, 18], facing: 180}}
"""


def test_a_sliver_seen_is_never_printed_0_0_percent_in_the_details(tmp_path):
    # "LoS yes, under 1% visible" over "visible: 0.0% of 5439 sample points": one point of a
    # Colossal hitbox is 0.018%, and one decimal rounded it to nothing
    from tools.cmd_los import details, verdict
    found = None
    for k in range(8):
        h = 3.0705 + 0.0002 * k
        world = _world(tmp_path, SLIVER.format(h=h), f"s{k}.yaml")
        r = sight.los(world, "a", "b")
        if r.los and 0 < r.visible_fraction < 0.0005:
            found = (world, r)
            break
    assert found, "no wall height left a sliver of the Colossal model in sight"
    world, r = found
    assert "under 1% visible" in verdict(r, world)
    line = details(r, "x", world=world).splitlines()[2]
    m = re.match(r"  visible: ([0-9.]+)% of 5439 sample points", line)
    assert m, line
    assert float(m.group(1)) > 0, line
    assert abs(float(m.group(1)) / 100 - r.visible_fraction) < 0.00005, line


def test_share_text_keeps_a_part_off_0_and_100_percent():
    from tools.cmd_los import share_text
    assert share_text(0.0) == "0.0%" and share_text(1.0) == "100.0%"
    assert share_text(0.25) == "25.0%"
    assert share_text(1 / 5439) == "0.02%"
    assert share_text(5438 / 5439) == "99.98%"


def test_measure_json_pins_the_party_files_the_weapons_come_from(capsys):
    # the bands, the reach and the Awareness measured come from the party files: a Longbow's
    # bands changed there give another answer for the same scene file, so its SHA-256 alone
    # does not make the answer reproducible (`eldfall los --json` gives them)
    rc, out, _ = run_cli(capsys, "measure", "scenes/skirmish.yaml", "red-archer", "blue-marksman", "--json")
    assert rc == 0
    j = json.loads(out)
    import hashlib
    from pathlib import Path
    assert set(j["parties"]) == {"models/sample-red.yaml", "models/sample-blue.yaml"}
    for f, sha in j["parties"].items():
        assert sha == hashlib.sha256(Path(f).read_bytes()).hexdigest()


# a wall a little lower than two Medium models 11" apart: over it, the target's top shows
TOP_OVER_WALL = """\
table: [36, 36]
terrain:
  - {id: wall, shape: box, at: [18, 18, 0], size: [0.5, 8, 1.75]}
models:
  - {id: a, side: red, size: M, at: [8, 18], facing: 0}
  - {id: b, side: blue, size: M, at: [19, 18], facing: 180}
"""


def test_a_visible_area_under_the_minimum_is_printed_under_it(tmp_path):
    # a minimum a hair above the area seen: "visible area 1009.9 mm2 is below the minimum
    # 1009.88 mm2" printed the smaller number as the larger
    world = _world(tmp_path, TOP_OVER_WALL)
    seen = sight.los(world, "a", "b", cover=False).visible_area_mm2
    assert seen > 0
    s = sight.default_settings().replace(min_visible_area_mm2=seen + 0.0005)
    r = sight.los(world, "a", "b", settings=s)
    assert not r.los
    m = re.fullmatch(r"visible area ([0-9.]+) mm2 is below the minimum ([0-9.]+) mm2", r.reason)
    assert m, r.reason
    assert float(m.group(1)) < float(m.group(2)), r.reason
    assert abs(float(m.group(1)) - seen) < 0.001 and abs(float(m.group(2)) - (seen + 0.0005)) < 0.001, r.reason


# the ogre (Tree Club, RCH 1) faces the archer 0.78" away; the archer faces away from it. The
# scene lists no Engaged State: a scene stands at the end of a Phase, so the ogre engages the
# archer there (`eldfall move` and a game set up from it say so)
ENGAGED_ON_TABLE = """\
table: [36, 36]
models:
  - {id: r, side: red, profile: sample-red#archer, at: [9, 18], facing: 180}
  - {id: ogre, side: blue, profile: sample-blue#ogre, at: [11.2, 18], facing: 180}
  - {id: m, side: blue, size: M, at: [18, 18], facing: 180}
"""


def test_a_model_engaged_where_the_scene_stands_it_sees_its_engager(tmp_path, capsys):
    # `eldfall move` said "Engaged by ogre (in its melee reach, with LoS, where the scene stands
    # it)" and `eldfall measure` "ogre engages r", while `eldfall los r ogre` said "LoS no (ogre
    # is behind r's front arc)": an Engaged model "automatically has LoS to all models causing
    # the Engaged State" (eldfall-states.txt)
    p = write(tmp_path, "engaged.yaml", ENGAGED_ON_TABLE)
    rc, out, _ = run_cli(capsys, "los", str(p), "r", "ogre")
    assert rc == 0
    first = out.splitlines()[0]
    assert first.startswith("r -> ogre: LoS yes"), out
    assert "why: r is engaged by ogre; r is Engaged where the scene stands it, in the melee reach and the LoS " \
           "of ogre, though the scene does not list the State" in out
    rc, out, _ = run_cli(capsys, "los", str(p), "r", "ogre", "--json")
    j = json.loads(out)
    assert j["los"] is True and j["decided_by"] == "engaged" and j["engaged_on_table"] == ["ogre"]
    # the matrix agrees with the single call; m (not engaging r) stays behind r's arc
    rc, out, _ = run_cli(capsys, "los", str(p), "--all", "--json")
    j = json.loads(out)
    assert j["los"]["r"]["ogre"] is True and j["cover"]["r"]["ogre"] == "none"
    assert j["los"]["r"]["m"] is False
    # and `eldfall measure` says the same LoS, and why
    rc, out, _ = run_cli(capsys, "measure", str(p), "r", "ogre")
    assert "LoS r -> ogre: yes (r is engaged by ogre; r is Engaged where the scene stands it" in out, out
    assert "ogre engages r" in out


def test_the_scenes_engaged_state_still_decides_with_its_own_engagers(tmp_path, capsys):
    # a scene that lists the State: the rules' engagers, and nothing said of the table
    p = write(tmp_path, "engaged.yaml", ENGAGED_ON_TABLE.replace("facing: 180}", "facing: 180, states: [Engaged]}", 1))
    rc, out, _ = run_cli(capsys, "los", str(p), "r", "ogre", "--json")
    j = json.loads(out)
    assert j["los"] is True and j["decided_by"] == "engaged" and j["engaged_on_table"] is None


def test_a_dead_model_is_not_engaged_by_the_enemy_beside_it(tmp_path, capsys):
    # `eldfall measure` said "ogre engages r" of a Dead r: Dead (and Petrified, Flying) models
    # are never Engaged (docs/rulings.md, Engagement; the rules' can_be_engaged)
    # (a scene cannot list Petrified: the rules give it)
    p = write(tmp_path, "dead.yaml", ENGAGED_ON_TABLE.replace("facing: 180}", "facing: 180, states: [Dead]}", 1))
    rc, out, _ = run_cli(capsys, "measure", str(p), "ogre", "r")
    assert rc == 0
    assert "engagement: ogre does not engage r; r does not engage ogre" in out, out
    from engine.measure import engaged_on_table, engagements
    world = _world(tmp_path, ENGAGED_ON_TABLE.replace("facing: 180}", "facing: 180, states: [Dead]}", 1), "d2.yaml")
    assert engaged_on_table(world, "r") == [] and ("ogre", "r") not in engagements(world)
