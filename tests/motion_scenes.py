"""Small hand-made tables for the movement tests (built in code)."""
from engine.scene import ModelSpec, Profile, Scene, TerrainSpec, Weapon
from engine.units import mm
from engine.world import World

R_M = mm(32) / 2          # Medium base radius, 0.6299"
H_M = mm(45)              # Medium hitbox height, 1.7717"


def world(terrain=(), models=(), table=(36, 36)):
    return World(Scene("", table, terrain=tuple(terrain), models=tuple(models)))


def medium(mid, x, y, z=None, side="red", spd=6, ag=4, rch=None, states=(), skills=()):
    weapons = (Weapon("Spear", "melee", rch=float(rch)),) if rch is not None else ()
    stats = {"SPD": spd, "AG": ag}
    prof = Profile(f"test#{mid}", mid, dict(stats), weapons=weapons, skills=tuple(skills))
    return ModelSpec(mid, side, 32, 45, (x, y, z), profile=prof, stats=stats, states=tuple(states))


def box(pid, x, y, z, sx, sy, sz, tags=()):
    return TerrainSpec(pid, "box", (x, y, z), size=(sx, sy, sz), tags=frozenset(tags))
