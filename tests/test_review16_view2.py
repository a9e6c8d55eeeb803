"""Review 16, the hotseat view's leftovers.

* Legends of Norova: while an Attack of Opportunity's blow waited for the attacking
  character's choice (``aoo_pending``), the status line said "knight active", not who
  chooses what.
* Eldfall: the move after a Dodge showed no reachable area (only the path's distance
  label guided the click), unlike a Walk. It shows the area of a walk of SPD / 2 rounded
  up in any direction; a Panicked reactor that failed its M roll Dodges only toward the
  nearest field edge, and its area offers only ends that way.
* After a Reaction step the reactor stayed selected into the active model's Action
  step: its profile and live LoS stayed on screen while the active model declared.
* The Stratagems window: a model its Stratagems may name (blue-marksman, blue's own
  Fade into Cover) stood under the status panel, its label hidden.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("panda3d")

from test_review16_norova_view import waiting  # noqa: E402,F401  (the fixture)
from view_fixtures import (click_model, hotseat_activate, menu_key, model_rect, open_scene, press,  # noqa: E402
                           rect_overlap)


@pytest.fixture()
def skirmish(view_app, tmp_path):
    c = open_scene(view_app, tmp_path, "scenes/skirmish.yaml", seed=1)
    yield c
    c.close()


# ------------------------------------------------------------ 1. the blow of an Attack of Opportunity
def test_the_status_says_who_chooses_the_blow_of_an_attack_of_opportunity(view_app, waiting):  # noqa: F811
    c = waiting
    c.refresh()
    status = c.hud.status.text.splitlines()
    assert "knight chooses its blow on ghoul: a menu entry (number keys)" in status, status
    assert not any(ln.endswith(" active") or " active, step" in ln for ln in status), status


# ------------------------------------------------------------ 2 and 3: a Dodge in skirmish.yaml (seed 1)
def _dodged(view_app, c):
    """red-archer Idle; blue-skirmisher Dodges in the Reaction step; the other reactions
    passed: red-archer's Action step (the reactor was the model clicked last)."""
    hotseat_activate(view_app, c, "red-archer", "order blue second")
    press(view_app, menu_key(c, "Move: Idle"))
    click_model(view_app, c.world, "blue-skirmisher")
    assert c.selected == "blue-skirmisher"
    press(view_app, menu_key(c, "Dodge"))
    while c.game.pending[0] in ("reaction", "crouch"):
        press(view_app, "p")
    assert c.game.pending == ("action", "red-archer"), c.game.pending


def test_the_active_model_is_selected_at_its_action_step_after_a_reaction(view_app, skirmish):
    c = skirmish
    _dodged(view_app, c)
    # the active model declares now: its profile, not the reactor's
    assert c.selected == "red-archer"
    assert c.hud.profile.text == c.rules_profile("red-archer")
    assert c.hud.menu.text.startswith("Legal for red-archer:")
    # the player may still look at the reactor: the menu stays the active model's
    c.select("blue-skirmisher")
    assert c.hud.menu.text.startswith("Legal for red-archer:")


def _shaded_ends(grid, n: int) -> list[tuple]:
    """Up to ``n`` end points spread over the shaded area (cell centres, their z)."""
    k, i, j = np.nonzero(grid.end_ok & (grid.cost <= grid.allowance + 1e-9))
    r = float(grid.resolution)
    pick = np.linspace(0, len(k) - 1, min(n, len(k))).astype(int)
    return [((j[q] + 0.5) * r, (i[q] + 0.5) * r, float(grid.z[k[q], i[q], j[q]])) for q in pick]


def _dodge_area(view_app, c):
    press(view_app, menu_key(c, "Dodge: move"))
    assert c.state == "move" and c.move_mode == "dodge"
    shown = c.reach_shown
    assert shown is not None and shown[:2] == ("blue-skirmisher", "dodge"), shown
    return shown[3]


def test_the_dodge_move_shows_its_reachable_area(view_app, skirmish):
    from rules.eldfall.actions import DodgeMove
    c = skirmish
    _dodged(view_app, c)
    press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target"))
    click_model(view_app, c.world, "blue-skirmisher")
    assert c.game.pending == ("dodge-move", "blue-skirmisher"), c.message     # seed 1: the Dodge succeeds
    grid = _dodge_area(view_app, c)
    assert any(ch.getName() == "reach-overlay" for ch in c.play_live.getChildren())
    # the allowance: SPD / 2 rounded up, a walk in any direction
    assert grid.mode == "walk" and grid.allowance == math.ceil(c.game.speed("blue-skirmisher") / 2)
    ends = _shaded_ends(grid, 10)
    assert len(ends) == 10
    refused = [(p, c.game.why_illegal(DodgeMove("blue-skirmisher", (p,)))) for p in ends]
    assert [r for r in refused if r[1]] == []
    # a Panicked reactor that failed its M roll: toward the nearest field edge only
    press(view_app, "escape")
    x0, y0, _ = c.game.geo.position("blue-skirmisher")
    c.game.act.panic_failed_reactors = frozenset({"blue-skirmisher"})
    panicked = _dodge_area(view_app, c)
    ends = _shaded_ends(panicked, 12)
    assert ends and len(np.nonzero(panicked.end_ok)[0]) < len(np.nonzero(grid.end_ok)[0])
    refused = [(p, c.game.why_illegal(DodgeMove("blue-skirmisher", (p,)))) for p in ends]
    assert [r for r in refused if r[1]] == []
    # the area it lost is what the rules refuse: an end the other way
    away = next(p for p in _shaded_ends(grid, 40) if not panicked.contains(*p))
    assert "toward the nearest field edge" in (c.game.why_illegal(DodgeMove("blue-skirmisher", (away,))) or "")
    assert (x0, y0) == c.game.geo.position("blue-skirmisher")[:2]


# ------------------------------------------------------------ 4. the Stratagems window
def test_the_models_a_stratagem_may_name_are_kept_clear_of_the_panels(view_app, tmp_path):
    c = open_scene(view_app, tmp_path, "scenes/warbands.yaml", seed=3)
    try:
        press(view_app, menu_key(c, "order blue first"))
        assert c.game.pending == ("stratagem", "blue")
        named = sorted({a.target for a in c.game.legal_actions()
                        if type(a).__name__ == "UseStratagem" and a.target})
        assert "blue-marksman" in named and "red-archer" in named           # own and enemy targets
        rects = c.hud.rects()
        for m in [*named, c.stratagem_leader("blue")]:
            r = model_rect(view_app, c.world, m)
            assert r is not None and 0 <= r[0] and r[2] <= view_app.size[0] and 0 <= r[1] \
                and r[3] <= view_app.size[1], (m, r)
            assert max(rect_overlap(r, q) for q in rects) == 0.0, (m, r, rects)
    finally:
        c.close()
