"""Terrain primitives and mesh files -> trimesh meshes, in table coordinates.

Every builder returns a closed mesh in inches with z up. ``at`` is the bottom
centre of the piece (for a prism, the origin of its polygon's coordinates),
``turn`` a rotation in degrees counter-clockwise about z through ``at``.
"""
from __future__ import annotations

import math

import numpy as np
import trimesh

from engine.scene import TerrainSpec

CYLINDER_SECTIONS = 48


def _place(mesh: trimesh.Trimesh, spec: TerrainSpec) -> trimesh.Trimesh:
    if spec.turn:
        mesh.apply_transform(trimesh.transformations.rotation_matrix(math.radians(spec.turn), (0, 0, 1)))
    mesh.apply_translation(np.asarray(spec.at, dtype=float))
    return mesh


def box(width: float, depth: float, height: float) -> trimesh.Trimesh:
    """A box with its bottom centre at the origin."""
    mesh = trimesh.creation.box(extents=(width, depth, height))
    mesh.apply_translation((0, 0, height / 2.0))
    return mesh


def cylinder(radius: float, height: float, sections: int = CYLINDER_SECTIONS) -> trimesh.Trimesh:
    """A vertical cylinder with its bottom centre at the origin."""
    mesh = trimesh.creation.cylinder(radius=radius, height=height, sections=sections)
    mesh.apply_translation((0, 0, height / 2.0))
    return mesh


def wedge(width: float, depth: float, height: float) -> trimesh.Trimesh:
    """A ramp rising along +x from 0 at x=-width/2 to ``height`` at x=+width/2."""
    w, d, h = width / 2.0, depth / 2.0, height
    v = np.array([
        [-w, -d, 0], [w, -d, 0], [w, d, 0], [-w, d, 0],   # bottom 0-3
        [w, -d, h], [w, d, h],                            # top edge 4-5
    ], dtype=float)
    f = np.array([
        [0, 2, 1], [0, 3, 2],          # bottom
        [1, 2, 5], [1, 5, 4],          # back wall (x = +w)
        [0, 1, 4],                     # side y = -d
        [3, 5, 2],                     # side y = +d
        [0, 4, 5], [0, 5, 3],          # slope
    ])
    mesh = trimesh.Trimesh(v, f, process=True)
    mesh.fix_normals()
    return mesh


def prism(points, height: float) -> trimesh.Trimesh:
    """A polygon footprint (relative to the origin) extruded up by ``height``."""
    from shapely.geometry import Polygon
    poly = Polygon(points)
    if not poly.is_valid:
        poly = poly.buffer(0)
    return trimesh.creation.extrude_polygon(poly, height)


def heightfield(width: float, depth: float, heights) -> trimesh.Trimesh:
    """A closed solid whose top is the bilinear grid ``heights`` over width x depth.

    ``heights[row][col]``: rows run along +y (the first row at the low-y edge),
    columns along +x. The top is exactly z = heights (piecewise linear, two
    triangles per cell); the bottom sits 0.01" below z = 0 so the solid stays
    closed where a height is 0.
    """
    hz = np.asarray(heights, dtype=float)
    rows, cols = hz.shape
    xs = np.linspace(-width / 2.0, width / 2.0, cols)
    ys = np.linspace(-depth / 2.0, depth / 2.0, rows)
    gx, gy = np.meshgrid(xs, ys)
    top = np.column_stack([gx.ravel(), gy.ravel(), hz.ravel()])
    bot = np.column_stack([gx.ravel(), gy.ravel(), np.full(gx.size, min(0.0, float(hz.min())) - 0.01)])
    verts = np.vstack([top, bot])
    n = rows * cols
    idx = np.arange(n).reshape(rows, cols)
    a, b = idx[:-1, :-1].ravel(), idx[:-1, 1:].ravel()
    c, d = idx[1:, 1:].ravel(), idx[1:, :-1].ravel()
    faces = [np.column_stack([a, b, c]), np.column_stack([a, c, d]),            # top (up)
             np.column_stack([a + n, c + n, b + n]), np.column_stack([a + n, d + n, c + n])]  # bottom
    ring = np.concatenate([idx[0, :], idx[1:, -1], idx[-1, -2::-1], idx[-2:0:-1, 0]])
    r0, r1 = ring, np.roll(ring, -1)
    faces.append(np.column_stack([r0, r0 + n, r1]))
    faces.append(np.column_stack([r1, r0 + n, r1 + n]))
    mesh = trimesh.Trimesh(verts, np.vstack(faces), process=True)
    mesh.fix_normals()
    return mesh


def load_mesh_file(path: str) -> trimesh.Trimesh:
    """Load a mesh file as one Trimesh (scenes are concatenated)."""
    loaded = trimesh.load(path, force="mesh", process=True)
    if not isinstance(loaded, trimesh.Trimesh) or len(loaded.faces) == 0:
        raise ValueError("no triangles in the file")
    return loaded


def piece_mesh(spec: TerrainSpec, mesh_file: trimesh.Trimesh | None = None) -> trimesh.Trimesh:
    """The mesh of one terrain piece, in table coordinates (inches)."""
    if spec.shape == "box":
        mesh = box(*spec.size)
    elif spec.shape == "cylinder":
        mesh = cylinder(spec.radius, spec.height)
    elif spec.shape == "wedge":
        mesh = wedge(*spec.size)
    elif spec.shape == "prism":
        mesh = prism(spec.points, spec.height)
    elif spec.shape == "heightfield":
        mesh = heightfield(spec.size[0], spec.size[1], spec.heights)
    elif spec.shape == "mesh":
        mesh = (mesh_file if mesh_file is not None else load_mesh_file(spec.file)).copy()
        if spec.scale != 1.0:
            mesh.apply_scale(spec.scale)
        lo, hi = mesh.bounds
        # a mesh's bottom centre (of its bounds) goes to `at`
        mesh.apply_translation((-(lo[0] + hi[0]) / 2.0, -(lo[1] + hi[1]) / 2.0, -lo[2]))
    else:  # the loader rejects unknown shapes; this guards direct construction
        raise ValueError(f"unknown shape {spec.shape!r}")
    return _place(mesh, spec)


def table_mesh(width: float, depth: float, thickness: float = 1.0) -> trimesh.Trimesh:
    """The table: a slab whose top face is z = 0 over [0, width] x [0, depth]."""
    mesh = trimesh.creation.box(extents=(width, depth, thickness))
    mesh.apply_translation((width / 2.0, depth / 2.0, -thickness / 2.0))
    return mesh
