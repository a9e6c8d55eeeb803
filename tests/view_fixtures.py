"""A small table built in code for the view tests (independent of scene files)."""
from __future__ import annotations

import os

from engine.scene import ModelSpec, Scene, TerrainSpec
from engine.world import World

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def small_world() -> World:
    terrain = (
        TerrainSpec("wall-1", "box", (18.0, 14.0, 0.0), size=(8.0, 1.0, 3.0)),
        TerrainSpec("low-wall", "box", (10.0, 24.0, 0.0), size=(6.0, 0.8, 1.0)),
        TerrainSpec("tower", "box", (29.0, 29.0, 0.0), size=(5.0, 5.0, 6.0)),
    )
    models = (
        ModelSpec("red-archer", "red", 32, 45, (18.0, 8.0, None), facing=90.0),
        ModelSpec("red-knight", "red", 32, 45, (10.0, 19.0, None), facing=60.0),
        ModelSpec("blue-mage", "blue", 32, 45, (18.0, 20.0, None), facing=270.0),
        ModelSpec("blue-troll", "blue", 40, 45, (25.0, 21.0, None), facing=250.0),
    )
    return World(Scene("", (36.0, 36.0), terrain, models))


def press(app, key, **kw):
    """Send one key or click to the view app and draw a frame."""
    out = app.dispatch(key, **kw)
    app.step()
    return out


def click_model(app, world, mid):
    """Click the model's hitbox a little above its middle."""
    hb = world.hitbox(mid)
    return press(app, "mouse1", pixel=app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))


def stage_table(view_app, world):
    """Put ``world`` on the shared app's stage, top view: (table scene, camera)."""
    from engine.view.camera import TableCamera
    from engine.view.meshes import TableScene
    view_app.clear_table()
    table = TableScene(world, view_app.root)
    view_app.table_scene = table
    view_app.frame_lights(*world.table)
    cam = TableCamera(view_app, world.table)
    view_app.table_camera = cam
    cam.top_view()
    return table, cam


def menu_key(ctl, prefix: str) -> str:
    """The number key of the controller's menu entry that starts with ``prefix``."""
    labels = [label for label, _ in ctl.menu]
    i = next((i for i, m in enumerate(labels) if m.startswith(prefix)), None)
    assert i is not None, f"no menu entry {prefix!r} in {labels}"
    return str(i + 1) if i < 9 else "0"


def open_controller(view_app, world, game, geo, tmp_path):
    """A hotseat PlayController on ``game`` seen from the top, one frame drawn."""
    from engine.view.play import PlayController
    view_app.pointer = None          # the last test's pointer would hover a model of this table
    c = PlayController(view_app, world, game, geo, out_dir=str(tmp_path))
    c.camera.top_view()
    view_app.step()
    return c


def at_action_step(view_app, world, models_dir, tmp_path, mid: str):
    """A hotseat controller (top view) on a new Eldfall game of ``world`` (seed 3), red's
    ``mid`` activated and Idle, every Crouched window and reaction passed: its Action
    Step is next."""
    from engine.view.play import PlayController
    from rules.eldfall.actions import Activate, ChooseOrder, Move, Pass
    from tools.cmd_view import game_factory
    game, geo = game_factory(world, "eldfall", models_dir)(3)
    c = PlayController(view_app, world, game, geo, out_dir=str(tmp_path))
    c.camera.top_view()
    w = game.pending[1]
    c.apply(ChooseOrder(w, w == "red"))
    c.apply(Activate(mid))
    for _ in range(8):                 # Idle; every Crouched window and reaction passed
        if game.pending[0] == "action":
            break
        c.apply(Move(mid, "idle") if game.pending[0] == "movement" else Pass(game.pending[1]))
    assert game.pending == ("action", mid), game.pending
    view_app.step()
    return c


def point_at_ground(view_app, c, p):
    """The pointer on the ground at ``p`` (not on a model drawn over it), a frame drawn."""
    view_app.pointer = view_app.pixel_to_film(*view_app.project(p))
    hit = c.pick_now()
    assert hit is not None and hit.kind != "model" and abs(hit.point[0] - p[0]) < 0.05, hit
    view_app.step()


