"""Settings for line of sight and cover, read from ``engine/data/sight.yaml``.

Every length is in inches unless its name ends in ``_mm``. The defaults follow
the rulebook (p.20-21); each choice where players could disagree is a field
here and a ruling in docs/rulings.md ("Line of sight and cover").
"""
from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from engine.errors import InputError, Problem

DEFAULTS_PATH = Path(__file__).with_name("data") / "sight.yaml"
INSET_LIMIT_IN = 0.05     # lattice.inset_in must be less (a Crouched hitbox is 0.138" tall)

_CHOICES = {
    "dark_applies": ("either", "viewer", "target"),
    "area_height": ("infinite", "piece"),
    "forest_pieces_join": ("touching", "overlapping", "never"),
    "cover_crouched": ("light", "heavy", "none"),
    "cover_heavy_against": ("size", "hitbox"),
}


@dataclass(frozen=True)
class SightSettings:
    # lattice
    patch_mm: float = 3.0
    inset_in: float = 0.001
    # arcs
    moving_is_360: bool = True
    three_sixty_states: tuple[str, ...] = ("Shrouded", "Vigilance")
    three_sixty_traits: tuple[str, ...] = ("Vigilance",)
    # exceptions
    flying_state: str = "Flying"
    blinded_state: str = "Blinded"
    engaged_state: str = "Engaged"
    dark_applies: str = "either"
    forest_limit: int = 2
    forest_count_own_area: bool = True
    forest_pieces_join: str = "touching"
    area_height: str = "infinite"
    # threshold
    min_visible_area_mm2: float = 0.0
    # blocking
    models_block: bool = True
    crouched_and_dead_block: bool = True
    # path
    path_step_in: float = 0.25
    path_refine_in: float = 0.02
    # templates
    template_centre_raise_in: float = 0.04
    # cover
    cover_within_in: float = 1.0
    cover_sizes: tuple[str, ...] = ("S", "M", "L")
    cover_crouched: str = "light"
    cover_ledge_edge_within: bool = True
    cover_heavy_height_tolerance_in: float = 0.0
    cover_heavy_against: str = "size"

    @property
    def spacing_in(self) -> float:
        """The patch size the lattice guarantees, in inches."""
        return self.patch_mm / 25.4

    def replace(self, **changes: Any) -> "SightSettings":
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict:
        """Plain data for --json output (tuples become lists)."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in dataclasses.asdict(self).items()}


# yaml section.key -> field name
_KEYS = {
    ("lattice", "patch_mm"): "patch_mm",
    ("lattice", "inset_in"): "inset_in",
    ("arcs", "moving_is_360"): "moving_is_360",
    ("arcs", "three_sixty_states"): "three_sixty_states",
    ("arcs", "three_sixty_traits"): "three_sixty_traits",
    ("exceptions", "flying_state"): "flying_state",
    ("exceptions", "blinded_state"): "blinded_state",
    ("exceptions", "engaged_state"): "engaged_state",
    ("exceptions", "dark_applies"): "dark_applies",
    ("exceptions", "forest_limit"): "forest_limit",
    ("exceptions", "forest_count_own_area"): "forest_count_own_area",
    ("exceptions", "forest_pieces_join"): "forest_pieces_join",
    ("exceptions", "area_height"): "area_height",
    ("min_visible_area_mm2",): "min_visible_area_mm2",
    ("blocking", "models_block"): "models_block",
    ("blocking", "crouched_and_dead_block"): "crouched_and_dead_block",
    ("path", "step_in"): "path_step_in",
    ("path", "refine_in"): "path_refine_in",
    ("template", "centre_raise_in"): "template_centre_raise_in",
    ("cover", "within_in"): "cover_within_in",
    ("cover", "sizes"): "cover_sizes",
    ("cover", "crouched"): "cover_crouched",
    ("cover", "ledge_edge_within"): "cover_ledge_edge_within",
    ("cover", "heavy_height_tolerance_in"): "cover_heavy_height_tolerance_in",
    ("cover", "heavy_against"): "cover_heavy_against",
}


# the field names themselves (``as_dict``'s flat form, as a --json verdict prints them)
_FLAT = frozenset(_KEYS.values())


# the lists of names a setting must come from (a misspelt state would silently never match)
_NAME_KIND = {"three_sixty_states": "state", "cover_sizes": "size code", "flying_state": "state",
              "blinded_state": "state", "engaged_state": "state"}


def _known_names(name: str) -> tuple[str, ...] | None:
    """The names ``name`` may hold: the 16 states of the states page (and Vigilance, which a
    scene may give as a state), or the size codes; None when any name goes (traits)."""
    if name in ("three_sixty_states", "flying_state", "blinded_state", "engaged_state"):
        from engine.scene import STATES
        return STATES + (("Vigilance",) if name == "three_sixty_states" else ())
    if name == "cover_sizes":
        from engine.units import size_table
        return tuple(size_table())
    return None


def _check(name: str, value: Any, default: Any, file: str, keypath: str) -> tuple[Any, Problem | None]:
    def bad(msg):
        return default, Problem(file, None, keypath, msg)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            return bad(f"must be true or false, not {value!r}")
        return value, None
    if isinstance(default, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            return bad("must be a list of names")
        known = _known_names(name)
        wrong = [v for v in value if known is not None and v not in known]
        if wrong:
            return bad(f"unknown {_NAME_KIND[name]} {wrong[0]!r}; known: {', '.join(known)}")
        return tuple(value), None
    if isinstance(default, int) and not isinstance(default, bool) and name == "forest_limit":
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            return bad(f"must be a whole number of at least 1, not {value!r}")
        return value, None
    if isinstance(default, float):
        from engine.validate import TooLarge, exponent_number
        value = exponent_number(value)          # 1e-3, 2e6: YAML 1.1 reads them as text (as a scene does)
        if isinstance(value, TooLarge):
            return bad(f"{value.text} is too large")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return bad(f"must be a number, not {value!r}")
        try:
            value = float(value)
        except OverflowError:                   # a whole number of hundreds of digits
            return bad(f"a number of {len(str(abs(value)))} digits is too large")
        if not math.isfinite(value):
            return bad(f"must be a finite number, not {value}")
        if value < 0:
            return bad(f"must not be negative, not {value}")
        if name in ("patch_mm", "path_step_in", "path_refine_in") and value <= 0:
            return bad(f"must be more than 0, not {value}")
        if name == "patch_mm" and value < 0.5:
            return bad(f"must be at least 0.5 mm (finer lattices are too slow), not {value}")
        if name == "inset_in" and value >= INSET_LIMIT_IN:
            # deeper, the points leave the hitbox's surface: a Crouched hitbox (a base, 3.5 mm)
            # collapses to its middle, a standing one shrinks, and LoS is judged from inside it
            return bad(f"must be less than {INSET_LIMIT_IN:g}\" (the sample points lie on the hitbox's "
                       f"surface, just inside it), not {value:g}")
        return value, None
    if isinstance(default, str):
        choices = _CHOICES.get(name) or _known_names(name)
        if not isinstance(value, str) or (choices and value not in choices):
            allowed = f"one of {', '.join(choices)}" if choices else "a name"
            return bad(f"must be {allowed}, not {value!r}")
        return value, None
    return value, None


def settings_from_dict(data: Any, file: str = "<settings>", lines=None) -> SightSettings:
    """Build settings from the nested YAML mapping; unknown or bad keys raise InputError
    (``lines``: an ``engine.validate.Lines`` of the file, for the problems' lines)."""
    if not isinstance(data, dict):
        raise InputError(Problem(file, None, "", "must be a mapping of settings"))
    prefix = ""
    if _is_verdict(data):
        # a whole `eldfall los --json` (or measure) verdict saved as it is: its settings block
        # gives the settings the verdict was reached with
        data, prefix = data["settings"], "settings."
    base = SightSettings()
    values: dict[str, Any] = {}
    problems: list[Problem] = []
    known_sections = {k[0] for k in _KEYS}
    for section, body in data.items():
        if section not in known_sections and section in _FLAT:
            # the flat form a --json verdict prints under "settings" (``as_dict``): fed back
            # as it is, it gives the same settings (the verdict reproduced from its own JSON)
            name = section
            v, p = _check(name, body, getattr(base, name), file, section)
            values[name] = v
            if p:
                problems.append(p)
            continue
        if section not in known_sections:
            problems.append(Problem(file, None, str(section), f"unknown setting; known: {', '.join(sorted(known_sections))}"))
            continue
        if (section,) in _KEYS:
            name = _KEYS[(section,)]
            v, p = _check(name, body, getattr(base, name), file, section)
            values[name] = v
            if p:
                problems.append(p)
            continue
        if not isinstance(body, dict):
            problems.append(Problem(file, None, section, "must be a mapping"))
            continue
        for key, v in body.items():
            name = _KEYS.get((section, key))
            if name is None:
                known = sorted(k[1] for k in _KEYS if k[0] == section and len(k) > 1)
                problems.append(Problem(file, None, f"{section}.{key}", f"unknown setting; known: {', '.join(known)}"))
                continue
            v, p = _check(name, v, getattr(base, name), file, f"{section}.{key}")
            values[name] = v
            if p:
                problems.append(p)
    if problems:
        problems = [dataclasses.replace(p, path=prefix + p.path) for p in problems]
        if lines is not None:
            problems = [dataclasses.replace(p, line=lines.of(tuple(p.path.split(".")))) for p in problems]
        raise InputError(problems)
    return base.replace(**values)


def _is_verdict(data: dict) -> bool:
    """A saved ``--json`` verdict: a settings block beside the answer's own fields."""
    return isinstance(data.get("settings"), dict) and bool({"viewer", "target", "los", "scene", "sha256"} & set(data))


def load_settings(path: str | Path | None = None) -> SightSettings:
    """Settings from a YAML file (the defaults file when ``path`` is None)."""
    if path is None:
        return default_settings()
    from engine.validate import read_yaml         # regular files only, safe_load, lines kept
    data, lines, _ = read_yaml(path)
    return settings_from_dict(data, str(path), lines)


@functools.lru_cache(maxsize=1)
def default_settings() -> SightSettings:
    with open(DEFAULTS_PATH, encoding="utf-8") as fh:
        return settings_from_dict(yaml.safe_load(fh), str(DEFAULTS_PATH))
