"""One ray caster over the static terrain: Embree (embreex) or trimesh's own.

Every query is batched: pass (n, 3) arrays, get (n,) answers from one call.
Embree is used when embreex imports; otherwise trimesh's numpy engine is used
and a one-line warning says so, once.
"""
from __future__ import annotations

import sys

import numpy as np
import trimesh

_WARNED = False


def embree_available() -> bool:
    try:
        from embreex import rtcore_scene  # noqa: F401
        from embreex.mesh_construction import TriangleMesh  # noqa: F401
    except Exception:
        return False
    return True


def _warn_once(reason: str) -> None:
    global _WARNED
    if not _WARNED:
        print(f"eldfall: Embree unavailable ({reason}); using trimesh's slower ray engine", file=sys.stderr)
        _WARNED = True


class RayCaster:
    """Ray queries against one triangle mesh.

    Parameters
    ----------
    mesh : trimesh.Trimesh, inches
    backend : "auto" | "embree" | "trimesh"
    """

    def __init__(self, mesh: trimesh.Trimesh, backend: str = "auto"):
        self.mesh = mesh
        self.triangles = np.ascontiguousarray(mesh.triangles, dtype=np.float64)
        self.normals = np.asarray(mesh.face_normals, dtype=np.float64)
        if backend == "auto":
            backend = "embree" if embree_available() else "trimesh"
            if backend == "trimesh":
                _warn_once("embreex could not be imported")
        self.backend = backend
        if backend == "embree":
            from embreex import rtcore_scene
            from embreex.mesh_construction import TriangleMesh
            self._scene = rtcore_scene.EmbreeScene()
            TriangleMesh(self._scene, self.triangles.astype(np.float32))
        else:
            from trimesh.ray.ray_triangle import RayMeshIntersector
            self._tm = RayMeshIntersector(mesh)

    # -- raw embree entry point, used by the benchmark as the reference rate
    def raw_occluded(self, origins: np.ndarray, directions: np.ndarray, dists: np.ndarray) -> np.ndarray:
        """Embree OCCLUDED query with unit directions and distances (float32 in)."""
        return self._scene.run(origins, directions, dists=dists, query="OCCLUDED") != -1

    def occluded(self, origins, ends) -> np.ndarray:
        """(n,3), (n,3) -> (n,) bool: the open segment origin->end hits terrain."""
        origins = np.asarray(origins, dtype=np.float64).reshape(-1, 3)
        ends = np.asarray(ends, dtype=np.float64).reshape(-1, 3)
        out = np.zeros(len(origins), dtype=bool)
        if len(origins) == 0:
            return out
        vec = ends - origins
        dist = np.sqrt(np.einsum("ij,ij->i", vec, vec))
        ok = dist > 1e-9
        if ok.all():          # (no copies: the usual case)
            o, v, dd = origins, vec, dist
        elif not ok.any():
            return out
        else:
            o, v, dd = origins[ok], vec[ok], dist[ok]
        v /= dd[:, None]
        if self.backend == "embree":
            hit = self._scene.run(o.astype(np.float32), v.astype(np.float32),
                                  dists=dd.astype(np.float32), query="OCCLUDED") != -1
        else:
            d, _ = self._first_hit_trimesh(o, v)
            hit = d < dd
        if ok.all():
            return hit
        out[ok] = hit
        return out

    def first_hit(self, origins, directions, max_dist=None) -> tuple[np.ndarray, np.ndarray]:
        """First triangle hit along each ray.

        Returns (dist (n,) float, inf where none; tri (n,) int, -1 where none).
        ``directions`` need not be unit length; ``dist`` is in inches along the
        normalised direction.
        """
        origins = np.asarray(origins, dtype=np.float64).reshape(-1, 3)
        directions = np.asarray(directions, dtype=np.float64).reshape(-1, 3)
        n = len(origins)
        if n == 0:
            return np.zeros(0), np.zeros(0, dtype=np.int64)
        norm = np.linalg.norm(directions, axis=1)
        norm[norm == 0] = 1.0
        dirs = directions / norm[:, None]
        if self.backend == "embree":
            res = self._scene.run(origins.astype(np.float32), dirs.astype(np.float32), output=1)
            tri = np.asarray(res["primID"], dtype=np.int64)
            hit = np.asarray(res["geomID"]) != -1
            dist = np.where(hit, np.asarray(res["tfar"], dtype=np.float64), np.inf)
            tri = np.where(hit, tri, -1)
        else:
            dist, tri = self._first_hit_trimesh(origins, dirs)
        if max_dist is not None:
            far = dist > np.broadcast_to(np.asarray(max_dist, dtype=np.float64), dist.shape)
            dist = np.where(far, np.inf, dist)
            tri = np.where(far, -1, tri)
        return dist, tri

    def _first_hit_trimesh(self, origins, dirs):
        n = len(origins)
        dist = np.full(n, np.inf)
        tri = np.full(n, -1, dtype=np.int64)
        index_tri, index_ray, locations = self._tm.intersects_id(
            origins, dirs, multiple_hits=True, return_locations=True)
        if len(index_ray):
            d = np.einsum("ij,ij->i", locations - origins[index_ray], dirs[index_ray])
            keep = d > 1e-9
            index_tri, index_ray, d = index_tri[keep], index_ray[keep], d[keep]
            order = np.lexsort((d, index_ray))
            index_ray, index_tri, d = index_ray[order], index_tri[order], d[order]
            first = np.unique(index_ray, return_index=True)[1]
            dist[index_ray[first]] = d[first]
            tri[index_ray[first]] = index_tri[first]
        return dist, tri
