"""Build scenes/meshes/statue.stl: a plinth, a robed figure and a head.

Run from the repository root: ``.venv/bin/python scenes/meshes/make_statue.py``.
Units are inches; the origin is the bottom centre of the plinth. The parts
are joined as separate closed shells (each watertight), so the file is
watertight and no boolean engine is needed.
"""
from pathlib import Path

import numpy as np
import trimesh


def statue() -> trimesh.Trimesh:
    plinth = trimesh.creation.box(extents=(2.0, 2.0, 1.0))
    plinth.apply_translation((0, 0, 0.5))
    robe = trimesh.creation.cone(radius=0.7, height=2.6, sections=24)
    robe.apply_translation((0, 0, 1.0))
    body = trimesh.creation.cylinder(radius=0.38, height=1.2, sections=24)
    body.apply_translation((0, 0, 2.6))
    head = trimesh.creation.icosphere(subdivisions=2, radius=0.32)
    head.apply_translation((0, 0, 3.5))
    arm = trimesh.creation.cylinder(radius=0.12, height=1.3, sections=12)
    arm.apply_transform(trimesh.transformations.rotation_matrix(np.radians(60), (0, 1, 0)))
    arm.apply_translation((0.45, 0, 3.0))
    mesh = trimesh.util.concatenate([plinth, robe, body, head, arm])
    return mesh


if __name__ == "__main__":
    out = Path(__file__).with_name("statue.stl")
    m = statue()
    m.export(out)
    print(out, len(m.faces), "triangles, watertight:", m.is_watertight, "bounds:", m.bounds.tolist())
