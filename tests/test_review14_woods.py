"""Forest pieces that overlap or share an edge are one Forest area (a wood): a line
through the wood crosses one area, however many pieces build it (docs/rulings.md,
"Line of sight and cover"). Pieces touching at a corner only, or apart, stay two."""
from __future__ import annotations

import pytest

from engine import sight
from engine.scene import load_scene
from engine.sight_settings import SightSettings
from engine.world import World
from cli_run import run_cli  # noqa: E402
from scene_files import write


def scene(terrain: str, models: str) -> str:
    return "table: [36, 36]\nterrain:\n" + terrain + "models:\n" + models


# p at x 8, q at x 17: both in a wood of two overlapping pieces (x 7-13 and 12-18)
TWO_IN_ONE = scene("""\
  - {id: wa, shape: box, at: [10, 10, 0], size: [6, 6, 1], tags: [area, forest]}
  - {id: wb, shape: box, at: [15, 10, 0], size: [6, 6, 1], tags: [area, forest]}
""", """\
  - {id: p, side: red, size: M, at: [8, 10], facing: 0}
  - {id: q, side: blue, size: M, at: [17, 10], facing: 180}
""")


def world(tmp_path, text, name="s.yaml"):
    return World(load_scene(str(write(tmp_path, name, text))))


def test_two_models_in_one_wood_of_two_pieces_see_each_other(tmp_path):
    w = world(tmp_path, TWO_IN_ONE)
    assert sight.los(w, "p", "q").los
    assert sight.los(w, "q", "p").los
    m = sight.los_matrix(w)
    assert m[("p", "q")] and m[("q", "p")]


def test_pieces_sharing_an_edge_are_one_wood(tmp_path):
    # wa x 7-13, wb x 13-19: the footprints share the edge x = 13
    text = TWO_IN_ONE.replace("at: [15, 10, 0], size: [6, 6, 1]", "at: [16, 10, 0], size: [6, 6, 1]")
    assert sight.los(world(tmp_path, text), "p", "q").los


def test_pieces_apart_are_two_areas(tmp_path):
    text = TWO_IN_ONE.replace("at: [15, 10, 0], size: [6, 6, 1]", "at: [16.5, 10, 0], size: [6, 6, 1]")
    r = sight.los(world(tmp_path, text), "p", "q")
    assert not r.los
    assert set(r.blocking) == {"wa", "wb"}


def test_pieces_touching_at_a_corner_only_are_two_areas(tmp_path):
    # wa x 7-13 y 7-13, wb x 13-19 y 13-19: one common corner (13, 13)
    text = scene("""\
  - {id: wa, shape: box, at: [10, 10, 0], size: [6, 6, 1], tags: [area, forest]}
  - {id: wb, shape: box, at: [16, 16, 0], size: [6, 6, 1], tags: [area, forest]}
""", """\
  - {id: p, side: red, size: M, at: [9, 9], facing: 45}
  - {id: q, side: blue, size: M, at: [17, 17], facing: 225}
""")
    assert not sight.los(world(tmp_path, text), "p", "q").los


def test_a_wood_and_a_second_forest_still_block(tmp_path):
    # p and q in the wood; r beyond a third forest piece: p -> r crosses two areas
    text = scene("""\
  - {id: wa, shape: box, at: [10, 10, 0], size: [6, 6, 1], tags: [area, forest]}
  - {id: wb, shape: box, at: [15, 10, 0], size: [6, 6, 1], tags: [area, forest]}
  - {id: wc, shape: box, at: [24, 10, 0], size: [4, 6, 1], tags: [area, forest]}
""", """\
  - {id: p, side: red, size: M, at: [8, 10], facing: 0}
  - {id: r, side: blue, size: M, at: [30, 10], facing: 180}
""")
    r = sight.los(world(tmp_path, text), "p", "r")
    assert not r.los
    assert "wc" in r.blocking and {"wa", "wb"} & set(r.blocking)


