"""`eldfall move` says who sees the mover along a legal route (``engine.sight.watchers``): the
question of a dispute over a reaction ("could your marksman see my brute as it walked?")."""
import json

from cli_run import run_cli  # noqa: E402

from engine import sight
from tools.loading import load_world


def test_move_names_who_saw_the_mover_and_where(capsys):
    rc, out, err = run_cli(capsys, "move", "scenes/skirmish.yaml", "red-brute", "--to", "18,7",
                           "--mode", "walk", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["legal"]
    by = {w["observer"]: w for w in d["seen_by"]}
    world = load_world("scenes/skirmish.yaml")
    enemies = [m for m in world.model_ids() if world.hitbox(m).side != "red"]
    assert sorted(by) == sorted(enemies)
    seen = [o for o, w in by.items() if w["had_los"]]
    assert seen and len(seen) < len(enemies)
    # each first and last point: the observer has LoS to the mover standing there; an unseen
    # one has none at either end of the route
    facing = world.hitbox("red-brute").facing
    for o, w in by.items():
        ends = [w["first"], w["last"]] if w["had_los"] else [d["path"][0], d["path"][-1]]
        for p in ends:
            world.move_model("red-brute", *p, facing)
            assert sight.los(world, o, "red-brute", fraction=False, cover=False).los is w["had_los"], (o, p)
    rc, text, _ = run_cli(capsys, "move", "scenes/skirmish.yaml", "red-brute", "--to", "18,7", "--mode", "walk")
    for o in seen:
        assert f"  seen by {o} from " in text
    assert "  not seen by " in text


def test_a_refused_move_names_no_watchers(capsys):
    rc, out, err = run_cli(capsys, "move", "scenes/skirmish.yaml", "red-brute", "--to", "14,10",
                           "--mode", "walk", "--json")
    assert rc == 0 and json.loads(out)["seen_by"] == [] and not json.loads(out)["legal"]


def test_move_takes_the_sight_settings_for_who_sees_it(tmp_path, capsys):
    """A visible-area threshold larger than any hitbox: no one sees the brute, and the changed
    setting is named; a bad file is one line, exit 2."""
    from scene_files import write
    huge = write(tmp_path, "huge.yaml", "min_visible_area_mm2: 100000\n")
    rc, out, err = run_cli(capsys, "move", "scenes/skirmish.yaml", "red-brute", "--to", "18,7",
                           "--mode", "walk", "--settings", str(huge))
    assert rc == 0, err
    assert "  seen by " not in out and "  not seen by blue-warden" in out
    assert "changed from the defaults: min_visible_area_mm2 100000" in out
    bad = write(tmp_path, "bad.yaml", "min_visible_area_mm2: x\n")
    rc, out, err = run_cli(capsys, "move", "scenes/skirmish.yaml", "red-brute", "--to", "18,7",
                           "--mode", "walk", "--settings", str(bad))
    assert rc == 2 and err.strip() == f"{bad}:1: min_visible_area_mm2: must be a number, not 'x'"
