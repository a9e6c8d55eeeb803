"""The Panda3D application: one ShowBase per process, one frame task.

``get_app(cfg)`` creates the single :class:`ViewApp` lazily and returns it
afterwards (Panda3D allows only one ShowBase per process; tests, pictures and
the window all share it). The app owns:

* the window or offscreen buffer, opened through the first pipe that works
  (``config.pipe_order()``: EGL, then the software rasteriser);
* ``root``: the node under which a table is drawn (``clear_table()`` empties it);
* ONE frame task that calls the registered per-frame callbacks in order;
* explicit input dispatch: Panda3D events and synthetic events from tests go
  through :meth:`ViewApp.dispatch` to whichever controller is installed;
* :meth:`step` to drive the loop by hand (tests, offscreen frames, pictures).

Nothing here uses ShowBase's injected builtins (``base``, ``render``,
``loader``): everything goes through the app object.
"""
from __future__ import annotations

import dataclasses
import sys
import time
from typing import Callable

from panda3d.core import (AmbientLight, AntialiasAttrib, BitMask32, DirectionalLight,
                          GraphicsPipeSelection, NodePath, PNMImage, Point2,
                          Point3, Vec4, WindowProperties,
                          loadPrcFileData)

from engine.view.config import ViewConfig, prc_text

# Lit, shadowed shading for the table (GLSL 1.50). Panda3D 1.10's own shader
# generator emits Cg, which Mesa's llvmpipe cannot run, so the view ships its
# own: ambient + a sun with a shadow map (hardware 2x2 PCF) + a soft fill light.
VERT = """#version 150
uniform mat4 p3d_ModelViewProjectionMatrix;
uniform mat4 p3d_ModelViewMatrix;
uniform mat3 p3d_NormalMatrix;
uniform struct p3d_LightSourceParameters {
  vec4 color; vec4 position; sampler2DShadow shadowMap; mat4 shadowViewMatrix;
} p3d_LightSource[2];
uniform struct { vec4 ambient; } p3d_LightModel;
uniform vec4 p3d_ColorScale;
in vec4 p3d_Vertex; in vec3 p3d_Normal; in vec4 p3d_Color;
out vec4 v_color; out vec3 v_base; out vec3 v_sun; out vec4 v_shadow;
void main() {
  // lighting per vertex: the table's meshes are flat-shaded (a normal per
  // face), so this equals per-pixel diffuse at a fraction of the cost on a
  // software renderer; only the shadow test runs per pixel.
  vec4 vp = p3d_ModelViewMatrix * p3d_Vertex;
  vec3 n = normalize(p3d_NormalMatrix * p3d_Normal);
  vec3 l0 = normalize(p3d_LightSource[0].position.xyz - vp.xyz * p3d_LightSource[0].position.w);
  vec3 l1 = normalize(p3d_LightSource[1].position.xyz - vp.xyz * p3d_LightSource[1].position.w);
  float d0 = max(dot(n, l0), 0.0);
  float d1 = max(abs(dot(n, l1)), 0.0);
  v_base = p3d_LightModel.ambient.rgb + p3d_LightSource[1].color.rgb * d1;
  v_sun = p3d_LightSource[0].color.rgb * d0;
  v_color = p3d_Color * p3d_ColorScale;
  vec4 sc = p3d_LightSource[0].shadowViewMatrix * vp;
  sc.z -= (0.0015 + 0.004 * (1.0 - d0)) * sc.w;
  v_shadow = sc;
  gl_Position = p3d_ModelViewProjectionMatrix * p3d_Vertex;
}
"""
FRAG = """#version 150
uniform struct p3d_LightSourceParameters {
  vec4 color; vec4 position; sampler2DShadow shadowMap; mat4 shadowViewMatrix;
} p3d_LightSource[2];
uniform float shadow_on;
in vec4 v_color; in vec3 v_base; in vec3 v_sun; in vec4 v_shadow;
out vec4 o_color;
void main() {
  float lit = 1.0;
  if (shadow_on > 0.5) lit = textureProj(p3d_LightSource[0].shadowMap, v_shadow);
  o_color = vec4(v_color.rgb * (v_base + v_sun * mix(0.3, 1.0, lit)), v_color.a);
}
"""

_APP: "ViewApp | None" = None

#: camera bit of the sun's shadow camera: overlays, labels and the grid hide
#: from it (they cast no shadows)
SHADOW_MASK = BitMask32.bit(5)

#: keys whose press (and release, for modifiers and camera keys) reach dispatch
KEYS = ("escape", "enter", "space", "tab", "backspace", "delete", "f1", "f12",
        "arrow_up", "arrow_down", "arrow_left", "arrow_right",
        *"abcdefghijklmnopqrstuvwxyz", *"0123456789",
        "control-z", "control-s", "control-o", "control-y")
