"""Review 12, the words of the game summaries, `--set`, `measure` and the Heavy-cover width.

* The Eldfall summary (and the narration's "N\" up") printed heights to 0.1": a floor at
  2.75" read 2.8, a wall top at 3.95" read 4.0; its columns went out of line for ids longer
  than 12 characters. The Norova one said "After 11 round(s)" (11 for 10 rounds played).
* `--set` for Norova said the key twice ("--set foo: settings: foo: ..."), a second problem
  on a line of its own without "<command line>"; Eldfall's rounds=-1 said "must not be
  negative" where rounds=0 said "must be at least 1".
* `eldfall measure` said "LoS ...: no" with no reason; a model with no profile read
  "awareness of d2: 0\"" with no word of why.
* The Heavy-cover width named every block touching the piece (floor, roof, the far wall).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from cli_run import run_cli  # noqa: E402
from scene_files import write  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MODELS = str(ROOT / "models")

# ------------------------------------------------------------------ summaries

LONG = "red-shieldbearer-veteran"


def _eldfall_scene(tmp_path, floor: float, top: float) -> Path:
    return write(tmp_path, "heights.yaml", f"""\
table: [24, 24]
terrain:
  - {{id: floor, shape: box, at: [6, 6, 0], size: [4, 4, {floor}]}}
  - {{id: wall,  shape: box, at: [18, 6, 0], size: [3, 3, {top}]}}
