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
