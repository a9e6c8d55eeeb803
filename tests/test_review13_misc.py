"""Small things the thirteenth review found outside the helpers' files.

* ``eldfall simulate`` on Legends of Norova printed "mean VP", a score the game does not
  keep: its turn-limit winner is the side with the most Vitality left, and that is what the
  figure is.
"""
from __future__ import annotations

from tests.cli_run import run_cli


def test_simulate_names_norovas_score_vitality_left_not_vp(capsys):
    rc, out, err = run_cli(capsys, "simulate", "scenes/norova-arena.yaml", "--game", "norova", "--games", "1",
                           "--seed", "5", "--bots", "random", "--set", "max_rounds=1", "--jobs", "1")
    assert rc == 0, err
    assert "mean Vitality left: foes " in out and "VP" not in out