models:
  - {{id: {LONG}, side: red, profile: sample-red#shieldbearer, at: [6, 6], facing: 90}}
  - {{id: r2, side: red, profile: sample-red#archer, at: [18, 6], facing: 90}}
  - {{id: b1, side: blue, profile: sample-blue#warden, at: [12, 20], facing: 270}}
""")


def _z_of(line: str) -> str:
    return re.search(r"\(([-\d.]+), ([-\d.]+), ([-\d.]+)\)\s*$", line).group(3)


def test_eldfall_summary_heights_and_columns(tmp_path):
    from tools.gameplay import new_game
    floor, top = 2.75, 3.95
    _, g = new_game(str(_eldfall_scene(tmp_path, floor, top)), None, 0)
    lines = g.summary().splitlines()[1:]
    by_id = {ln.split()[1]: ln for ln in lines}
    # the printed height is the model's height to the hundredth: not "2.8" / "4.0"
    for mid, want in ((LONG, floor), ("r2", top), ("b1", 0.0)):
        z = g.geo.position(mid)[2]
        assert abs(z - want) < 1e-6
        assert float(_z_of(by_id[mid])) == round(z, 2), by_id[mid]
        assert _z_of(by_id[mid]) == f"{z + 0.0:.2f}".replace("-0.00", "0.00"), by_id[mid]
    # the HP column starts at one place on every line, the long id included
    starts = {ln.index(" HP ") for ln in lines}
    assert len(starts) == 1, lines
    assert all(ln.index(mid) == lines[0].index(LONG) for mid, ln in by_id.items()), lines


def test_eldfall_narration_height_is_not_rounded_to_the_inch():
    from rules.eldfall.narrate import _pt
    for z in (2.75, 3.95, 1.25):
        s = _pt((7.6, 7.1, z))
        assert s.endswith(f', {z:.2f}" up'), s
    assert _pt((7.6, 7.1, 0.0)) == "(7.6, 7.1)"


def test_norova_summary_rounds_and_columns(tmp_path, capsys):
    text = (ROOT / "scenes" / "norova-arena.yaml").read_text()
    scene = write(tmp_path, "nv.yaml", text.replace("id: crossbowman,", "id: crossbowman-veteran,"))
    for n in (1, 2):
        rc, out, err = run_cli(capsys, "play", str(scene), "--game", "norova", "--bots", "random",
                               "--set", f"max_rounds={n}")
        assert rc == 0, err
        assert "round(s)" not in out
        head = next(ln for ln in out.splitlines() if ln.startswith("After "))
        assert head == f"After {n} round{'s' if n != 1 else ''}:", head      # n played, not n + 1
        lines = out.splitlines()
        rows = lines[lines.index(head) + 1:lines.index(head) + 10]       # the nine characters
        assert any("crossbowman-veteran" in r for r in rows)
        assert len({r.index(" Vitality ") for r in rows}) == 1, rows
        assert len({r.index(" foes ") if " foes " in r else r.index(" party ") for r in rows}) == 1, rows


# ------------------------------------------------------------------ --set

def test_norova_set_problems_say_the_key_once_one_line_each(capsys):
    scene = str(ROOT / "scenes" / "norova-arena.yaml")
    rc, out, err = run_cli(capsys, "play", scene, "--game", "norova", "--bots", "--set", "foo=1")
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1, err
    assert lines[0].startswith("<command line>: --set foo: unknown setting (known: "), err
    assert "settings: foo" not in err
    rc, out, err = run_cli(capsys, "play", scene, "--game", "norova", "--bots",
                           "--set", "foo=1", "--set", "max_rounds=0")
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 2, err
    assert all(ln.startswith("<command line>: --set ") for ln in lines), err
    assert lines[1] == "<command line>: --set max_rounds: must be at least 1, not 0", err


def test_eldfall_rounds_below_one_read_alike(capsys):
    errs = []
    for v in ("-1", "0", "-7"):
        rc, out, err = run_cli(capsys, "play", str(ROOT / "scenes" / "open.yaml"), "--bots", "--set", f"rounds={v}")
        assert rc == 2 and len(err.strip().splitlines()) == 1, err
        errs.append(err.strip().replace(f"not {v}", "not V"))     # each says the value given
    assert len(set(errs)) == 1 and errs[0].endswith("must be at least 1, not V"), errs


# ------------------------------------------------------------------ measure

DARK = """\
table: [40, 12]
terrain:
  - {id: dark, shape: box, at: [30, 6, 0], size: [6, 6, 3], tags: [area, dark]}
  - {id: wall, shape: box, at: [14, 6, 0], size: [0.5, 12, 4]}
models:
  - {id: near, side: red, size: M, at: [21, 6], facing: 0, profile: sample-red#archer}
  - {id: far, side: red, size: M, at: [17, 10], facing: 0, profile: sample-red#archer}
  - {id: d2, side: blue, size: M, at: [28, 6], facing: 180}
  - {id: a, side: red, size: M, at: [6, 2], facing: 0, profile: sample-red#archer}
  - {id: b, side: blue, size: M, at: [20, 2], facing: 180}
"""


def _los_why(capsys, scene, v, t) -> str | None:
    rc, out, _ = run_cli(capsys, "los", scene, v, t, "--models-dir", MODELS)
    m = re.match(rf"{v} -> {t}: LoS no \((.*)\), [\d.]+\" away", out.splitlines()[0])
    return m and m.group(1)


def test_measure_says_why_there_is_no_los(tmp_path, capsys):
    scene = str(write(tmp_path, "dark.yaml", DARK))
    seen = 0
    for v, t in (("a", "b"), ("d2", "near"), ("far", "d2"), ("near", "d2")):
        why = _los_why(capsys, scene, v, t)
        rc, out, err = run_cli(capsys, "measure", scene, v, t, "--models-dir", MODELS)
        assert rc == 0, err
        line = next(ln for ln in out.splitlines() if ln.startswith(f"  LoS {v} -> {t}: "))
        rc, js, _ = run_cli(capsys, "measure", scene, v, t, "--models-dir", MODELS, "--json")
        d = json.loads(js)
        if why is None:
            assert line == f"  LoS {v} -> {t}: yes" and "los_reason" not in d
            continue
        seen += 1
        assert line == f"  LoS {v} -> {t}: no ({why})", (line, why)      # the words of `eldfall los`
        assert d["los"] is False and d["los_reason"] == why
    assert seen >= 2          # the wall (a -> b) and the Dark (d2 -> near) at least


def test_measure_says_a_zero_awareness_has_no_ag(tmp_path, capsys):
    scene = str(write(tmp_path, "dark.yaml", DARK))
    rc, out, _ = run_cli(capsys, "measure", scene, "d2", "near", "--models-dir", MODELS)
    line = next(ln for ln in out.splitlines() if ln.startswith("  awareness of d2:"))
    assert '0" (no AG stat)' in line, line
    rc, out, _ = run_cli(capsys, "measure", scene, "near", "d2", "--models-dir", MODELS)
    line = next(ln for ln in out.splitlines() if ln.startswith("  awareness of near:"))
    assert "no AG" not in line, line


# ------------------------------------------------------------------ Heavy cover's joined width

def _box(pid, x0, y0, z0, x1, y1, z1):
    from engine.scene import TerrainSpec
    return TerrainSpec(pid, "box", ((x0 + x1) / 2, (y0 + y1) / 2, z0), size=(x1 - x0, y1 - y0, z1 - z0))


def _tower():
    """A hollow 4" tower (x 10-14, y 10-14) with a floor at 2" and a roof; its south-east
    corner a 1" column (narrower than a Medium base) that a target just east of it stands behind."""
    return [
        _box("t-west", 10, 10, 0, 10.5, 14, 4),
        _box("t-south", 10.5, 10, 0, 13.5, 10.5, 4),
        _box("t-north", 10.5, 13.5, 0, 13.5, 14, 4),
        _box("t-corner", 13.5, 10, 0, 14, 11, 4),
        _box("t-east-s", 13.5, 11, 0, 14, 11.5, 4),
        _box("t-east-n", 13.5, 12.5, 0, 14, 14, 4),
        _box("floor", 10.5, 10.5, 2, 13.5, 13.5, 2.25),
        _box("t-top", 10, 10, 4, 14, 14, 4.25),
        _box("t-door", 13.9, 11.5, 0, 14.0, 12.5, 4),
    ]


def test_joined_width_names_only_the_pieces_that_widen_it():
    from test_cover import table
    from engine import cover as C
    w = table(_tower(), (14.75, 10.7), viewer_at=(2, 9.5))
    c = C.cover(w, "a", "b")
    m = re.search(r"it is ([\d.]+)\" wide with (.*) beside it \((wider|not wider)", c.reason)
    assert c.level == "heavy" and c.piece == "t-corner" and m, c.reason
    width, named = float(m.group(1)), m.group(2).split(", ")
    # what it said before: every touching block, the floor, the roof, the door and the far walls
    ah, th = w.hitbox("a"), w.hitbox("b")
    los_dir = np.array([th.x - ah.x, th.y - ah.y])
    los_dir /= np.linalg.norm(los_dir)
    base_top = th.z + min(th.height, C.mm(C.base_height_mm()))
    pidx = {p.id: i for i, p in enumerate(w.pieces)}
    from engine.sight_settings import default_settings
    tall = th.z + th.height - default_settings().cover_heavy_height_tolerance_in - 1e-9
    w_all, _ = C.joined_width(w, pidx["t-corner"], base_top, tall, los_dir, set())
    assert abs(width - round(w_all, 2)) < 0.006              # the width itself is as before

    perp = np.array([-los_dir[1], los_dir[0]])

    def span(pid):
        import trimesh
        sl = trimesh.intersections.slice_mesh_plane(w.piece(pid).mesh, (0, 0, 1), (0, 0, base_top), cap=False)
        u = np.asarray(sl.vertices)[:, :2] @ perp
        return float(u.min()), float(u.max())

    def union(ids):
        s = sorted(span(i) for i in ids)
        lo, hi = s[0]
        for a, b in s[1:]:
            if a > hi + 0.01:
                break
            hi = max(hi, b)
        return hi - lo
    # the named pieces with the column span the whole width; none of them could go
    assert abs(union(["t-corner", *named]) - w_all) < 1e-6, named
    for n in named:
        rest = [x for x in named if x != n]
        assert union(["t-corner", *rest]) < w_all - 1e-6, (n, named)
    for never in ("floor", "t-door", "t-east-n", "t-north"):
        assert never not in named, named
    assert len(named) < 3, named


def test_the_dark_reason_says_a_zero_awareness_has_no_ag(tmp_path, capsys):
    scene = str(write(tmp_path, "dark.yaml", DARK))
    rc, out, _ = run_cli(capsys, "los", scene, "d2", "near", "--models-dir", MODELS)
    assert rc == 0 and "Awareness of 0\" (no AG stat)" in out, out
    rc, out, _ = run_cli(capsys, "los", scene, "far", "d2", "--models-dir", MODELS)
    assert "no AG" not in out, out