def open_scene(view_app, tmp_path, scene: str, game_name: str = "eldfall", seed: int = 3):
    """``open_controller`` on a scene file (a path, or YAML text written to tmp_path)
    with its game as ``eldfall view`` builds it."""
    from tools.cmd_view import game_factory, load_world
    if "\n" in scene:
        path = tmp_path / "scene.yaml"
        path.write_text(scene)
        scene = str(path)
    world = load_world(scene if os.path.isabs(scene) else os.path.join(ROOT, scene))
    game, geo = game_factory(world, game_name)(seed)
    return open_controller(view_app, world, game, geo, tmp_path)


# ---------------------------------------------------------------- picture measuring
def label_rect(app, node):
    """A text node's pixel rectangle (y up) as drawn now (a label faces the camera)."""
    from panda3d.core import Point2, Point3
    lo, hi = node.getTightBounds(app.cam)
    w, h = app.size
    xs, ys = [], []
    for x in (lo[0], hi[0]):
        for y in (lo[1], hi[1]):
            for z in (lo[2], hi[2]):
                p2 = Point2()
                app.camLens.project(Point3(x, y, z), p2)
                xs.append((p2.x + 1) * w / 2)
                ys.append((p2.y + 1) * h / 2)
    return min(xs), min(ys), max(xs), max(ys)


def model_rect(app, world, mid):
    """A model's hitbox on screen (pixels, y up), or None when it is not in front."""
    import numpy as np
    hb = world.hitbox(mid)
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    pts = [app.project((hb.x + hb.radius * np.cos(t), hb.y + hb.radius * np.sin(t), hb.z + dz))
           for t in a for dz in (0.0, hb.height)]
    if any(p is None for p in pts):
        return None
    h = app.size[1]
    xs, ys = [p[0] for p in pts], [h - p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def rect_overlap(a, b) -> float:
    """The area two pixel rectangles share (0 when apart)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def read_rgb(path):
    """A PNG as (h, w, 3) floats 0-1, rows from the top."""
    import numpy as np
    from panda3d.core import PNMImage, Texture
    img = PNMImage()
    assert img.read(path)
    img.removeAlpha()
    w, h = img.getXSize(), img.getYSize()
    tex = Texture()
    tex.load(img)
    buf = np.frombuffer(bytes(tex.getRamImageAs("RGB")), np.uint8).reshape(h, w, 3)
    return buf[::-1].astype(float) / 255.0              # texture rows run bottom-up


def attract_to_first_wound(view_app, scene_path, tmp_path, decisions=12):
    """An attract-mode controller (greedy bots, seed 1) run one frame per decision
    until a step that wounds; returns (controller, world, that step's events).
    The caller closes the controller."""
    import pytest
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    world = load_world(scene_path)
    ctl = AttractController(view_app, world, game_factory(world, "eldfall"), bots_factory("eldfall", "greedy"),
                            seed=1, out_dir=str(tmp_path))
    for i in range(decisions):
        n0 = len(ctl.game.events)
        ctl.run_frames(1, str(tmp_path / "frames"), prefix=f"f{i}")
        new = ctl.game.events[n0:]
        if any(e.kind == "wound" for e in new):
            return ctl, world, new
    ctl.close()
    pytest.fail(f"no wound in the first {decisions} decisions")


def hotseat_activate(app, ctl, mid: str, order: str) -> None:
    """Answer the turn order with the menu entry ``order`` (e.g. "order blue
    second"), click ``mid`` to activate it and pass the Crouched windows."""
    press(app, menu_key(ctl, order))
    click_model(app, ctl.world, mid)
    while ctl.game.pending[0] == "crouch":
        press(app, "p")


def hotseat_idle_to_action(app, ctl) -> None:
    """The active model stays (Idle); every reaction and Crouched window passed."""
    press(app, menu_key(ctl, "Move: Idle"))
    while ctl.game.pending[0] in ("reaction", "crouch"):
        press(app, "p")


def all_menu_entries(ctl) -> list[str]:
    """Every entry of the controller's menu, whatever the page it is on."""
    ctl.page_menu = lambda menu: menu
    ctl.refresh()
    labels = [label for label, _ in ctl.menu]
    del ctl.page_menu
    ctl.refresh()
    return labels
