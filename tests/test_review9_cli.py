"""Review 9, the command line: what a docs review found the commands say or do wrongly.

1. ``eldfall view --log LOG`` offscreen (no screen, or ``--offscreen``) checked the log,
   then ignored it and rendered a new attract game (exit 0, no word). --log loads a game
   to play on, hotseat, in a window: offscreen (and with --attract) it is refused.
2. ``eldfall check``: a reserve creature wrongly given an ``at:`` got its error AND the
   warning that the Conjuration summoning it names "not a reserve model of this scene
   (add it with reserve: true)", which contradicts the file.
3. Plurals: "1 frames of ...", "crate-1 (z 1.00): 1 cells".
4. Dispute pictures from `eldfall demo` and the view's F12 lacked the ``cover: ...``
   caption line `eldfall los --picture` gives: one function (engine.view.pictures.los_detail,
   engine.cover.cover_line's words) gives it to all three.
5. ``eldfall replay LOG --to 120`` said "replayed to event 121 of 2144".
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from cli_run import run_cli
from scene_files import write

ROOT = Path(__file__).resolve().parents[1]
RITUAL = ROOT / "scenes" / "ritual.yaml"
WALLS = str(ROOT / "tests" / "data" / "review8_dispute" / "walls.yaml")


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    """A short logged game (scenes/open.yaml, random bots, seed 3)."""
    from tools.cli import main
    log = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["play", str(ROOT / "scenes" / "open.yaml"), "--bots", "random", "--seed", "3",
                 "--log", str(log), "--quiet"]) == 0
    return log


# ----------------------------------------------------------------- 1. view --log offscreen
@pytest.mark.parametrize("how", ["--offscreen", "no screen"])
def test_view_refuses_a_log_offscreen(game_log, tmp_path, capsys, monkeypatch, how):
    import engine.view.config as config
    monkeypatch.setattr(config, "has_display", lambda: False)
    out = tmp_path / "frames"
    argv = ["view", str(ROOT / "scenes" / "skirmish.yaml"), "--log", str(game_log), "--frames", "1",
            "--out", str(out)] + (["--offscreen"] if how == "--offscreen" else [])
    rc, stdout, err = run_cli(capsys, *argv)
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1, (rc, stdout, err)
    assert lines[0].startswith("<command line>: --log: ") and "needs a window" in lines[0]
    assert "hotseat" in lines[0]
    assert not out.exists() and stdout == ""


def test_view_refuses_a_log_with_attract(game_log, tmp_path, capsys, monkeypatch):
    # with a screen --attract plays the bots' own games: a --log would be ignored there too
    import engine.view.app as app
    import engine.view.config as config
    monkeypatch.setattr(config, "has_display", lambda: True)

    def no_window(*a, **k):
        raise AssertionError("view opened a window (it would run until closed)")
    monkeypatch.setattr(app, "get_app", no_window)
    rc, stdout, err = run_cli(capsys, "view", str(ROOT / "scenes" / "skirmish.yaml"), "--attract",
                              "--log", str(game_log))
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and lines[0].startswith("<command line>: --log: ") and "--attract" in lines[0]


def test_view_still_says_first_that_a_log_cannot_be_read(tmp_path, capsys):
    rc, _, err = run_cli(capsys, "view", str(ROOT / "scenes" / "open.yaml"), "--offscreen", "--frames", "1",
                         "--out", str(tmp_path / "v"), "--log", str(tmp_path / "none.jsonl"))
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and "none.jsonl: cannot read" in lines[0]


# ----------------------------------------------------------------- 2. check: a reserve with an error
def test_check_gives_no_contradicting_summon_warning_for_a_broken_reserve(tmp_path, capsys):
    text = RITUAL.read_text(encoding="utf-8")
    bad = text.replace("reserve: true, tier: 1}", "reserve: true, tier: 1, at: [12, 5]}")
    assert bad != text
    path = write(tmp_path, "ritual.yaml", bad)
    rc, out, err = run_cli(capsys, "check", str(path))
    said = out + err
    assert rc == 2
    assert re.search(r"models\[3\]\.at: a reserve model is off the table", said), said
    assert "not a reserve model" not in said, said


def test_check_still_warns_when_the_summoned_reserve_is_missing(tmp_path, capsys):
    text = RITUAL.read_text(encoding="utf-8")
    gone = "\n".join(ln for ln in text.splitlines() if "id: ritual-wolf" not in ln) + "\n"
    path = write(tmp_path, "ritual.yaml", gone)
    rc, out, err = run_cli(capsys, "check", str(path))
    assert rc == 0
    assert "summons 'ritual-wolf', which is not a reserve model of this scene (add it with reserve: true)" \
        in out + err


# ----------------------------------------------------------------- 3. plurals
def test_reach_says_1_cell(capsys):
    rc, out, err = run_cli(capsys, "reach", str(ROOT / "scenes" / "skirmish.yaml"), "red-brute", "--mode", "run")
    assert rc == 0, err
    assert "crate-1 (z 1.00): 1 cell;" in out
    assert not re.search(r"\b1 (end )?cells\b", out)
    assert re.search(r"\b\d\d+ cells\b", out)


def test_reach_end_cells_and_replay_event_counts_agree_in_number():
    from tools.cmd_replay import replayed_line
    from tools.loading import counted
    assert (counted(1, "end cell"), counted(0, "end cell"), counted(2, "cell")) == ("1 end cell", "0 end cells", "2 cells")
    assert (counted(1, "match", "matches"), counted(3, "match", "matches")) == ("1 match", "3 matches")
    assert "of the log's 1 event," in replayed_line("eldfall", 1, None, 1, 1)


def test_view_says_1_frame(view_app, tmp_path, capsys):
    out = tmp_path / "frames"
    rc, stdout, err = run_cli(capsys, "view", str(ROOT / "scenes" / "open.yaml"), "--offscreen", "--frames", "1",
                              "--out", str(out))
    assert rc == 0, err
    first = stdout.splitlines()[0]
    assert first.startswith("1 frame of an attract-mode eldfall game in "), first


# ----------------------------------------------------------------- 4. the dispute pictures' caption
COVER = """\
name: Cover dispute
games: [eldfall]
table: [24, 24]
terrain:
  - {id: wall-low, shape: box, at: [12, 12, 0], size: [0.5, 4, 1]}