HELD = ("w", "a", "s", "d", "q", "e", "shift", "control")
MOUSE = ("mouse1", "mouse2", "mouse3", "wheel_up", "wheel_down")


class RenderError(RuntimeError):
    """No pipe could open a window or an offscreen buffer."""


def get_app(cfg: ViewConfig | None = None) -> "ViewApp":
    """The one ViewApp of this process, created on first use with ``cfg``."""
    global _APP
    if _APP is None:
        _APP = ViewApp(cfg or ViewConfig())
    return _APP


def existing_app() -> "ViewApp | None":
    return _APP


def _showbase():
    from direct.showbase.ShowBase import ShowBase
    return ShowBase


class ViewApp(_showbase()):
    def __init__(self, cfg: ViewConfig):
        self.cfg = cfg
        loadPrcFileData("eldfall-view", prc_text(cfg))
        super().__init__(windowType="none")
        self.pipe_name = self._open(cfg)
        if cfg.multisamples is None and cfg.samples and self.software:
            # a window on a software renderer: multisampling would cost more
            # than the frame budget (measured: 4x MSAA doubles llvmpipe's frame)
            self.cfg = cfg = dataclasses.replace(cfg, multisamples=0)
            loadPrcFileData("eldfall-view-software", "framebuffer-multisample 0\nmultisamples 0\n")
            self.closeWindow(self.win)
            self.win = None
            self.pipe = None
            self.pipe_name = self._open(cfg)
        self.disableMouse()                       # our camera controller drives the camera
        self.win.setClearColor(Vec4(0.16, 0.17, 0.20, 1.0))
        self.root = self.render.attachNewNode("table-root")
        self.table_scene = None
        self.render.setAntialias(AntialiasAttrib.MMultisample if cfg.samples else AntialiasAttrib.MNone)
        self.shaded = self._install_shader()
        self._frame_callbacks: list[tuple[str, Callable[[float], None]]] = []
        #: a window left running (an event's attract screen, a hotseat game): an error in a
        #: frame callback is reported on stderr once and the window goes on (``eldfall view``
        #: sets it before ``run``); tests and offscreen frames keep it off so errors surface
        self.survive_frame_errors = False
        self.frame_errors: dict[str, int] = {}
        self.controller = None                    # object with .on_event(name, app, **kw)
        self.pointer: tuple[float, float] | None = None   # film coords (-1..1), None = off window
        self.held: set[str] = set()
        self.last_frame_ms = 0.0
        self._last_t = time.perf_counter()
        self.lights = self._make_lights()
        self.shadow_dirty = True          # re-render the shadow map only when something moved
        self.taskMgr.add(self._frame_task, "eldfall-frame", sort=-10)
        if not cfg.is_offscreen:
            self._accept_input()

    # ------------------------------------------------------------------ opening
    def _open(self, cfg: ViewConfig) -> str:
        """Try each pipe in order; the first that opens a window/buffer wins."""
        selection = GraphicsPipeSelection.getGlobalPtr()
        errors = []
        for name in cfg.pipe_order():
            try:
                pipe = selection.makeModulePipe(name)
            except Exception as exc:              # pragma: no cover - depends on the machine
                errors.append(f"{name}: {exc}")
                continue
            if pipe is None or not pipe.isValid():
                errors.append(f"{name}: pipe not available")
                continue
            self.pipe = pipe
            props = WindowProperties.getDefault()
            props.setSize(cfg.width, cfg.height)
            if not cfg.is_offscreen:
                props.setTitle(cfg.title)
            ok = self.openMainWindow(type="offscreen" if cfg.is_offscreen else "onscreen",
                                     props=props, size=(cfg.width, cfg.height))
            if ok and self.win is not None:
                # offscreen buffers render only when the engine renders a frame
                self.graphicsEngine.renderFrame()
                if self.win.isValid():
                    return name
            errors.append(f"{name}: could not open a {'buffer' if cfg.is_offscreen else 'window'}")
            if self.win is not None:
                self.closeWindow(self.win)
                self.win = None
            self.pipe = None
        raise RenderError("no Panda3D pipe could render here (" + "; ".join(errors) + ")")

    @property
    def software(self) -> bool:
        """Rendering on the CPU (Mesa llvmpipe/softpipe, or Panda's tinydisplay)."""
        name = self.pipe.getType().getName().lower()
        drv = (self.win.getGsg().getDriverRenderer() or "").lower()
        return "tiny" in name or any(k in drv for k in ("llvmpipe", "softpipe", "swrast", "software"))

    @property
    def renderer(self) -> str:
        gsg = self.win.getGsg()
        return f"{self.pipe.getType().getName()} / {gsg.getDriverRenderer() or 'software'}"

    @property
    def size(self) -> tuple[int, int]:
        return self.win.getXSize(), self.win.getYSize()

    # ------------------------------------------------------------------ shading
    def _install_shader(self) -> bool:
        """Our GLSL lighting on ``root`` when the renderer runs GLSL; else
        fixed-function lighting (p3tinydisplay), without shadows."""
        from panda3d.core import Shader
        gsg = self.win.getGsg()
        if not (gsg.getSupportsBasicShaders() and gsg.getSupportsGlsl()):
            return False
        shader = Shader.make(Shader.SL_GLSL, VERT, FRAG)
        if shader is None:
            return False
        self.root.setShader(shader)
        self.root.setShaderInput("shadow_on", 1.0 if self.cfg.shadows else 0.0)
        return True

    # ------------------------------------------------------------------ lights
    def _make_lights(self) -> dict[str, NodePath]:
        amb = AmbientLight("ambient")
        amb.setColor(Vec4(0.40, 0.40, 0.44, 1))
        amb_np = self.render.attachNewNode(amb)
        sun = DirectionalLight("sun")
        sun.setColor(Vec4(0.62, 0.60, 0.55, 1))
        sun_np = self.render.attachNewNode(sun)
        fill = DirectionalLight("fill")
        fill.setColor(Vec4(0.18, 0.2, 0.26, 1))
        fill_np = self.render.attachNewNode(fill)
        fill_np.setHpr(135, -35, 0)
        sun.setPriority(10)                       # p3d_LightSource[0] in the shader
        fill.setPriority(0)
        for np_ in (amb_np, sun_np, fill_np):
            self.root.setLight(np_)
        return {"ambient": amb_np, "sun": sun_np, "fill": fill_np}

    def frame_lights(self, width: float, depth: float, height: float = 12.0) -> None:
        """Aim the sun (and its shadow camera) at a table of this size."""
        sun_np = self.lights["sun"]
        sun = sun_np.node()
        cx, cy = width / 2.0, depth / 2.0
        span = max(width, depth)
        sun_np.setPos(cx - 0.45 * span, cy - 0.6 * span, height + 1.1 * span)
        sun_np.lookAt(Point3(cx, cy, 0))
        self.shadow_dirty = True
        if self.cfg.shadows and self.shaded:
            sun.setCameraMask(SHADOW_MASK)
            sun.setShadowCaster(True, self.cfg.shadow_size, self.cfg.shadow_size)
            lens = sun.getLens()
            lens.setFilmSize(span * 1.45, span * 1.45)
            lens.setNearFar(1.0, span * 3.0)

    # ------------------------------------------------------------------ table
    def clear_table(self) -> None:
        """Remove everything drawn under ``root`` (a new table, a new picture)."""
        for child in self.root.getChildren():
            child.removeNode()
        self._frame_callbacks.clear()
        self.controller = None
        for node in list(self.aspect2d.getChildren()):
            if node.getName().startswith("hud"):
                node.removeNode()

    # ------------------------------------------------------------------ loop
    def on_frame(self, name: str, fn: Callable[[float], None]) -> None:
        """Register ``fn(dt)`` to run once per frame, in registration order."""
        self._frame_callbacks = [(n, f) for n, f in self._frame_callbacks if n != name]
        self._frame_callbacks.append((name, fn))

    def remove_frame(self, name: str) -> None:
        self._frame_callbacks = [(n, f) for n, f in self._frame_callbacks if n != name]

    def _frame_task(self, task):
        now = time.perf_counter()
        dt = min(0.1, now - self._last_t)
        self._last_t = now
        mw = self.mouseWatcherNode if hasattr(self, "mouseWatcherNode") else None
        if mw is not None and mw.hasMouse():
            self.pointer = (mw.getMouseX(), mw.getMouseY())
        for _name, fn in list(self._frame_callbacks):
            if not self.survive_frame_errors:
                fn(dt)
                continue
            try:
                fn(dt)
            except Exception as exc:          # the window stays up: the next frame goes on
                self._frame_error(_name, exc)
        self._shadow_pass()
        return task.cont

    def _frame_error(self, name: str, exc: Exception) -> None:
        """Report an error of frame callback ``name`` on stderr: the traceback the
        first time, one line when it comes again (every 100th time), never a flood."""
        key = f"{name}: {type(exc).__name__}: {exc}"
        n = self.frame_errors[key] = self.frame_errors.get(key, 0) + 1
        if n == 1:
            import traceback
            print(f"eldfall view: an error in the {name} step (the window goes on):", file=sys.stderr)
            traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
        elif n % 100 == 0:
            print(f"eldfall view: the same error again ({n} times): {key}", file=sys.stderr)

    def _shadow_pass(self) -> None:
        """The sun is fixed to the table, so its shadow map changes only when
        a model or the table changes: render it then, and skip it otherwise."""
        sun = self.lights["sun"].node()
        if not sun.isShadowCaster():
            return
        buf = sun.getShadowBuffer(self.win.getGsg())
        if buf is None:
            return
        table = getattr(self, "table_scene", None)
        if table is not None and getattr(table, "changed", False):
            table.changed = False
            self.shadow_dirty = True
        buf.setActive(bool(self.shadow_dirty))
        self.shadow_dirty = False

    def step(self, frames: int = 1) -> float:
        """Run ``frames`` frames by hand; return the mean frame time in ms."""
        t0 = time.perf_counter()
        for _ in range(max(1, frames)):
            self.taskMgr.step()
        self.graphicsEngine.syncFrame()
        self.last_frame_ms = (time.perf_counter() - t0) * 1000.0 / max(1, frames)
        return self.last_frame_ms

    def render_frame(self) -> None:
        """Render once without running tasks (pictures)."""
        self._shadow_pass()
        self.graphicsEngine.renderFrame()
        self.graphicsEngine.syncFrame()

    # ------------------------------------------------------------------ input
    def _accept_input(self) -> None:
        for key in KEYS + MOUSE:
            self.accept(key, self.dispatch, [key])
        for key in HELD + ("mouse1", "mouse2", "mouse3"):
            self.accept(key, self._hold, [key, True])
            self.accept(key + "-up", self._hold, [key, False])
            if key not in ("shift", "control"):
                # with a modifier held Panda3D names the event "shift-w"
                self.accept("shift-" + key, self._hold, [key, True])
                self.accept("shift-" + key + "-up", self._hold, [key, False])
        for key in ("mouse1", "mouse2", "mouse3"):
            self.accept(key + "-up", self.dispatch, [key + "-up"])
        self.accept("window-event", self._window_event)

    def _hold(self, key: str, down: bool) -> None:
        (self.held.add if down else self.held.discard)(key)

    def _window_event(self, win) -> None:
        if win is self.win and not win.getProperties().getOpen():
            self.userExit()

    def dispatch(self, event: str, **kw) -> object:
        """Route one input event to the controller. Tests call this directly.

        ``pointer=(x, y)`` in film coordinates (-1..1) or ``pixel=(px, py)``
        moves the pointer first.
        """
        if "pixel" in kw:
            self.pointer = self.pixel_to_film(*kw.pop("pixel"))
        if "pointer" in kw:
            self.pointer = kw.pop("pointer")
        if self.controller is None:
            return None
        return self.controller.on_event(event, **kw)

    # ------------------------------------------------------------------ screen
    def pixel_to_film(self, px: float, py: float) -> tuple[float, float]:
        w, h = self.size
        return (2.0 * (px + 0.5) / w - 1.0, 1.0 - 2.0 * (py + 0.5) / h)

    def film_to_pixel(self, fx: float, fy: float) -> tuple[float, float]:
        w, h = self.size
        return ((fx + 1.0) * w / 2.0 - 0.5, (1.0 - fy) * h / 2.0 - 0.5)

    def project(self, point) -> tuple[float, float] | None:
        """Pixel (x, y) of a 3D table point, or None when it falls outside the frame (behind
        the camera, or off any edge: ``Lens.project`` answers only for points it shows)."""
        p3 = self.cam.getRelativePoint(self.render, Point3(*map(float, point)))
        p2 = Point2()
        if not self.camLens.project(p3, p2):
            return None
        return self.film_to_pixel(p2.x, p2.y)

    def screenshot(self, path: str) -> str:
        """Write the current frame to ``path`` (PNG)."""
        img = PNMImage()
        if not self.win.getScreenshot(img):
            raise RenderError("could not read the frame back")
        img.write(path)
        return path

    def frame_array(self):
        """The current frame as a (h, w, 3) uint8 numpy array (row 0 at the top)."""
        import numpy as np
        tex = self.win.getScreenshot()
        if tex is None:
            raise RenderError("could not read the frame back")
        data = np.frombuffer(bytes(tex.getRamImageAs("RGB")), dtype=np.uint8)
        arr = data.reshape(tex.getYSize(), tex.getXSize(), 3)
        return arr[::-1].copy()
