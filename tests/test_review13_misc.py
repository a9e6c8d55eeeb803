"""Small things the thirteenth review found outside the helpers' files.

* ``eldfall simulate`` on Legends of Norova printed "mean VP", a score the game does not
  keep: its turn-limit winner is the side with the most Vitality left, and that is what the
  figure is.
* a Norova sheet's problem was said as the scene's ("SCENE: models: knight.norova..."), not
  at its line in the party file; ``eldfall check`` did not see it at all.
"""
from __future__ import annotations

from pathlib import Path

from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]


def test_simulate_names_norovas_score_vitality_left_not_vp(capsys):
    rc, out, err = run_cli(capsys, "simulate", "scenes/norova-arena.yaml", "--game", "norova", "--games", "1",
                           "--seed", "5", "--bots", "random", "--set", "max_rounds=1", "--jobs", "1")
    assert rc == 0, err
    assert "mean Vitality left: foes " in out and "VP" not in out


def _bad_sheet(tmp_path):
    """A copy of the models folder whose knight's Norova skills are a text: (folder, party
    file, 1-based line of the bad key)."""
    import shutil
    models = tmp_path / "models"
    shutil.copytree(ROOT / "models", models)
    party = models / "norova-party.yaml"
    text = party.read_text().splitlines()
    at = next(i for i, t in enumerate(text) if t.strip() == "skills: [power_strike, twin_strike]")
    text[at] = text[at].replace("[power_strike, twin_strike]", "hide")
    party.write_text("\n".join(text) + "\n")
    return models, party, at + 1


def test_a_bad_norova_sheet_is_named_at_its_line_in_the_party_file(tmp_path, monkeypatch, capsys):
    # the problem read "SCENE: models: knight.norova.skills: ...": no file or line to fix it at
    import engine.profiles
    import engine.scene
    models, party, line = _bad_sheet(tmp_path)
    monkeypatch.setattr(engine.scene, "default_models_dir", lambda: models)
    monkeypatch.setattr(engine.profiles, "default_models_dir", lambda: models)
    rc, out, err = run_cli(capsys, "play", str(ROOT / "scenes" / "norova-arena.yaml"), "--game", "norova",
                           "--bots", "--seed", "1")
    assert rc == 2 and out == ""
    assert err.strip() == (f"{engine.profiles._display(party)}:{line}: profiles.knight.norova.skills: "
                           "must be a list of skills, not 'hide' (model knight)")


def test_check_tells_what_stops_a_game_of_the_scene_from_starting(tmp_path, capsys):
    # `eldfall check` called the arena valid while `eldfall play --game norova` refused it
    import engine.profiles
    models, party, line = _bad_sheet(tmp_path)
    rc, out, err = run_cli(capsys, "check", str(ROOT / "scenes" / "norova-arena.yaml"), "--models-dir", str(models))
    assert rc == 2 and out == ""
    assert err.strip().splitlines()[-1] == (f"{engine.profiles._display(party)}:{line}: profiles.knight.norova."
                                            "skills: must be a list of skills, not 'hide' (model knight)")
    rc, out, err = run_cli(capsys, "check", str(ROOT / "scenes" / "norova-arena.yaml"))
    assert rc == 0 and "valid" in out


# --- a weapon never reaches through the Casting Aura -----------------------------------
def _shoot(states, facing):
    """r1 (a Bow) shoots b1, 8" to its west, with ``states``, facing ``facing``: the attack
    event's data (the pass of blue's reactions taken)."""
    from rules.eldfall.actions import Activate, Declare, Move, Pass
    from tests.eldfall_scenario import BOW, setup, unit
    r = unit("r1", "red", 18, 10, facing=facing, weapons=[BOW], states=states)
    b = unit("b1", "blue", 10, 10, facing=0)
    g = setup([r, b], [5] * 10)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    while g.pending[0] in ("reaction-change", "reaction-late"):
        ev = g.apply(Pass(g.pending[1]))
    return next(e.data for e in g.events if e.kind == "attack")


def test_a_shrouded_models_shot_behind_it_keeps_the_360_degree_los_it_declared_with():
    # declaring the Attack gives up Shrouded: at the Resolution Step the target behind the
    # shooter was out of its front arc, and the Bow's ACC was halved "through the Casting
    # Aura", which only spells have
    a = _shoot(["Shrouded"], facing=0)          # b1 is straight behind r1
    assert not a.get("failed") and "aura" not in a["modifiers"], a
    assert a["attribute"] == 13


def test_a_weapon_without_los_fails_it_is_not_halved_through_the_aura():
    # the declaration is refused without LoS; at the Resolution Step (a Crouched shooter
    # whose own hitbox dropped behind a wall, ...) a weapon's shot fails
    from rules.eldfall import resolution
    from rules.eldfall.actions import Declare
    from tests.eldfall_scenario import BOW, setup, unit
    g = setup([unit("r1", "red", 18, 10, facing=0, weapons=[BOW]), unit("b1", "blue", 10, 10)], [])
    assert not g.has_los("r1", "b1")                    # b1 is behind r1's front arc
    decl = Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),))
    st = resolution.Strike("r1", "b1", decl, "active", dict(BOW), 1)
    resolution._attack_attribute(g, st)
    assert st.failed == "no LoS to the target (a weapon cannot aim through the Casting Aura)"
    assert "aura" not in st.mods


def test_a_view_game_logs_the_models_dir_as_play_does(tmp_path):
    # a hotseat log written by `eldfall view --models-dir DIR` did not record the folder:
    # `eldfall replay` then looked for the profiles in the repository's models/
    from tools.cmd_view import game_factory
    from tools.loading import load_world
    world = load_world(str(ROOT / "scenes" / "skirmish.yaml"), str(ROOT / "models"))
    game, _ = game_factory(world, "eldfall", str(ROOT / "models"))(1)
    assert game.header()["scene"]["models_dir"] == str(ROOT / "models")
    game, _ = game_factory(world, "eldfall")(1)
    assert "models_dir" not in game.header()["scene"]


def test_a_party_not_in_the_repositorys_models_points_to_models_dir(tmp_path, capsys):
    # "no party 'raiders' in models/ (known: ...)": a newcomer with a party file of their own
    # was not told how to name its folder
    from scene_files import write
    p = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n  - {id: a, side: red, profile: raiders#boss, at: [5, 5]}\n")
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 2 and err.strip().endswith("; a party file of your own: --models-dir DIR"), err
    rc, out, err = run_cli(capsys, "check", str(p), "--models-dir", str(ROOT / "models"))
    assert rc == 2 and "--models-dir DIR" in err           # the same folder, named
    other = tmp_path / "mine"
    other.mkdir()
    rc, out, err = run_cli(capsys, "check", str(p), "--models-dir", str(other))
    assert rc == 2 and "--models-dir DIR" not in err       # the user's own folder: no hint
