"""The table camera: orbit (right drag), pan (middle drag or WASD), zoom
(wheel), T top view, R reset, V eye view from the selected model's hitbox.

The camera is a plain orbit rig (target point, distance, heading, pitch)
applied to ``app.camera``; the eye view places the camera at the top front of
a hitbox, where the rulebook's LoS starts, looking along the facing or at a
target.
"""
from __future__ import annotations

import math

import numpy as np
from panda3d.core import Point3, Vec3

MIN_PITCH, MAX_PITCH = 5.0, 89.9


class TableCamera:
    def __init__(self, app, table: tuple[float, float], fov: float = 50.0):
        self.app = app
        self.table = (float(table[0]), float(table[1]))
        self.fov = fov
        self.mode = "orbit"            # "orbit" | "eye" | "free"
        self.eye_of: str | None = None
        self._drag: tuple[str, tuple[float, float]] | None = None
        self.pan_speed = 12.0          # inches per second for WASD
        app.camLens.setFov(fov)
        app.camLens.setNearFar(0.2, 2000.0)
        self.reset()

    # ----------------------------------------------------------- orbit rig
    def reset(self) -> None:
        w, d = self.table
        self.target = np.array([w / 2.0, d * 0.44, 0.0])
        self.heading = 0.0             # camera sits to the -y side of the table
        self.pitch = 50.0
        self.distance = max(w, d) * 1.55
        self.mode = "orbit"
        self.eye_of = None
        self.apply()

    def top_view(self) -> None:
        w, d = self.table
        self.target = np.array([w / 2.0, d / 2.0, 0.0])
        self.pitch = MAX_PITCH
        self.heading = 0.0
        # fit the table in the vertical field of view (and the horizontal one)
        vfov = math.radians(self.app.camLens.getFov()[1])
        hfov = math.radians(self.app.camLens.getFov()[0])
        self.distance = max((d / 2.0) / math.tan(vfov / 2.0), (w / 2.0) / math.tan(hfov / 2.0)) * 1.08
        self.mode = "orbit"
        self.eye_of = None
        self.apply()

    @staticmethod
    def forward(heading: float, pitch: float) -> np.ndarray:
        """The unit view direction of an orbit at ``heading`` and ``pitch`` (degrees):
        heading 0 looks toward +y from the -y side, pitch down from the horizontal."""
        h, p = math.radians(heading), math.radians(pitch)
        return np.array([math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), -math.sin(p)])

    def position(self) -> np.ndarray:
        return self.target - self.forward(self.heading, self.pitch) * self.distance

    @classmethod
    def swing(cls, a: tuple[float, float], b: tuple[float, float]) -> float:
        """Degrees between the view directions of two orbits (heading, pitch)."""
        c = float(cls.forward(*a) @ cls.forward(*b))
        return math.degrees(math.acos(min(1.0, max(-1.0, c))))

    def apply(self) -> None:
        cam = self.app.camera
        pos = self.position()
        cam.setPos(*map(float, pos))
        up = Vec3(0, 0, 1) if self.pitch < 89.0 else Vec3(math.sin(math.radians(self.heading)), math.cos(math.radians(self.heading)), 0)
        cam.lookAt(Point3(*map(float, self.target)), up)

    def orbit(self, dh: float, dp: float) -> None:
        self.mode = "orbit"
        self.heading = (self.heading + dh) % 360.0
        self.pitch = float(np.clip(self.pitch + dp, MIN_PITCH, MAX_PITCH))
        self.apply()

    def pan(self, dx: float, dy: float) -> None:
        """Move the target in the camera's ground frame (inches)."""
        self.mode = "orbit"
        h = math.radians(self.heading)
        right = np.array([math.cos(h), -math.sin(h), 0.0])
        fwd = np.array([math.sin(h), math.cos(h), 0.0])
        self.target = self.target + right * dx + fwd * dy
        w, d = self.table
        self.target[0] = float(np.clip(self.target[0], -0.25 * w, 1.25 * w))
        self.target[1] = float(np.clip(self.target[1], -0.25 * d, 1.25 * d))
        self.apply()

    def zoom(self, factor: float) -> None:
        self.mode = "orbit"
        self.distance = float(np.clip(self.distance * factor, 2.0, 6.0 * max(self.table)))
        self.apply()

    def look(self, eye, at, up=(0, 0, 1)) -> None:
        """Free camera: from ``eye`` toward ``at``."""
        self.mode = "free"
        cam = self.app.camera
        cam.setPos(*map(float, eye))
        cam.lookAt(Point3(*map(float, at)), Vec3(*map(float, up)))

    def set_orbit(self, target, heading: float, pitch: float, distance: float) -> None:
        self.target = np.asarray(target, float)
        self.heading, self.pitch, self.distance = heading % 360.0, float(np.clip(pitch, MIN_PITCH, MAX_PITCH)), distance
        self.mode = "orbit"
        self.apply()

    # ----------------------------------------------------------- eye view
    @staticmethod
    def eye_point(hitbox) -> np.ndarray:
        """The top front point of a hitbox: its top, at the front edge of its base."""
        f = math.radians(float(hitbox.facing))
        r = float(hitbox.radius)
        return np.array([float(hitbox.x) + math.cos(f) * r * 0.98,
                         float(hitbox.y) + math.sin(f) * r * 0.98,
                         float(hitbox.z) + float(hitbox.height) * 0.97])

    def eye_view(self, hitbox, at=None) -> None:
        """Camera at the top front of ``hitbox``; toward ``at`` or along its facing."""
        eye = self.eye_point(hitbox)
        if at is None:
            f = math.radians(float(hitbox.facing))
            at = eye + np.array([math.cos(f), math.sin(f), -0.12]) * 10.0
        self.look(eye, at)
        self.mode = "eye"
        self.eye_of = hitbox.id

    # ----------------------------------------------------------- input
    def on_event(self, event: str) -> bool:
        """Handle a camera event; True when it was one."""
        app = self.app
        if event == "wheel_up":
            self.zoom(1 / 1.12)
        elif event == "wheel_down":
            self.zoom(1.12)
        elif event == "t":
            self.top_view()
        elif event == "r":
            self.reset()
        elif event in ("mouse3", "mouse2"):
            if app.pointer is not None:
                self._drag = (event, tuple(app.pointer))
            return event == "mouse3"      # middle also starts a pan; right is camera-only
        elif event in ("mouse3-up", "mouse2-up"):
            self._drag = None
        else:
            return False
        return True

    def update(self, dt: float) -> None:
        """Per frame: drags and held WASD."""
        app = self.app
        held = app.held
        if self._drag is not None and app.pointer is not None:
            button, (x0, y0) = self._drag
            x1, y1 = app.pointer
            dx, dy = x1 - x0, y1 - y0
            if button == "mouse3":
                self.orbit(-dx * 120.0, -dy * 60.0)
            else:
                scale = self.distance * 0.6
                self.pan(-dx * scale, -dy * scale)
            self._drag = (button, (x1, y1))
        mx = (("d" in held) - ("a" in held))
        my = (("w" in held) - ("s" in held))
        if mx or my:
            step = self.pan_speed * dt * (2.0 if "shift" in held else 1.0)
            self.pan(mx * step, my * step)
        if "q" in held or "e" in held:
            self.orbit((("q" in held) - ("e" in held)) * 60.0 * dt, 0.0)