models:
  - {id: red-brute,  side: red,  profile: sample-red#brute,  at: [4, 12],     facing: 0}
  - {id: blue-guard, side: blue, profile: sample-blue#guard, at: [13.38, 12], facing: 180}
"""


def _captions(monkeypatch):
    """Each LoS picture's caption, recorded instead of rendering it."""
    from engine.view import pictures as P
    shots = []

    def shoot(self, path, important=()):
        shots.append((path, self.caption_np.node().getText() if self.caption_np is not None else ""))
        return path

    monkeypatch.setattr(P._Stage, "shoot", shoot)
    return shots


def _los_caption_and_cover(capsys, monkeypatch, scene, a, b, tmp_path):
    """`eldfall los A B --picture`: its printed verdict, cover line and the pictures' captions."""
    shots = _captions(monkeypatch)
    rc, out, err = run_cli(capsys, "los", scene, a, b, "--picture", str(tmp_path / "los"))
    assert rc == 0, err
    cover = next(ln.strip() for ln in out.splitlines() if ln.strip().startswith("cover: "))
    return out.splitlines()[0], cover, [c for _, c in shots]


def test_f12_dispute_has_the_cover_line_of_eldfall_los(view_app, tmp_path, capsys, monkeypatch):
    from engine.scene import load_scene
    from engine.view.play import TableView
    from engine.world import World
    _, cover, los_caps = _los_caption_and_cover(capsys, monkeypatch, WALLS, "a2", "b2", tmp_path)
    assert cover.startswith("cover: light from wall-low: ")
    assert len(los_caps) == 2 and all(cover in c.splitlines() for c in los_caps)
    shots = _captions(monkeypatch)
    view = TableView(view_app, World(load_scene(WALLS)), out_dir=str(tmp_path / "f12"))
    folder, verdict = view.dispute("a2", "b2")
    caps = [c for _, c in shots]
    assert len(caps) == 2 and caps == los_caps, (caps, los_caps)
    assert all(cover in c.splitlines() for c in caps)
    # the live verdict panel gives the same cover line
    view.show_verdict("a2", "b2")
    assert cover in view.hud.verdict.text.splitlines()


def test_demo_dispute_has_the_cover_line_of_eldfall_los(view_app, tmp_path, capsys, monkeypatch):
    path = write(tmp_path, "cover.yaml", COVER)
    _, cover, los_caps = _los_caption_and_cover(capsys, monkeypatch, str(path), "red-brute", "blue-guard",
                                                tmp_path)
    assert cover.startswith("cover: ")
    shots = _captions(monkeypatch)
    rc, out, err = run_cli(capsys, "demo", str(path), "--offscreen", "--frames", "1", "--out", str(tmp_path / "demo"))
    assert rc == 0, err
    folder = str(tmp_path / "demo" / "dispute")
    caps = [c for p, c in shots if str(p).startswith(folder)]
    assert len(caps) == 2 and caps == los_caps, (caps, los_caps)
    assert "  attract:  1 frame of a bot game" in out


def test_los_detail_is_the_printed_cover_line():
    from engine.cover import cover_line
    pictures = pytest.importorskip("engine.view.pictures")
    seen = {"viewer": "a", "target": "b", "los": True, "cover": "light", "cover_piece": "wall",
            "cover_reason": "wall hides 40%"}
    assert pictures.los_detail(seen) == cover_line(seen) == "cover: light from wall: wall hides 40%"
    assert pictures.los_detail(dict(seen, los=False)) is None


# ----------------------------------------------------------------- 5. replay --to
def test_replay_to_says_what_it_counts_and_where_it_stopped(game_log, capsys):
    rc, out, err = run_cli(capsys, "replay", str(game_log), "--to", "40")
    assert rc == 0, err
    first = out.splitlines()[0]
    m = re.fullmatch(r"eldfall game, seed 3: replayed every action logged before event 40 \(--to counts the "
                     r"log's events from 0\), each with all its consequences; the game stands after event "
                     r"(\d+) \((\d+) of the log's (\d+) events, numbered from 0\)", first)
    assert m, first
    last, made, total = map(int, m.groups())
    assert made == last + 1 and last >= 39 and total > made
    rc, out, _ = run_cli(capsys, "replay", str(game_log))
    assert out.splitlines()[0].startswith("eldfall game, seed 3: replayed every action of the log; "
                                          f"the game stands after event {total - 1} ({total} of the log's")
