"""Picking: the mouse ray comes from the camera lens and the engine answers.

``pick_ray`` extrudes the pointer through the lens (``Lens.extrude``) into a
table-space ray; ``pick`` hands that ray to ``world.pick`` -- the same
triangles and hitbox cylinders the line-of-sight rays are cast against, so
what you click is what the rules see. No Panda3D collision system is used.
Tokens (``pick_token``) are not in the engine: their discs are tested in
numpy against the same ray, behind whatever the engine hit first.
"""
from __future__ import annotations

import numpy as np
from panda3d.core import Point2, Point3


def pick_ray(app, film_xy) -> tuple[np.ndarray, np.ndarray]:
    """(origin, unit direction) in table coordinates for a film point (-1..1)."""
    near, far = Point3(), Point3()
    if not app.camLens.extrude(Point2(float(film_xy[0]), float(film_xy[1])), near, far):
        raise ValueError(f"the lens cannot extrude {film_xy}")
    n = app.render.getRelativePoint(app.cam, near)
    f = app.render.getRelativePoint(app.cam, far)
    origin = np.array([n.x, n.y, n.z], dtype=float)
    d = np.array([f.x - n.x, f.y - n.y, f.z - n.z], dtype=float)
    return origin, d / (np.linalg.norm(d) or 1.0)


def _pointer_ray(app, film_xy, pixel):
    """The picking ray (origin, direction) through a pixel, a film point or the
    pointer (in that order of preference), or None when there is none."""
    if pixel is not None:
        film_xy = app.pixel_to_film(*pixel)
    if film_xy is None:
        film_xy = app.pointer
    return None if film_xy is None else pick_ray(app, film_xy)


def pick(app, world, film_xy=None, *, pixel=None):
    """What is under a film point (or a pixel): ``world.pick``'s answer
    (kind "model"|"terrain"|"table"|None, id, point, distance)."""
    ray = _pointer_ray(app, film_xy, pixel)
    return None if ray is None else world.pick(*ray)


def pick_model(app, world, film_xy=None, *, pixel=None) -> str | None:
    hit = pick(app, world, film_xy, pixel=pixel)
    return hit.id if hit is not None and hit.kind == "model" else None


def pick_point(app, world, film_xy=None, *, pixel=None):
    """The table point under the pointer (x, y, z) or None (sky)."""
    hit = pick(app, world, film_xy, pixel=pixel)
    return None if hit is None or hit.point is None else tuple(hit.point)


def pick_surface(app, world, film_xy=None, *, pixel=None):
    """The terrain or table point under a film point (or a pixel), models let
    through (a waypoint is clicked on the ground, not on a model's head), or None."""
    ray = _pointer_ray(app, film_xy, pixel)
    if ray is None:
        return None
    origin, direction = ray
    dist, _ = world.rays.first_hit(origin[None], direction[None])
    d = float(dist[0])
    return tuple(float(v) for v in origin + direction * d) if np.isfinite(d) else None


def standing_point(world, origin, direction, radius: float, top: bool = False):
    """Where a base stands for a click along a ray (models let through): the surface
    hit; on a face a base cannot stand on (the side of a wall or a rock) the ground at
    its foot on the clicker's side, the base's edge against the face (``top``: the top
    above the face, where a climb up it ends). None when the ray meets nothing."""
    from engine.world import WALKABLE_MIN_NZ
    origin = np.asarray(origin, float)
    direction = np.asarray(direction, float)
    dist, tri = world.rays.first_hit(origin[None], direction[None])
    d, t = float(dist[0]), int(tri[0])
    if not np.isfinite(d):
        return None
    p = origin + direction * d
    n = world.rays.normals[t] if t >= 0 else np.array([0.0, 0.0, 1.0])
    nh = np.asarray(n[:2], float)
    if n[2] >= WALKABLE_MIN_NZ or np.linalg.norm(nh) < 1e-9:
        return tuple(float(v) for v in p)
    nh = nh / np.linalg.norm(nh)
    if float(np.dot(nh, direction[:2])) > 0:     # the face's back seen through (a thin piece): face the clicker
        nh = -nh
    if top:
        # just behind the face, on the lowest surface above the point clicked
        q = p[:2] - nh * 1e-2
        above = [z for z in world.surfaces_at(float(q[0]), float(q[1])) if z >= p[2] - 1e-6]
        if above:
            return (float(q[0]), float(q[1]), float(min(above)))
    q = p[:2] + nh * (float(radius) + 1e-2)      # the base's edge against the face
    z = float(world.surface_height(q[None], below=p[2])[0])
    if not np.isfinite(z):                       # off the table: at the face itself
        q = p[:2] + nh * 1e-2
        z = float(world.surface_height(q[None], below=p[2])[0])
    return (float(q[0]), float(q[1]), z) if np.isfinite(z) else tuple(float(v) for v in p)


def pick_standing(app, world, radius: float, top: bool = False, film_xy=None, *, pixel=None):
    """``standing_point`` for the ray through a film point, a pixel or the pointer."""
    ray = _pointer_ray(app, film_xy, pixel)
    return None if ray is None else standing_point(world, *ray, radius, top)


def pick_token(app, world, tokens, film_xy=None, *, pixel=None) -> str | None:
    """The token (``engine.view.tokens.TokenLayer``) under a film point or a
    pixel, or None. The engine answers first (``world.pick``); a token is
    taken only when its disc is not behind what the engine hit (a model
    standing on a token is picked as the model)."""
    if pixel is not None:
        film_xy = app.pixel_to_film(*pixel)
    if film_xy is None:
        film_xy = app.pointer
    if film_xy is None or tokens is None or not tokens.looks:
        return None
    origin, direction = pick_ray(app, film_xy)
    hit = world.pick(origin, direction)
    limit = float("inf") if hit is None or hit.kind is None else float(hit.distance)
    if hit is not None and hit.kind == "model":
        limit = min(limit, float(hit.distance))
        tid = tokens.pick(origin, direction, limit, slack=0.0)
        return tid
    return tokens.pick(origin, direction, limit)
