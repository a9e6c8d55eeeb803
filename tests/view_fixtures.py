"""A small table built in code for the view tests (independent of scene files)."""
from __future__ import annotations

from engine.scene import ModelSpec, Scene, TerrainSpec
from engine.world import World


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
    c = PlayController(view_app, world, game, geo, out_dir=str(tmp_path))
    c.camera.top_view()
    view_app.step()
    return c