def test_a_wood_of_different_heights_counts_each_piece_in_its_own_height(tmp_path):
    # area_height "piece": the wood is wa (x 7-13, y 7-13, 1" tall) and wb (x 12-18, y 12-18,
    # 6" tall), overlapping at a corner square. p on a 4" tower at y 8 looks at r beyond the
    # 6" forest wc: every segment passes over wa (above 2") and beside wb, so only wc is
    # crossed -> LoS. The wood taken as one prism as tall as wb would count it too (no LoS).
    terrain = """\
  - {id: tower, shape: box, at: [3, 8, 0], size: [3, 3, 4]}
  - {id: wa, shape: box, at: [10, 10, 0], size: [6, 6, 1], tags: [area, forest]}
  - {id: wb, shape: box, at: [15, 15, 0], size: [6, 6, 6], tags: [area, forest]}
  - {id: wc, shape: box, at: [24, 8, 0], size: [4, 6, 6], tags: [area, forest]}
"""
    models = """\
  - {id: p, side: red, size: M, at: [3, 8, 4], facing: 0}
  - {id: r, side: blue, size: M, at: [30, 8], facing: 180}
"""
    w = world(tmp_path, scene(terrain, models))
    s = SightSettings().replace(area_height="piece")
    r = sight.los(w, "p", "r", settings=s)
    assert r.los and r.visible_fraction == pytest.approx(1.0)
    assert sight.los_matrix(w, settings=s)[("p", "r")]
    # infinite height (the default): the wood is crossed as well as wc
    assert not sight.los(w, "p", "r").los


def test_los_command_names_the_pieces_of_the_wood(tmp_path, capsys):
    text = TWO_IN_ONE.replace("  - {id: q, side: blue, size: M, at: [17, 10], facing: 180}\n",
                              "  - {id: q, side: blue, size: M, at: [17, 10], facing: 180}\n"
                              "  - {id: r, side: blue, size: M, at: [30, 10], facing: 180}\n")
    text = text.replace("models:\n", "  - {id: wc, shape: box, at: [24, 10, 0], size: [4, 6, 1], tags: [area, forest]}\nmodels:\n")
    p = write(tmp_path, "w.yaml", text)
    code, out, err = run_cli(capsys, "los", str(p), "p", "q")
    assert code == 0 and "LoS yes" in out, out + err
    code, out, err = run_cli(capsys, "los", str(p), "p", "r")
    assert code == 0 and "LoS no" in out, out + err
    assert "wc" in out and "wa and wb are one wood" in out, out
    assert sight.forest_areas(World(load_scene(str(p)))) == [("wa", "wb"), ("wc",)]


@pytest.mark.parametrize("join, edge_wood, overlap_wood", [
    ("touching", True, True), ("overlapping", False, True), ("never", False, False)])
def test_forest_pieces_join_setting(tmp_path, join, edge_wood, overlap_wood):
    s = SightSettings().replace(forest_pieces_join=join)
    overlap = world(tmp_path, TWO_IN_ONE, "o.yaml")
    edge = world(tmp_path, TWO_IN_ONE.replace("at: [15, 10, 0], size: [6, 6, 1]",
                                              "at: [16, 10, 0], size: [6, 6, 1]"), "e.yaml")
    assert sight.los(overlap, "p", "q", settings=s).los is overlap_wood
    assert sight.los(edge, "p", "q", settings=s).los is edge_wood
    assert sight.los_matrix(edge, settings=s)[("p", "q")] is edge_wood


def test_forest_pieces_join_is_read_and_checked(tmp_path):
    from engine.errors import InputError
    from engine.sight_settings import settings_from_dict
    assert settings_from_dict({"exceptions": {"forest_pieces_join": "never"}}).forest_pieces_join == "never"
    assert settings_from_dict({"forest_pieces_join": "overlapping"}).forest_pieces_join == "overlapping"
    with pytest.raises(InputError) as e:
        settings_from_dict({"exceptions": {"forest_pieces_join": "sometimes"}}, "s.yaml")
    assert "exceptions.forest_pieces_join: must be one of touching, overlapping, never" in str(e.value)


def test_a_wood_of_three_pieces_chained(tmp_path):
    # wa overlaps wb, wb overlaps wc; wa and wc do not meet: still one wood (x 7-24)
    text = scene("""\
  - {id: wa, shape: box, at: [10, 10, 0], size: [6, 6, 1], tags: [area, forest]}
  - {id: wc, shape: box, at: [21, 10, 0], size: [6, 6, 1], tags: [area, forest]}
  - {id: wb, shape: box, at: [15.5, 10, 0], size: [6, 6, 1], tags: [area, forest]}
""", """\
  - {id: p, side: red, size: M, at: [8, 10], facing: 0}
  - {id: q, side: blue, size: M, at: [23, 10], facing: 180}
""")
    assert sight.los(world(tmp_path, text), "p", "q").los
