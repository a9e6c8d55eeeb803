"""Random mutations of a valid scene never raise anything but InputError.

Mutations: delete a key, change a value's type, random numbers (nan, inf,
huge, negative), wrong list lengths, random strings, and raw text edits that
break the YAML. A mutated scene either loads (and then builds a World and
passes or fails the placement checks with problems) or raises InputError; a
problem that is our own "internal error" fallback counts as a failure.
"""
from __future__ import annotations

import copy
import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import InputError
from engine.scene import load_scene

ROOT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((ROOT / "scenes/skirmish.yaml").read_text())
TEXT = (ROOT / "scenes/skirmish.yaml").read_text()
WORK = Path(tempfile.mkdtemp(prefix="scene-fuzz-"))
shutil.copytree(ROOT / "scenes/meshes", WORK / "meshes")
INTERNAL = ("internal error", "cannot build the table", "cannot check placement")

scalars = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-10**6, max_value=10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, -1, 1e-9, 1e9, 36, 0.5, -0.0]),
    st.text(max_size=12),
    st.sampled_from(["box", "mesh", "M", "X", "red", "sample-red#archer", "sample-red#nobody", "meshes/statue.stl",
                     "../x.stl", "/etc/passwd", "area", "forest", "Crouched", "OFF", "", "~", "@", "&a *a"]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                      max_leaves=8)


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from paths(v, prefix + (i,))


ALL_PATHS = [p for p in paths(BASE) if p]


def get(node, path):
    for part in path:
        node = node[part]
    return node


@st.composite
def mutations(draw):
    doc = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 4))):
        live = [p for p in ALL_PATHS if _exists(doc, p)]
        if not live:
            break
        path = draw(st.sampled_from(live))
        parent, key = get(doc, path[:-1]), path[-1]
        kind = draw(st.sampled_from(["delete", "replace", "shorten", "lengthen", "string", "number"]))
        if kind == "delete":
            del parent[key]
        elif kind == "replace":
            parent[key] = draw(values)
        elif kind == "shorten" and isinstance(parent[key], list):
            parent[key] = parent[key][: draw(st.integers(0, max(0, len(parent[key]) - 1)))]
        elif kind == "lengthen" and isinstance(parent[key], list):
            parent[key] = parent[key] + draw(st.lists(scalars, min_size=1, max_size=3))
        elif kind == "string":
            parent[key] = draw(st.text(max_size=20))
        else:
            parent[key] = draw(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                                         st.integers(-10**9, 10**9)))
    return doc


def _exists(doc, path):
    """The path leads through mappings and lists (a mutation turned into a string no longer
    has items to delete or replace) to a value."""
    node = doc
    for part in path:
        if not isinstance(node, (dict, list)):
            return False
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    return True


def outcome(path: Path) -> str:
    """'ok' or 'bad'; anything else raises. Goes as far as `eldfall check`."""
    from tools.cmd_check import check
    try:
        load_scene(path, models_dir=ROOT / "models")
    except InputError as exc:
        assert exc.problems, "an InputError with no problem"
        for p in exc.problems:
            assert not any(s in p.message for s in INTERNAL), str(p)
        return "bad"
    try:
        check(str(path), str(ROOT / "models"))
    except InputError as exc:
        for p in exc.problems:
            assert not any(s in p.message for s in INTERNAL), str(p)
        return "bad"
    return "ok"


FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(mutations())
def test_mutated_documents(doc):
    path = WORK / "mutated.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))
    outcome(path)


@FUZZ
@given(st.integers(0, len(TEXT) - 1), st.integers(0, 40),
       st.text(alphabet=st.sampled_from(list("[]{}:,-#&*!|>'\"\n \t0123456789.abcxyz%@`\\")), max_size=8))
def test_mutated_text(at, cut, insert):
    path = WORK / "mutated.yaml"
    path.write_text(TEXT[:at] + insert + TEXT[at + cut:])
    outcome(path)


def test_the_unmutated_scene_is_ok():
    path = WORK / "same.yaml"
    path.write_text(yaml.safe_dump(BASE, sort_keys=False))
    assert outcome(path) == "ok"


PARTY = yaml.safe_load((ROOT / "models/sample-red.yaml").read_text())
PARTY_PATHS = [p for p in paths(PARTY) if p]
PARTY_DIR = WORK / "models"
PARTY_DIR.mkdir(exist_ok=True)
PARTY_SCENE = WORK / "party-scene.yaml"
PARTY_SCENE.write_text("table: [36, 36]\nmodels:\n" + "".join(
    f"  - {{id: m{i}, side: red, profile: fz#{name}, at: [{3 + 4 * i}, 5]}}\n"
    for i, name in enumerate(PARTY["profiles"])))


@st.composite
def party_mutations(draw):
    doc = copy.deepcopy(PARTY)
    for _ in range(draw(st.integers(1, 3))):
        live = [p for p in PARTY_PATHS if _exists(doc, p)]
        if not live:
            break
        path = draw(st.sampled_from(live))
        parent, key = get(doc, path[:-1]), path[-1]
        if draw(st.booleans()):
            del parent[key]
        else:
            parent[key] = draw(values)
    return doc


@FUZZ
@given(party_mutations())
def test_mutated_party_files(doc):
    (PARTY_DIR / "fz.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))
    try:
        load_scene(PARTY_SCENE, models_dir=PARTY_DIR)
    except InputError as exc:
        assert exc.problems
        for p in exc.problems:
            assert not any(s in p.message for s in INTERNAL), str(p)
