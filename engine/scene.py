"""Scenes: YAML tables as frozen dataclasses.

All lengths in inches, z up, origin at a table corner, facing in degrees
counter-clockwise from +x. See docs/scene-format.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import InputError, Problem

TERRAIN_SHAPES = ("box", "cylinder", "wedge", "prism", "heightfield", "mesh")
COVER_TAGS = ("auto", "light", "heavy", "none")


@dataclass(frozen=True)
class Weapon:
    """One weapon of a profile. ``rch`` in inches (melee reach; 0 = base contact).

    ``bands`` is for ranged weapons: ((min_in, max_in, acc_modifier), ...),
    inclusive ranges in ascending order. Beyond the last band: out of range.
    """
    name: str
    kind: str                      # "melee" | "ranged" | "spell"
    rch: float = 0.0
    pw: int = 0
    stk: int = 1
    traits: tuple[str, ...] = ()
    bands: tuple[tuple[float, float, int], ...] = ()
    hands: int = 1


@dataclass(frozen=True)
class Spell:
    name: str
    type: str                      # the five types of the rulebook
    affinity: str = ""
    mana: int = 1
    pw: int | str = 0              # "✯" (engine.profiles.STAR_PW) on an Enchantment: its
                                   # target's Attacks gain the Spell type
    stk: int = 1
    rng: float = 0.0
    traits: tuple[str, ...] = ()
    effect: str = ""
    target: str = "enemy"          # enemy (an Attack) | ally | self | any (an Assist)
    melee: bool = False            # a Melee-Type spell: ``rng`` is its reach
    template: str = ""             # "", circular-s, circular-l, spray-s, spray-l
    bands: tuple[tuple[float, float, int], ...] = ()   # as Weapon.bands, when it has bands


@dataclass(frozen=True)
class Profile:
    """A model profile from ``models/<party>.yaml`` (SAMPLE data)."""
    ref: str                       # "party#name"
    name: str
    stats: dict[str, int]          # STA SPD ARM HP OFF DEF ACC INT AG T M
    size: str = "M"
    classes: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    affinities: tuple[str, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[Spell, ...] = ()
    leader: bool = False
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    shield: bool = False           # carries a shield: may Shield Bash; a hand is full
    gear: tuple[str, ...] = ()     # other items, by name
    party: str = ""                # the party's display name
    file: str = ""                 # the party file it came from
    line: int = 0


@dataclass(frozen=True)
class TerrainSpec:
    """One terrain piece as written in the scene.

    ``at`` is the bottom centre (x, y, z). ``size`` is (width x, depth y,
    height z) for box and wedge, (width, depth) for heightfield. ``file`` is
    the resolved absolute path of a mesh, inside the scene's folder.
    """
    id: str
    shape: str
    at: tuple[float, float, float]
    size: tuple[float, ...] | None = None
    radius: float | None = None
    height: float | None = None
    points: tuple[tuple[float, float], ...] | None = None
    heights: tuple[tuple[float, ...], ...] | None = None
    file: str | None = None
    scale: float = 1.0
    turn: float = 0.0
    cover: str = "auto"
    tags: frozenset[str] = frozenset()
    line: int = 0
    index: int = -1                # position in the scene's terrain list


@dataclass(frozen=True)
class ModelSpec:
    """One model as written in the scene, with its profile resolved.

    ``at`` is (x, y, z) with z None when it stands on the highest walkable
    surface under its base centre. ``stats`` is the profile's stats updated
    with the scene's overrides.
    """
    id: str
    side: str
    base_mm: float
    height_mm: float
    at: tuple[float, float, float | None]
    facing: float = 0.0
    size: str | None = None
    profile: Profile | None = None
    stats: dict[str, int] = field(default_factory=dict, compare=False)
    states: tuple[str, ...] = ()
    line: int = 0
    index: int = -1                # position in the scene's models list
    leader: bool = False           # the party's Leader (profile's flag unless the scene says)
    # every attack profile it has: the profile's weapons, then Shield Bash
    # (when it has a shield) and Unarmed, built from the merged stats
    weapons: tuple[Weapon, ...] = field(default=(), compare=False)
    key_lines: dict[str, int] = field(default_factory=dict, compare=False)   # key -> its line in the scene
    # a creature off the table until a Conjuration (Ritual) summons it: ``at``
    # is then (0, 0, None) and means nothing; ``tier`` counts against the
    # summoner's Summoning Limit
    reserve: bool = False
    tier: int = 1
    # a rider on its mount (Eldfall: "Riders are dismounted when their model
    # becomes Crouched", seeds/eldfall-states.txt); ``dismounted`` holds the
    # stat changes (stat -> whole number) that apply from the dismount on
    mounted: bool = False
    dismounted: dict[str, int] = field(default_factory=dict, compare=False)


TOKEN_KINDS = ("item", "spell")
TOKEN_BASE_MM = 25.0            # ruling: a token is a disc the size of a Small base


@dataclass(frozen=True)
class TokenSpec:
    """A token on the field: an Item or a lasting Spell, hidden or revealed.

    ``at`` is (x, y, z) with z None when it lies on the highest surface under
    (x, y). ``side`` owns it (for a spell: the caster's side). ``item`` is the
    Item's name (kind item); ``spell`` and ``caster`` name the Transmutation
    spell and the model whose profile has it (kind spell).
    """
    id: str
    kind: str                      # "item" | "spell"
    side: str
    at: tuple[float, float, float | None]
    hidden: bool = True
    base_mm: float = TOKEN_BASE_MM
    item: str = ""
    spell: str = ""
    caster: str = ""
    line: int = 0
    index: int = -1
    at_line: int = field(default=0, compare=False)   # the line of its ``at`` (placement problems name it)

    def to_dict(self) -> dict:
        """Plain data for a game's header (``Scene.extra["tokens"]``)."""
        return {"id": self.id, "kind": self.kind, "side": self.side,
                "at": [float(v) for v in self.at[:2]] + ([float(self.at[2])] if self.at[2] is not None else []),
                "hidden": self.hidden, "base_mm": float(self.base_mm), "item": self.item,
                "spell": self.spell, "caster": self.caster}


@dataclass(frozen=True)
class Scene:
    path: str                      # the scene file ('' for one built in code)
    table: tuple[float, float]     # width (x), depth (y)
    terrain: tuple[TerrainSpec, ...] = ()
    models: tuple[ModelSpec, ...] = ()
    sha256: str = ""
    name: str = ""
    # side -> ((x0, y0), (x1, y1)) deployment rectangle, when the scene says
    deployment: dict[str, tuple[tuple[float, float], tuple[float, float]]] = field(
        default_factory=dict, compare=False)
    games: tuple[str, ...] = ("eldfall",)
    description: str = ""
    # warnings found while loading (e.g. a mesh that is not watertight): the
    # scene is valid, but `eldfall check` prints them
    warnings: tuple[Problem, ...] = field(default=(), compare=False)
    # per-game blocks of the scene file ("eldfall", "norova"), plain data; also
    # "tokens": the tokens as plain dicts (TokenSpec.to_dict), so that a game's
    # header carries them
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    # creatures off the table that a Ritual may summon (``models`` holds only
    # the models on the table, which the World places)
    reserves: tuple[ModelSpec, ...] = ()
    tokens: tuple[TokenSpec, ...] = ()


# --------------------------------------------------------------------------- #
# loading and checking
# --------------------------------------------------------------------------- #
# per-game blocks (settings a game's rules read: "norova": {...}) go to Scene.extra
SCENE_GAME_BLOCKS = ("eldfall", "norova")
SCENE_KEYS = ("name", "description", "table", "games", "deployment", "terrain", "models",
              "tokens", "stratagems") + SCENE_GAME_BLOCKS
GAMES = ("eldfall", "norova")
SPECIAL_TAGS = ("climbable", "ladder", "area")
# the rulebook's environments (Eldfall Core Rules v1.6; docs/architecture.md)
ENVIRONMENTS = ("forest", "dark", "difficult", "mountainous", "shallow-water", "deep-water",
                "dense", "hazy", "unscalable", "dangerous")
TERRAIN_TAGS = SPECIAL_TAGS + ENVIRONMENTS
# the 16 states of eldfall-states.txt
STATES = ("Bleeding", "Blinded", "Confused", "Crippled", "Crouched", "Dead", "Engaged",
          "Fatigued", "Flying", "Immobilized", "Incapacitated", "Panicked", "Poisoned",
          "Shrouded", "Slowed", "Weakened")
STAT_NAMES = ("STA", "SPD", "ARM", "HP", "OFF", "DEF", "ACC", "INT", "AG", "T", "M")
MESH_SUFFIXES = (".stl", ".obj", ".ply", ".glb")
MAX_TRIANGLES = 2_000_000
MAX_MESH_BYTES = 256 * 1024 * 1024
MAX_GRID = 513                  # heightfield rows and columns (= engine.validate.MAX_GRID_SIDE)
MAX_POINTS = 256                # prism polygon corners
MAX_PIECES = 5000
LARGE_TABLE = 144.0             # inches (12 feet): a wider table is likely written in millimetres
MIN_PIECE_SIZE = 0.001          # inches: the least size, radius or height of a piece
MAX_MODELS = 500
PARTY_LIMIT = 10                # an Eldfall party has at most 10 models (facts, p.37)

TERRAIN_COMMON = ("id", "shape", "at", "turn", "cover", "tags")
SHAPE_KEYS = {
    "box": ("size",),
    "cylinder": ("radius", "height"),
    "wedge": ("size",),
    "prism": ("points", "height"),
    "heightfield": ("size", "heights"),
    "mesh": ("file", "scale"),
}
SHAPE_REQUIRED = {
    "box": ("size",), "cylinder": ("radius", "height"), "wedge": ("size",),
    "prism": ("points", "height"), "heightfield": ("size", "heights"), "mesh": ("file",),
}
SHAPE_HINTS = {
    "size": {"box": "size: [width, depth, height]", "wedge": "size: [length, width, height]",
             "heightfield": "size: [width, depth]"},
    "radius": "radius: inches", "height": "height: inches",
    "points": "points: [[x, y], ...] relative to at", "heights": "heights: a grid of z values",
    "file": "file: meshes/NAME.stl",
}
MODEL_KEYS = ("id", "side", "size", "base_mm", "height_mm", "at", "facing", "profile",
              "stats", "states", "leader", "reserve", "tier", "mounted", "dismounted")
TOKEN_KEYS = ("id", "kind", "side", "at", "hidden", "base_mm", "item", "spell", "caster")
TOKEN_REQUIRED = ("id", "kind", "side", "at")
MAX_TOKENS = 500
MAX_TIER = 20
MODEL_REQUIRED = ("id", "side", "at")


def default_models_dir() -> Path:
    """The repository's ``models/`` folder (next to ``scenes/``)."""
    return Path(__file__).resolve().parents[1] / "models"


def load_scene(path: str | Path, models_dir: str | Path | None = None) -> Scene:
    """Read and check a scene file; return the :class:`Scene`.

    Raises :class:`~engine.errors.InputError` listing every problem found
    (``file:line: key.path: what is wrong``). Any unexpected failure while
    reading the user's files becomes a problem too, never a traceback.
    Profile references (``party#name``) resolve in ``models_dir`` (default
    :func:`default_models_dir`). Placement against terrain needs the World:
    see :func:`engine.validate.check_placement`.
    """
    file = str(path)
    if not file.strip():
        # Path("") is the current folder: say what is wrong, not "is a folder"
        raise InputError(Problem("<command line>", None, "", "expected a scene file, got an empty text"))
    if models_dir is not None and not str(models_dir).strip():
        # Path("") would look the parties up in the current folder
        raise InputError(Problem("<command line>", None, "--models-dir", "expected a folder, got an empty text"))
    try:
        return _load_scene(Path(path), file, models_dir)
    except InputError:
        raise
    except RecursionError:
        raise InputError(Problem(file, None, "", "nested too deeply")) from None
    except Exception as exc:  # a bug of ours must still not show the user a traceback
        raise InputError(Problem(file, None, "", f"internal error while loading: {type(exc).__name__}: {exc}")) from None


def _is_game_log(data: bytes) -> bool:
    """Whether ``data`` opens as a game log does: a first line that is a JSON header."""
    import json
    first = data.split(b"\n", 1)[0].strip()
    if not first.startswith((b"{", b"\xef\xbb\xbf{")):
        return False
    try:
        head = json.loads(first.decode("utf-8-sig"))
    except (ValueError, UnicodeError, RecursionError):
        return False
    return isinstance(head, dict) and head.get("type") == "header" and "game" in head


def _load_scene(path: Path, file: str, models_dir: str | Path | None) -> Scene:
    import hashlib

    from engine.validate import Checker, read_input_file, read_yaml

    data = read_input_file(path, file)
    if _is_game_log(data):
        # not "YAML syntax error: did not find expected <document start>" at line 2
        raise InputError(Problem(file, None, "", "this is a game log (eldfall play --log writes it, eldfall "
                                                 "replay reads it), not a scene"))
    value, lines, raw = read_yaml(path, display=file, data=data)
    ck = Checker(file, lines)
    doc = ck.mapping(value, (), "a mapping with table, terrain and models")
    if doc is None:
        ck.raise_if_any()
    if "table" not in doc and "profiles" in doc and "party" in doc:
        # one line, not one per key of the party file
        raise InputError(Problem(file, None, "", "this is a party file (party, profiles), not a scene; a scene "
                                                 "has a table, and its models name profiles as party#name"))
    ck.keys(doc, (), SCENE_KEYS, required=("table",), what="a scene")

    name = ck.string(doc["name"], ("name",)) if "name" in doc else ""
    description = ck.string(doc["description"], ("description",), allow_empty=True, lines=True) if "description" in doc else ""
    table = ck.numbers(doc["table"], ("table",), 2, positive=True, names="width, depth") if "table" in doc else None
    if table is not None and max(table) > LARGE_TABLE:
        ck.warn(("table",), f"a {table[0]:g} x {table[1]:g} table is {max(table) / 12:.0f} feet across: "
                            f"lengths are in inches (millimetres only in keys ending in _mm)")
    games: tuple[str, ...] = ("eldfall",)
    if "games" in doc:
        got = ck.strings(doc["games"], ("games",), choices=GAMES)
        if got is not None and not got:
            ck.error(("games",), f"expected at least one game (allowed: {', '.join(GAMES)})")
        games = got or ("eldfall",)

    ids: dict[str, int | None] = {}     # id -> line of first use

    def claim_id(value, p) -> str | None:
        from engine.validate import ID_RE
        ident = ck.string(value, p, pattern=ID_RE, what="an id (a text)")
        if ident is None:
            return None
        if ident in ids:
            ck.error(p, f"duplicate id '{ident}' (first used at line {ids[ident]})")
            return None
        ids[ident] = lines.of(p)
        return ident

    # -- terrain ------------------------------------------------------------ #
    terrain: list[TerrainSpec] = []
    raw_terrain = doc.get("terrain", [])
    if raw_terrain is None:
        raw_terrain = []
    items = ck.sequence(raw_terrain, ("terrain",), "a list of terrain pieces")
    if items is not None and len(items) > MAX_PIECES:
        ck.error(("terrain",), f"too many pieces ({len(items)}; the limit is {MAX_PIECES})")
        items = None
    for i, item in enumerate(items or []):
        spec = _terrain(ck, item, ("terrain", i), i, path, table, claim_id)
        if spec is not None:
            terrain.append(spec)

    # -- models ------------------------------------------------------------- #
    models: list[ModelSpec] = []
    raw_models = doc.get("models", [])
    if raw_models is None:
        raw_models = []
    mitems = ck.sequence(raw_models, ("models",), "a list of models")
    if mitems is not None and len(mitems) > MAX_MODELS:
        ck.error(("models",), f"too many models ({len(mitems)}; the limit is {MAX_MODELS})")
        mitems = None
    mdir = Path(models_dir) if models_dir is not None else default_models_dir()
    party_problems: set[Problem] = set()
    reserves: list[ModelSpec] = []
    broken_reserves: set[str] = set()     # reserve: true entries refused with their own error
    # every entry refused with its own error (a typo, a broken party file): its id
    # and side still exist for what names them (a token's caster, a side's
    # Stratagems or deployment zone), which must not add a false "no such model"
    refused_ids: set[str] = set()
    refused_sides: set[str] = set()
    for i, item in enumerate(mitems or []):
        spec = _model(ck, item, ("models", i), i, table, claim_id, mdir, party_problems)
        if spec is not None:
            (reserves if spec.reserve else models).append(spec)
        elif isinstance(item, dict):
            if item.get("reserve") is True and isinstance(item.get("id"), str):
                broken_reserves.add(item["id"])
            if isinstance(item.get("id"), str):
                refused_ids.add(item["id"])
            if isinstance(item.get("side"), str):
                refused_sides.add(item["side"])
    for prob in sorted(party_problems, key=lambda p: (p.file, p.line or 0, p.path, p.message)):
        ck.problems.append(prob)
    from engine.profiles import party_warnings
    told: set[str] = set()
    for spec in models + reserves:      # a party file's warnings (a misspelt trait), once
        pfile = getattr(spec.profile, "file", "") if spec.profile is not None else ""
        if pfile and pfile not in told:
            told.add(pfile)
            ck.warnings.extend(party_warnings(pfile))

    extra: dict[str, Any] = {}
    for game in SCENE_GAME_BLOCKS:
        if game in doc and ck.mapping(doc[game], (game,), f"a mapping (settings for {game})") is not None:
            _game_block(ck, game, doc[game])
            extra[game] = doc[game]

    # -- summons: reserves and the Conjurations that name them --------------- #
    _check_summons(ck, models, reserves, broken_reserves)
    if "eldfall" not in games:
        for r in reserves:
            ck.error(("models", r.index, "reserve"), "reserve (summoned) creatures are an Eldfall rule; "
                                                     "this scene is not for eldfall (games:)", line=r.line)
        if doc.get("tokens"):
            ck.error(("tokens",), "tokens are an Eldfall rule; this scene is not for eldfall (games:)")

    # -- tokens ------------------------------------------------------------- #
    tokens: list[TokenSpec] = []
    if "tokens" in doc and doc["tokens"] is not None:
        titems = ck.sequence(doc["tokens"], ("tokens",), "a list of tokens")
        if titems is not None and len(titems) > MAX_TOKENS:
            ck.error(("tokens",), f"too many tokens ({len(titems)}; the limit is {MAX_TOKENS})")
            titems = None
        on_table = {m.id: m for m in models}
        for i, item in enumerate(titems or []):
            tok = _token(ck, item, ("tokens", i), i, table, claim_id, on_table, {r.id for r in reserves},
                         refused_ids)
            if tok is not None:
                tokens.append(tok)
    if tokens:
        extra["tokens"] = [t.to_dict() for t in tokens]

    # -- sides: one Leader each, party size --------------------------------- #
    by_side: dict[str, list[ModelSpec]] = {}
    for m in models:
        by_side.setdefault(m.side, []).append(m)
    for side, ms in by_side.items():
        leaders = [m for m in ms if m.leader]
        if len(leaders) > 1:
            for m in leaders[1:]:
                ck.error(("models", m.index, "leader"),
                         f"side '{side}' already has a Leader ('{leaders[0].id}'); a party has one", line=m.line)
        if "eldfall" in games and len(ms) > PARTY_LIMIT:
            ck.warn(("models",), f"side '{side}' has {len(ms)} models; an Eldfall party has at most {PARTY_LIMIT}")
    for side, ms in by_side.items():
        # a lone model on a side spelt like a bigger one: a typo makes a third player
        others = [s for s, o in by_side.items() if s != side and len(o) > 1]
        if len(ms) == 1 and others:
            from engine.validate import suggest
            guess = suggest(side, others)
            if guess is not None:
                m = ms[0]
                ck.warn(("models", m.index, "side"), f"'{m.id}' is the only model on side '{side}'; "
                                                     f"did you mean '{guess}'?",
                        line=m.key_lines.get("side") or m.line)
    owners = set(by_side) | {r.side for r in reserves} | set(refused_sides)
    for tok in tokens:
        # an item token of a side with no model (`side: rde`): every side is its enemy
        if owners and tok.side not in owners:
            from engine.validate import suggest
            guess = suggest(tok.side, owners - set(refused_sides))
            ck.warn(("tokens", tok.index, "side"),
                    f"no model is on side '{tok.side}', the token's owner"
                    + (f"; did you mean '{guess}'?" if guess else f" (sides: {', '.join(sorted(by_side))})"))

    # -- stratagems (Eldfall): side -> [Stratagem] ---------------------------- #
    if "stratagems" in doc and doc["stratagems"] is not None:
        strat = _stratagems(ck, doc["stratagems"], by_side, games, refused_sides)
        if strat:
            extra["stratagems"] = strat

    # -- deployment ---------------------------------------------------------- #
    deployment: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {}
    if "deployment" in doc:
        dep = ck.mapping(doc["deployment"], ("deployment",), "a mapping side -> [[x0, y0], [x1, y1]]")
        for side, rect in (dep or {}).items():
            p = ("deployment", side)
            if not isinstance(side, str):
                from engine.validate import yaml_text
                ck.error(("deployment", yaml_text(side)), f"expected a side name, got {describe_value(side)}",
                         line=ck.lines.of(p))
                continue
            pts = ck.sequence(rect, p, "[[x0, y0], [x1, y1]]")
            if pts is None:
                continue
            if len(pts) != 2:
                ck.error(p, f"expected 2 corners [[x0, y0], [x1, y1]], got {len(pts)}")
                continue
            a = ck.numbers(pts[0], p + (0,), 2, names="x, y")
            b = ck.numbers(pts[1], p + (1,), 2, names="x, y")
            if a is None or b is None:
                continue
            (x0, x1), (y0, y1) = sorted((a[0], b[0])), sorted((a[1], b[1]))
            if x1 - x0 <= 0 or y1 - y0 <= 0:
                ck.error(p, "the rectangle has no area")
                continue
            if table and (x0 < 0 or y0 < 0 or x1 > table[0] or y1 > table[1]):
                ck.error(p, f"the rectangle x {x0:g}..{x1:g}, y {y0:g}..{y1:g} is not inside the "
                            f"{table[0]:g} x {table[1]:g} table")
                continue
            deployment[side] = ((x0, y0), (x1, y1))
            if side not in by_side and by_side and side not in refused_sides:
                from engine.validate import suggest
                guess = suggest(side, by_side)
                ck.warn(p, f"no model is on side '{side}'" + (f"; did you mean '{guess}'?" if guess else ""))

    # one line per problem: other files' first (a party file's problems, which
    # the scene's lines refer to as "listed above"), then the scene's in file order
    ck.problems.sort(key=lambda pr: (pr.file == file, pr.file, pr.line or 0))
    ck.warnings.sort(key=lambda pr: (pr.file == file, pr.file, pr.line or 0))
    if ck.problems:
        err = InputError(ck.problems)
        err.warnings = list(ck.warnings)    # printed with the problems (eldfall check)
        raise err
    return Scene(
        path=file, table=(float(table[0]), float(table[1])), terrain=tuple(terrain), models=tuple(models),
        sha256=hashlib.sha256(raw).hexdigest(), name=name or "", deployment=deployment,
        games=tuple(games), description=description or "", warnings=tuple(ck.warnings), extra=extra,
        reserves=tuple(reserves), tokens=tuple(tokens))


# what the rules read from a scene's per-game block (rules/norova/game.py:
# flying_allowed); anything else there is ignored by the game, so said
GAME_BLOCK_KEYS = {"eldfall": {}, "norova": {"flying": "boolean"}}


def _game_block(ck, game: str, block: dict) -> None:
    """A scene's ``eldfall:`` / ``norova:`` block: the keys its rules read are
    checked (an error when wrong); any other key gets a warning, since the
    game never reads it (a setting such as rounds is given with --set)."""
    from engine.validate import suggest, yaml_text
    known = GAME_BLOCK_KEYS.get(game, {})
    for key, value in block.items():
        q = (game, key if isinstance(key, str) else yaml_text(key))
        line = ck.lines.of((game, key))
        if key in known:
            if known[key] == "boolean":
                ck.boolean(value, (game, key))
            continue
        guess = suggest(key, known) if known else None
        ck.warn(q, f"not read by the {game} rules: ignored"
                + (f"; did you mean '{guess}'?" if guess else
                   f" (rules settings are given with --set KEY=VALUE"
                   + (f"; this block knows: {', '.join(known)})" if known else ")")), line=line)


# Stratagems (rules/eldfall/stratagems.py reads the same plain data; a test
# keeps these vocabularies equal to the rules')
STRATAGEM_KEYS = ("name", "text", "uses", "per", "target", "range", "awareness", "effect")
STRATAGEM_EFFECT_KEYS = ("heal", "mods", "states", "remove", "ap", "duration")
STRATAGEM_TARGETS = ("own", "enemy", "leader", "all-own", "all-enemy")
STRATAGEM_PER = ("game", "turn")
STRATAGEM_DURATIONS = ("turn", "round", "game")
STRATAGEM_STATS = ("STA", "SPD", "ARM", "OFF", "DEF", "ACC", "INT", "AG", "T", "M")
EFFECT_STATES = ("Bleeding", "Blinded", "Confused", "Crippled", "Immobilized", "Slowed", "Weakened",
                 "Poisoned", "Flying", "Shrouded", "Fatigued")
REMOVABLE_STATES = ("Bleeding", "Blinded", "Confused", "Crippled", "Immobilized", "Slowed",
                    "Weakened", "Poisoned", "Fatigued", "Panicked")
MAX_STRATAGEMS = 50


def _stratagems(ck, value, by_side: dict, games, refused_sides: set = frozenset()) -> dict:
    """The scene's ``stratagems:`` block -> {side: [plain Stratagem]} (defaults
    filled); every problem recorded with its line."""
    p0 = ("stratagems",)
    d = ck.mapping(value, p0, "a mapping side -> list of Stratagems")
    if d is None:
        return {}
    if "eldfall" not in games:
        ck.error(p0, "Stratagems are an Eldfall rule; this scene is not for eldfall (games:)")
        return {}
    out: dict = {}
    for side, items in d.items():
        p = p0 + (side,)
        if (not isinstance(side, str) or side not in by_side) and side not in refused_sides:
            known = ", ".join(sorted(by_side)) or "none"
            ck.error(p, f"no model is on side {side!r} (sides: {known})")
            continue
        lst = ck.sequence(items, p, "a list of Stratagems")
        if lst is None:
            continue
        if len(lst) > MAX_STRATAGEMS:
            ck.error(p, f"too many Stratagems ({len(lst)}; the limit is {MAX_STRATAGEMS})")
            continue
        if side not in refused_sides and not any(m.leader for m in by_side[side]):
            ck.warn(p, f"side '{side}' has no Leader: it can never use its Stratagems")
        names: dict[str, int | None] = {}
        got = []
        for i, item in enumerate(lst):
            one = _stratagem(ck, item, p + (i,))
            raw = item.get("name") if isinstance(item, dict) else None
            if isinstance(raw, str) and raw in names:
                ck.error(p + (i, "name"), f"duplicate Stratagem '{raw}' (first at line {names[raw]})")
                continue
            if isinstance(raw, str):
                names[raw] = ck.lines.of(p + (i,))
            if one is not None:
                got.append(one)
        if got:
            out[side] = got
    return out


def _stratagem(ck, item, p) -> dict | None:
    d = ck.mapping(item, p, "a Stratagem (a mapping with name, uses, target, effect, ...)")
    if d is None:
        return None
    before = len(ck.problems)
    ck.keys(d, p, STRATAGEM_KEYS, required=("name", "effect"), what="a Stratagem",
            hints={"name": "name: a text", "effect": "effect: {heal, mods, states, remove, ap, duration}"})
    name = ck.string(d["name"], p + ("name",)) if "name" in d else None
    if name is not None and ("=" in name or len(name) > 80):
        ck.error(p + ("name",), "a Stratagem's name has no '=' and at most 80 characters")
    text = ck.string(d["text"], p + ("text",), allow_empty=True, lines=True) if "text" in d else ""
    uses = ck.number(d["uses"], p + ("uses",), integer=True, lo=1, hi=99) if "uses" in d else 1
    per = ck.string(d["per"], p + ("per",), choices=STRATAGEM_PER) if "per" in d else "game"
    target = ck.string(d["target"], p + ("target",), choices=STRATAGEM_TARGETS) if "target" in d else "own"
    rng = ck.number(d["range"], p + ("range",), nonneg=True) if "range" in d else None
    aware = ck.boolean(d["awareness"], p + ("awareness",)) if "awareness" in d else False
    if target == "leader" and ("range" in d or aware):
        ck.error(p + ("range" if "range" in d else "awareness",),
                 "a Stratagem on the Leader itself has no range or Awareness rule")
    eff = None
    if "effect" in d:
        eff = _stratagem_effect(ck, d["effect"], p + ("effect",))
    if len(ck.problems) != before or None in (name, text, uses, per, target, aware, eff):
        return None
    return {"name": name, "text": text, "uses": int(uses), "per": per, "target": target,
            "range": None if rng is None else float(rng), "awareness": bool(aware), "effect": eff}


def _stratagem_effect(ck, value, p) -> dict | None:
    e = ck.mapping(value, p, "a mapping of heal, mods, states, remove, ap, duration")
    if e is None:
        return None
    before = len(ck.problems)
    ck.keys(e, p, STRATAGEM_EFFECT_KEYS, what="an effect")
    heal = ck.number(e["heal"], p + ("heal",), integer=True, lo=0, hi=20) if "heal" in e else 0
    ap = ck.number(e["ap"], p + ("ap",), integer=True, lo=0, hi=10) if "ap" in e else 0
    mods: dict[str, int] = {}
    if "mods" in e:
        md = ck.mapping(e["mods"], p + ("mods",), "a mapping stat -> modifier (DEF: 2)")
        if md is not None:
            for k, v in md.items():
                if k not in STRATAGEM_STATS:
                    hint = "; HP is healed with heal:" if k == "HP" else ""
                    ck.error(p + ("mods", k), f"not a stat a Stratagem may change{hint} "
                                              f"(allowed: {', '.join(STRATAGEM_STATS)})")
                    continue
                n = ck.number(v, p + ("mods", k), integer=True, lo=-20, hi=20)
                if n:
                    mods[k] = int(n)
    states = ck.strings(e["states"], p + ("states",), choices=EFFECT_STATES) if "states" in e else ()
    remove = ck.strings(e["remove"], p + ("remove",), choices=REMOVABLE_STATES) if "remove" in e else ()
    duration = ck.string(e["duration"], p + ("duration",), choices=STRATAGEM_DURATIONS) \
        if "duration" in e else "round"
    if len(ck.problems) != before or None in (heal, ap, states, remove, duration):
        return None
    if not (heal or ap or mods or states or remove):
        ck.error(p, "the effect does nothing (give heal, mods, states, remove or ap)")
        return None
    if "duration" in e and not (mods or states):
        ck.warn(p + ("duration",), "a duration only matters for mods and states")
    return {"heal": int(heal), "mods": dict(sorted(mods.items())), "states": list(states),
            "remove": list(remove), "ap": int(ap), "duration": duration}


_SUMMON_RE = None


def summon_target(spell) -> str | None:
    """The unit id a Conjuration's effect text summons (``summon <id>``), as
    rules/eldfall/spells.py reads it."""
    global _SUMMON_RE
    import re
    if _SUMMON_RE is None:
        _SUMMON_RE = re.compile(r"summons?\s+([A-Za-z0-9_.\-#]+)", re.I)
    m = _SUMMON_RE.search(getattr(spell, "effect", "") or "")
    return m.group(1) if m else None


def _check_summons(ck, models, reserves, broken: set[str] = frozenset()) -> None:
    """Each reserve is a creature some Conjuration of its side summons; each
    Conjuration names a reserve of its caster's side (warnings: a profile is
    shared by scenes, and a scene may leave a spell unused). ``broken``: the ids
    of reserve entries refused with their own error; a Conjuration naming one
    is not told to "add it with reserve: true" (it is there)."""
    res = {r.id: r for r in reserves}
    named: set[str] = set()
    for m in list(models) + list(reserves):
        prof = m.profile
        for sp in (prof.spells if prof is not None else ()):
            if sp.type != "Conjuration":
                continue
            cid = summon_target(sp)
            where = ("models", m.index, "profile")
            if cid is None:
                ck.warn(where, f"the Conjuration '{sp.name}' of '{m.id}' names no creature "
                               f"(its effect should say 'summon <reserve model id>')", line=m.line)
                continue
            named.add(cid)
            r = res.get(cid)
            if r is None and cid in broken:
                continue
            if r is None:
                ck.warn(where, f"the Conjuration '{sp.name}' of '{m.id}' summons '{cid}', which is not "
                               f"a reserve model of this scene (add it with reserve: true)", line=m.line)
            elif r.side != m.side:
                ck.error(where, f"the Conjuration '{sp.name}' of '{m.id}' (side '{m.side}') summons "
                                f"'{cid}' of side '{r.side}': a summoned creature fights for its caster",
                         line=m.line)
    for r in reserves:
        if r.id not in named:
            ck.warn(("models", r.index, "reserve"),
                    f"no Conjuration in this scene summons the reserve model '{r.id}'", line=r.line)


def _token(ck, item, p, index, table, claim_id, models: dict, reserve_ids: set,
           refused_ids: set = frozenset()) -> TokenSpec | None:
    from engine.validate import ID_RE
    d = ck.mapping(item, p, "a token (a mapping with id, kind, side, at, ...)")
    if d is None:
        return None
    line = ck.lines.of(p) or 0
    before = len(ck.problems)
    ck.keys(d, p, TOKEN_KEYS, required=TOKEN_REQUIRED, what="a token",
            hints={"id": "id: a name", "kind": "kind: item or spell", "side": "side: its owner",
                   "at": "at: [x, y] or [x, y, z]"})
    ident = claim_id(d["id"], p + ("id",)) if "id" in d else None
    kind = ck.string(d["kind"], p + ("kind",), choices=TOKEN_KINDS) if "kind" in d else None
    side = ck.string(d["side"], p + ("side",), pattern=ID_RE) if "side" in d else None
    at = ck.numbers(d["at"], p + ("at",), (2, 3), names="x, y and optional z") if "at" in d else None
    hidden = ck.boolean(d["hidden"], p + ("hidden",)) if "hidden" in d else True
    base_mm = _mm_value(ck, d["base_mm"], p + ("base_mm",), "base_mm", "a token", 200) if "base_mm" in d \
        else TOKEN_BASE_MM
    if at is not None:
        if len(at) == 3 and at[2] < 0:
            ck.error(p + ("at",), f"z must not be below the table top (0), got {at[2]:g}")
        elif table is not None and base_mm is not None:
            from engine.units import mm
            r = mm(base_mm) / 2
            if at[0] - r < 0 or at[1] - r < 0 or at[0] + r > table[0] or at[1] + r > table[1]:
                ck.error(p + ("at",), f"token '{ident or d.get('id')}' is off the table: it spans "
                                      f"x {at[0] - r:.2f}..{at[0] + r:.2f}, y {at[1] - r:.2f}..{at[1] + r:.2f}; "
                                      f"the table is {table[0]:g} x {table[1]:g}")
    item_name, spell_name, caster = "", "", ""
    if kind == "item":
        for k in ("spell", "caster"):
            if k in d:
                ck.error(p + (k,), f"an item token has no {k} (that is for kind: spell)")
        if "item" in d:
            item_name = ck.string(d["item"], p + ("item",), what="the Item's name") or ""
        else:
            item_name = ident or ""
    elif kind == "spell":
        if "item" in d:
            ck.error(p + ("item",), "a spell token has no item (that is for kind: item)")
        for k in ("spell", "caster"):
            if k not in d:
                ck.error(p + (k,), f"missing (a spell token needs {k}: "
                                   + ("the spell's name" if k == "spell" else "the model that cast it") + ")",
                         line=line)
        spell_name = ck.string(d["spell"], p + ("spell",), what="a spell name") if "spell" in d else None
        caster = ck.string(d["caster"], p + ("caster",), pattern=ID_RE) if "caster" in d else None
        if caster and caster in refused_ids and caster not in models:
            caster = None       # a model refused with its own problem: nothing more to say
        elif caster:
            m = models.get(caster)
            if m is None:
                why = "a reserve model is not on the table" if caster in reserve_ids else "no such model"
                ck.error(p + ("caster",), f"'{caster}': {why} (the caster is a model on the table)")
            else:
                if side is not None and m.side != side:
                    ck.error(p + ("side",), f"the token is side '{side}''s but its caster '{caster}' is "
                                            f"on side '{m.side}'")
                if spell_name:
                    spells = {s.name: s for s in (m.profile.spells if m.profile else ())}
                    sp = spells.get(spell_name)
                    if sp is None:
                        ck.error(p + ("spell",), f"'{caster}' has no spell '{spell_name}'"
                                 + (f" (it has: {', '.join(sorted(spells))})" if spells else ""))
                    elif sp.type != "Transmutation":
                        ck.error(p + ("spell",), f"'{spell_name}' is a {sp.type} spell; only a "
                                                 f"Transmutation remains on the field as a token")
    if len(ck.problems) != before or None in (ident, kind, side, at, hidden, base_mm, spell_name, caster):
        return None
    xyz = (float(at[0]), float(at[1]), float(at[2]) if len(at) == 3 else None)
    return TokenSpec(id=ident, kind=kind, side=side, at=xyz, hidden=bool(hidden), base_mm=float(base_mm),
                     item=item_name, spell=spell_name or "", caster=caster or "", line=line, index=index,
                     at_line=ck.lines.get(p + ("at",)) or line)


def _point_in_polygon(x: float, y: float, poly) -> bool:
    inside = False
    n = len(poly)
    for k in range(n):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % n]
        if (y0 > y) != (y1 > y):
            if x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                inside = not inside
    return inside


def _polygon_problem(points) -> str | None:
    """Why a polygon is unusable as a prism footprint, or None."""
    n = len(points)
    area = 0.0
    for k in range(n):
        (x0, y0), (x1, y1) = points[k], points[(k + 1) % n]
        area += x0 * y1 - x1 * y0
    for k in range(n):
        if points[k] == points[(k + 1) % n]:
            return f"corners {k} and {(k + 1) % n} are the same point"

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def segs_cross(p1, p2, p3, p4):
        d1, d2 = cross(p3, p4, p1), cross(p3, p4, p2)
        d3, d4 = cross(p1, p2, p3), cross(p1, p2, p4)
        if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
            return True

        def on(p, q, r):  # r on segment pq (collinear assumed)
            return min(p[0], q[0]) - 1e-12 <= r[0] <= max(p[0], q[0]) + 1e-12 and \
                min(p[1], q[1]) - 1e-12 <= r[1] <= max(p[1], q[1]) + 1e-12
        return ((d1 == 0 and on(p3, p4, p1)) or (d2 == 0 and on(p3, p4, p2))
                or (d3 == 0 and on(p1, p2, p3)) or (d4 == 0 and on(p1, p2, p4)))

    for a in range(n):
        for b in range(a + 1, n):
            if b == a + 1 or (a == 0 and b == n - 1):
                continue            # neighbouring edges share a corner
            if segs_cross(points[a], points[(a + 1) % n], points[b], points[(b + 1) % n]):
                return f"edges {a} and {b} cross (the outline must not cross itself)"
    if abs(area) / 2 < 1e-6:
        return "the polygon has no area"
    return None


def _terrain(ck, item, p, index: int, scene_path: Path, table, claim_id) -> TerrainSpec | None:
    d = ck.mapping(item, p, "a terrain piece (a mapping with id, shape, at, ...)")
    if d is None:
        return None
    line = ck.lines.of(p) or 0
    ok_count = len(ck.problems)
    ident = claim_id(d["id"], p + ("id",)) if "id" in d else None
    if "id" not in d:
        ck.error(p + ("id",), "missing (every piece needs an id)", line=line)
    shape = None
    if "shape" in d:
        shape = ck.string(d["shape"], p + ("shape",), choices=TERRAIN_SHAPES)
    else:
        ck.error(p + ("shape",), f"missing (one of {', '.join(TERRAIN_SHAPES)})", line=line)
    if shape is None:
        # still report what we can: unknown keys against every shape's keys
        allowed = set(TERRAIN_COMMON)
        for keys in SHAPE_KEYS.values():
            allowed.update(keys)
        ck.keys(d, p, sorted(allowed))
        return None
    allowed = TERRAIN_COMMON + SHAPE_KEYS[shape]
    hints = {k: (SHAPE_HINTS[k][shape] if isinstance(SHAPE_HINTS.get(k), dict) else SHAPE_HINTS.get(k, k))
             for k in SHAPE_REQUIRED[shape]}
    ck.keys(d, p, allowed, required=("at",) + SHAPE_REQUIRED[shape], what=f"a {shape}", hints=hints)

    at = ck.numbers(d["at"], p + ("at",), 3, names="x, y, z") if "at" in d else None
    if at is not None:
        if at[2] < 0:
            ck.error(p + ("at",), f"z must not be below the table top (0), got {at[2]:g}")
        elif table is not None and not (0 <= at[0] <= table[0] and 0 <= at[1] <= table[1]):
            ck.error(p + ("at",), f"({at[0]:g}, {at[1]:g}) is off the {table[0]:g} x {table[1]:g} table")
    turn = ck.number(d["turn"], p + ("turn",)) if "turn" in d else 0.0
    cover = ck.string(d["cover"], p + ("cover",), choices=COVER_TAGS) if "cover" in d else "auto"
    tags: tuple[str, ...] | None = ()
    if "tags" in d:
        tags = ck.strings(d["tags"], p + ("tags",), choices=TERRAIN_TAGS)
    kw: dict[str, Any] = {}
    if shape in ("box", "wedge") and "size" in d:
        kw["size"] = ck.numbers(d["size"], p + ("size",), 3, positive=True,
                                names="width, depth, height")
    if shape == "heightfield" and "size" in d:
        kw["size"] = ck.numbers(d["size"], p + ("size",), 2, positive=True, names="width, depth")
    if shape == "cylinder":
        if "radius" in d:
            kw["radius"] = ck.number(d["radius"], p + ("radius",), positive=True)
        if "height" in d:
            kw["height"] = ck.number(d["height"], p + ("height",), positive=True)
    if shape == "prism":
        if "height" in d:
            kw["height"] = ck.number(d["height"], p + ("height",), positive=True)
        if "points" in d:
            kw["points"] = _points(ck, d["points"], p + ("points",))
    if shape == "heightfield" and "heights" in d:
        kw["heights"] = _grid(ck, d["heights"], p + ("heights",))
    if shape == "mesh":
        if "scale" in d:
            sc = ck.number(d["scale"], p + ("scale",), positive=True)
            kw["scale"] = sc
        if "file" in d:
            kw["file"] = _mesh_file(ck, d["file"], p + ("file",), scene_path, kw.get("scale") or 1.0)
    for k in ("size", "radius", "height"):
        # a piece thinner than this has no solid to build (and a zero-height
        # prism cannot be built at all): refused here, with its line
        vals = kw.get(k)
        vals = (vals,) if isinstance(vals, float) else (vals or ())
        for j, v in enumerate(vals):
            if v < MIN_PIECE_SIZE:
                q = p + ((k, j) if k == "size" else (k,))
                ck.error(q, f"must be at least {MIN_PIECE_SIZE:g} inches, got {v:g} (lengths are in inches)")
                break
    if len(ck.problems) != ok_count or ident is None or at is None or any(v is None for v in kw.values()) \
            or tags is None or turn is None or cover is None:
        return None
    if table is not None:
        # millimetres written as inches: a 76" wall on a 36" table (the table's own check
        # catches a table in millimetres, not a piece)
        longest = max(table)
        for k, names in (("size", ("width", "depth", "height")), ("radius", ("radius",)),
                         ("height", ("height",))):
            vals = kw.get(k)
            vals = (vals,) if isinstance(vals, float) else (vals or ())
            for j, v in enumerate(vals):
                # a cylinder is its radius twice across: a radius of 20" spans 40"
                across = 2 * v if k == "radius" else v
                if across > longest:
                    span = f" ({across:g}\" across)" if k == "radius" else ""
                    ck.warn(p + ((k, j) if k == "size" else (k,)),
                            f"a {names[j]} of {v:g}\"{span} is more than the {longest:g}\" table: lengths are "
                            "in inches (millimetres only in keys ending in _mm)")
                    break
        _warn_long_piece(ck, p, kw, longest)
    return TerrainSpec(id=ident, shape=shape, at=tuple(at), turn=float(turn), cover=cover,
                       tags=frozenset(tags), line=line, index=index, **kw)


def _warn_long_piece(ck, p, kw: dict, longest: float) -> None:
    """The lengths a piece gives otherwise than as a size (a prism's corners, a heightfield's
    heights, a mesh's own extent after ``scale``) that are more than the table's longer side
    (``longest``): a warning, millimetres written as inches (an STL made for a printer is in
    millimetres, so a 100 mm ruin would stand 100" tall)."""
    pts = kw.get("points")
    if pts:
        for axis, name in ((0, "x"), (1, "y")):
            span = max(q[axis] for q in pts) - min(q[axis] for q in pts)
            if span > longest:
                ck.warn(p + ("points",), f"the corners span {span:g}\" along {name}, more than the "
                        f"{longest:g}\" table: lengths are in inches (millimetres only in keys ending in _mm)")
                break
    grid = kw.get("heights")
    if grid:
        top = max((max(row) for row in grid if row), default=0.0)
        if top > longest:
            ck.warn(p + ("heights",), f"a height of {top:g}\" is more than the {longest:g}\" table: lengths "
                    "are in inches (millimetres only in keys ending in _mm)")
    if kw.get("file"):
        mesh = cached_mesh(kw["file"])
        extent = mesh.metadata.get(_EXTENT) if mesh is not None else None
        scale = float(kw.get("scale") or 1.0)
        if extent is not None and mesh is not None:
            dims = [float(v) * scale for v in mesh.extents]
            if max(dims) > longest:
                size = " x ".join(f"{v:.3g}" for v in dims)
                ck.warn(p + ("file",), f"the mesh is {size}\" after scale {scale:g}, more than the "
                        f"{longest:g}\" table: meshes are in inches; one made in millimetres needs "
                        f"scale: {scale / 25.4:.6g} (the scale divided by 25.4)")


def _points(ck, value, p):
    pts = ck.sequence(value, p, "a list of [x, y] corners")
    if pts is None:
        return None
    if len(pts) < 3:
        ck.error(p, f"expected at least 3 corners, got {len(pts)}")
        return None
    if len(pts) > MAX_POINTS:
        ck.error(p, f"too many corners ({len(pts)}; the limit is {MAX_POINTS})")
        return None
    out = [ck.numbers(v, p + (k,), 2, names="x, y") for k, v in enumerate(pts)]
    if any(v is None for v in out):
        return None
    why = _polygon_problem(out)
    if why:
        ck.error(p, why)
        return None
    return tuple(tuple(v) for v in out)


MAX_GRID_PROBLEMS = 50          # a grid's problems listed one a line; then one line for the rest


def _grid(ck, value, p):
    """A heightfield's ``heights``: every bad row and value is reported (up to
    :data:`MAX_GRID_PROBLEMS`, then one line counting the rest)."""
    rows = ck.sequence(value, p, "a grid (a list of rows of numbers)")
    if rows is None:
        return None
    if len(rows) < 2 or len(rows) > MAX_GRID:
        ck.error(p, f"expected 2 to {MAX_GRID} rows, got {len(rows)}")
        return None
    from engine.validate import Checker
    before = len(ck.problems)
    shown = 0
    hidden: list = []                   # problems past the limit: counted, not listed
    quiet = Checker(ck.file, ck.lines)

    def problem(q, message):
        nonlocal shown
        if shown < MAX_GRID_PROBLEMS:
            ck.error(q, message)
            shown += 1
        else:
            hidden.append(q)

    out = []
    width = None
    for r, row in enumerate(rows):
        if not isinstance(row, list):
            problem(p + (r,), f"expected a row (a list of numbers), got {describe_value(row)}")
            continue
        if width is None:
            width = len(row)
            if width < 2 or width > MAX_GRID:
                ck.error(p + (r,), f"expected 2 to {MAX_GRID} values in a row, got {width}")
                return None
        elif len(row) != width:
            problem(p + (r,), f"expected {width} values like row 0, got {len(row)}")
            continue
        vals = []
        for c, v in enumerate(row):
            if shown < MAX_GRID_PROBLEMS:
                n = len(ck.problems)
                vals.append(ck.number(v, p + (r, c), nonneg=True))
                shown += len(ck.problems) - n
            else:                       # past the limit: check quietly, count what is wrong
                n = len(quiet.problems)
                vals.append(quiet.number(v, p + (r, c), nonneg=True))
                if len(quiet.problems) != n:
                    hidden.append(p + (r, c))
        out.append(tuple(vals))
    if hidden:
        ck.error(hidden[0], f"and {len(hidden)} more problems in this grid from here on (not listed)")
    if len(ck.problems) != before:
        return None
    return tuple(out)


def unknown_size(value, sizes: dict, mm_key: bool = False) -> str:
    """The problem of a size that is not a code of the size table, with a
    "did you mean" for a lower-case code or a size's name (``medium``); ``mm_key``: the
    mapping takes ``base_mm`` (a scene's model), which a number in millimetres is for."""
    guess = None
    mm_hint = ""
    text = value.strip().lower().removesuffix("mm").strip() if isinstance(value, str) else ""
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if number is None and text.replace(".", "", 1).isdigit():
        number = float(text)
    if mm_key and number is not None and MIN_MM <= number <= 2000:
        # `size: 32` or `size: 32mm`: the base's millimetres, which a base_mm key takes
        mm_hint = f" (a base of {number:g} mm is written base_mm: {number:g}, with height_mm)"
    if not isinstance(value, str):          # (not "unknown size a list of 1")
        return f"expected a size code ({', '.join(sizes)}), got {describe_value(value)}{mm_hint}"
    if isinstance(value, str):
        word = value.strip().lower()
        guess = next((code for code, row in sizes.items()
                      if word and (word == code.lower() or word == str(row.get("name", "")).lower())), None)
    if guess:
        return f"unknown size {describe_value(value)}; did you mean '{guess}'? (allowed: {', '.join(sizes)})"
    return f"unknown size {describe_value(value)}; allowed: {', '.join(sizes)}{mm_hint}"


def describe_value(value) -> str:
    from engine.validate import describe
    return describe(value)


# meshes: loaded once per (file, mtime, size), shared with engine.shapes if it wants
_MESH_CACHE: dict[tuple[str, int, int], Any] = {}


def cached_mesh(path: str | Path):
    """The trimesh of a mesh file that :func:`load_scene` checked (already
    loaded; ``None`` if it was not). ``engine.shapes`` may use it to avoid a
    second read."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return _MESH_CACHE.get((str(Path(path)), st.st_mtime_ns, st.st_size))


def _count_triangles_cheaply(real: Path, suffix: str, size: int) -> int | None:
    """A triangle count from the header where the format has one."""
    import struct
    with open(real, "rb") as fh:
        head = fh.read(4096)
    if suffix == ".stl" and len(head) >= 84:
        (n,) = struct.unpack("<I", head[80:84])
        if 84 + 50 * n == size:            # binary STL
            return n
        if not head.lstrip().lower().startswith(b"solid"):
            raise _MeshProblem(f"not an STL file: binary STL of {size} bytes announces {n} triangles")
        return None
    if suffix == ".ply" and head.startswith(b"ply"):
        for raw in head.split(b"\n"):
            parts = raw.split()
            if len(parts) == 3 and parts[0] == b"element" and parts[1] == b"face":
                return int(parts[2])
            if raw.strip() == b"end_header":
                break
    if suffix == ".obj":
        # face lines ("f a b c ..."): a polygon of k corners is k - 2 triangles;
        # counting lines is a lower bound, enough to refuse a huge file unread
        count, carry = 0, b"\n"
        with open(real, "rb") as fh:
            while chunk := fh.read(1 << 22):
                buf = carry + chunk            # a 3-byte match cannot lie inside the 2-byte carry
                count += buf.count(b"\nf ") + buf.count(b"\nf\t")
                carry = buf[-2:]
        return count
    if suffix == ".glb" and head[:4] == b"glTF" and len(head) >= 20:
        import json
        (jlen,) = struct.unpack("<I", head[12:16])
        with open(real, "rb") as fh:
            fh.seek(20)
            meta = json.loads(fh.read(min(jlen, 64 << 20)))
        accessors = meta.get("accessors", [])
        total = 0
        for mesh in meta.get("meshes", []):
            for prim in mesh.get("primitives", []):
                if prim.get("mode", 4) != 4:
                    continue
                acc = prim.get("indices", prim.get("attributes", {}).get("POSITION"))
                if isinstance(acc, int) and 0 <= acc < len(accessors):
                    total += int(accessors[acc].get("count", 0)) // 3
        return total
    return None


def _mesh_header_problem(real: Path, suffix: str) -> str | None:
    """What a mesh file's header lacks that its reader would fail on with a
    bare KeyError or a decoding error, or None: an OBJ must be text; a PLY's
    vertex element needs properties x, y and z and a face element a list."""
    with open(real, "rb") as fh:
        head = fh.read(1 << 16)
    if suffix == ".obj":
        if b"\x00" in head:
            return "not a readable OBJ file (binary bytes; an OBJ is text)"
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.start < len(head) - 4:       # not just a character cut at the end of the block
                line = head[: exc.start].count(b"\n") + 1
                return f"not a readable OBJ file (line {line} is not UTF-8 text)"
        return None
    if suffix != ".ply" or not head.startswith(b"ply"):
        return None
    end = head.find(b"end_header")
    if end < 0:
        return "a PLY file whose header has no end_header" if len(head) >= (1 << 16) or b"\n" in head else None
    element, props = None, {}
    for raw in head[:end].split(b"\n"):
        parts = raw.split()
        if len(parts) >= 2 and parts[0] == b"element":
            element = parts[1].decode("latin-1")
            props[element] = []
        elif len(parts) >= 2 and parts[0] == b"property" and element is not None:
            props[element].append(parts[-1].decode("latin-1"))
    if "vertex" not in props:
        return "the PLY header has no vertex element"
    missing = [k for k in ("x", "y", "z") if k not in props["vertex"]]
    if missing:
        return (f"the PLY vertex element has no {' or '.join(repr(k) for k in missing)} property "
                f"(it has: {', '.join(props['vertex']) or 'none'})")
    return None


def _mesh_file(ck, value, p, scene_path: Path, scale: float) -> str | None:
    import os
    from pathlib import PurePosixPath, PureWindowsPath

    text = ck.string(value, p, what="a file path relative to the scene")
    if text is None:
        return None
    if os.path.isabs(text) or PureWindowsPath(text).is_absolute() or PureWindowsPath(text).drive \
            or text.startswith(("/", "\\", "~")):
        ck.error(p, f"{text!r}: must be a path relative to the scene's folder, not absolute")
        return None
    parts = PurePosixPath(text.replace("\\", "/")).parts
    if ".." in parts:
        ck.error(p, f"{text!r}: must not contain '..' (a mesh stays inside the scene's folder)")
        return None
    suffix = PurePosixPath(text).suffix.lower()
    if (scene_path.parent / Path(*parts)).is_dir():
        # a folder (meshes, meshes/, .): not "unsupported mesh format '(none)'"
        ck.error(p, f"{text!r}: is a folder, not a mesh file (allowed: {', '.join(MESH_SUFFIXES)})")
        return None
    if suffix not in MESH_SUFFIXES:
        ck.error(p, f"{text!r}: unsupported mesh format {suffix or '(none)'!r} (allowed: {', '.join(MESH_SUFFIXES)})")
        return None
    folder = scene_path.parent.resolve()
    target = folder / Path(*parts)
    try:
        real = target.resolve()
    except (OSError, RuntimeError) as exc:      # a symlink loop
        ck.error(p, f"{text!r}: cannot resolve ({exc})")
        return None
    if not real.is_relative_to(folder):
        ck.error(p, f"{text!r}: resolves outside the scene's folder (a symlink?)")
        return None
    if not real.exists():
        ck.error(p, f"file not found: {text}")
        return None
    if not real.is_file():
        ck.error(p, f"{text!r}: not a file")
        return None
    try:
        st = real.stat()
        if st.st_size == 0:
            ck.error(p, f"{text!r}: empty file")
            return None
        if st.st_size > MAX_MESH_BYTES:
            ck.error(p, f"{text!r}: file too large ({st.st_size} bytes; the limit is {MAX_MESH_BYTES})")
            return None
        key = (str(real), st.st_mtime_ns, st.st_size)
        mesh = _MESH_CACHE.get(key)
        if mesh is not None:
            # read before, maybe at another scale: this piece's scale is checked again
            _span_problem(mesh.metadata.get(_EXTENT), scale)
        else:
            mesh = _read_mesh(ck, p, text, real, suffix, st.st_size, scale)
            if mesh is None:
                return None
            if len(_MESH_CACHE) > 64:
                _MESH_CACHE.clear()
            _MESH_CACHE[key] = mesh
    except PermissionError:
        ck.error(p, f"{text!r}: permission denied")
        return None
    except _MeshProblem as exc:
        ck.error(p, f"{text!r}: cannot read mesh: {exc}")
        return None
    except (ImportError, UnicodeError):
        # the reader gave up on bytes it cannot decode (trimesh then reaches for
        # an optional charset guesser): not the user's business which
        ck.error(p, f"{text!r}: cannot read mesh: not a readable {suffix[1:].upper()} file "
                    f"(allowed: {', '.join(MESH_SUFFIXES)})")
        return None
    except KeyError as exc:
        what = exc.args[0] if exc.args else "?"
        ck.error(p, f"{text!r}: cannot read mesh: the file has no {what!r} (a missing element or property)")
        return None
    except IndexError:                  # a face names a vertex the file does not have
        ck.error(p, f"{text!r}: cannot read mesh: a face refers to a vertex that the file does not have")
        return None
    except Exception as exc:
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if any(w in msg.lower() for w in _NUMPY_WORDS):
            msg = _unreadable(suffix)       # numpy's words, not the file's: say what it means
        ck.error(p, f"{text!r}: cannot read mesh: {msg}")
        return None
    if not mesh.is_watertight:
        ck.warn(p, f"{text!r}: mesh is not watertight; it loads, but what is inside it may be misjudged")
    if mesh.metadata.get(_TURNED):
        ck.warn(p, f"{text!r}: faces of the mesh point inward (inside out, or wound both ways); "
                   f"they are turned to face outward")
    return str(real)


# what numpy says when a reader hands it the numbers of a damaged file
_NUMPY_WORDS = ("array element", "read to its end", "could not convert", "invalid literal",
                "could not broadcast", "cannot reshape", "out of bounds", "buffer is smaller")


class _MeshProblem(ValueError):
    """What is wrong with a mesh file, in words (the message is shown as is)."""


def _unreadable(suffix: str) -> str:
    fmt = suffix[1:].upper()
    return f"not a readable {fmt} file (damaged, cut short or not a{'n' if fmt[:1] in 'AEIOS' else ''} {fmt})"


def _read_mesh(ck, p, text: str, real: Path, suffix: str, size: int, scale: float):
    """Load and check one mesh file: the trimesh, or None after recording a
    problem; raises :class:`_MeshProblem` (or a reader's own error) when it
    cannot be read. The readers' numpy warnings (overflow, NaN casts) are
    kept off the user's screen: what matters is said as a problem."""
    import json
    import struct
    import warnings

    import numpy as np
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return _read_mesh_checked(ck, p, text, real, suffix, size, scale)
        except (_MeshProblem, PermissionError, ImportError, UnicodeError):
            raise
        except (json.JSONDecodeError, struct.error, TypeError, AttributeError, ZeroDivisionError,
                AssertionError, OverflowError) as exc:
            raise _MeshProblem(_unreadable(suffix)) from exc
        except (KeyError, IndexError) as exc:
            if suffix in (".glb", ".stl"):      # not a missing PLY property, nor an OBJ face
                raise _MeshProblem(_unreadable(suffix)) from exc
            raise


def _read_mesh_checked(ck, p, text: str, real: Path, suffix: str, size: int, scale: float):
    import numpy as np
    import trimesh
    n = _count_triangles_cheaply(real, suffix, size)
    if n is not None and n > MAX_TRIANGLES:
        ck.error(p, f"{text!r}: mesh has {n} triangles; the limit is {MAX_TRIANGLES}")
        return None
    why = _mesh_header_problem(real, suffix)
    if why:
        ck.error(p, f"{text!r}: cannot read mesh: {why}")
        return None
    # unprocessed first: processing drops the faces of a NaN vertex, and
    # the file would seem to have no triangles
    loaded = trimesh.load(str(real), force="mesh", process=False)
    if not isinstance(loaded, trimesh.Trimesh):
        raise _MeshProblem(f"no triangles found (got {type(loaded).__name__})")
    vertices = np.asarray(loaded.vertices, dtype=float)
    bad = ~np.all(np.isfinite(vertices), axis=1)
    if bad.any():
        more = f" (and {int(bad.sum()) - 1} more)" if bad.sum() > 1 else ""
        raise _MeshProblem(f"vertex {int(np.argmax(bad)) + 1} has a coordinate that is not a finite "
                           f"number (NaN or infinite){more}")
    # before processing, which rounds the coordinates to whole numbers of a grid
    extent = (float(np.max(np.abs(vertices))), float(np.max(np.ptp(vertices, axis=0)))) if len(vertices) else None
    _span_problem(extent, scale)
    loaded.process()
    loaded.metadata[_EXTENT] = extent
    if len(loaded.faces) == 0:
        raise _MeshProblem("the mesh has no triangles")
    if len(loaded.faces) > MAX_TRIANGLES:
        ck.error(p, f"{text!r}: mesh has {len(loaded.faces)} triangles; the limit is {MAX_TRIANGLES}")
        return None
    if loaded.is_watertight:
        # a closed solid whose faces point inward (an inside-out export, or faces wound
        # both ways) has its top facing down: no model could stand on it, and one could
        # stand inside it. The built shapes are turned outward so (engine.shapes); a file too
        faces = np.array(loaded.faces, copy=True)
        trimesh.repair.fix_normals(loaded, multibody=True)
        if not np.array_equal(faces, loaded.faces):
            loaded.metadata[_TURNED] = True
    return loaded


_TURNED = "eldfall_turned"       # mesh.metadata key: faces of the file were turned outward


_EXTENT = "eldfall_extent"       # mesh.metadata key: the file's own extent, for _span_problem


def _span_problem(extent, scale: float) -> None:
    """Refuse a mesh that spans more than 1000" or less than MIN_PIECE_SIZE after
    ``scale``. ``extent``: (largest |coordinate|, largest side of the bounding box)
    of the file's vertices as read (None: no vertices)."""
    if extent is None:
        return
    largest, span = extent
    if largest * scale > 1000:
        raise _MeshProblem(f"the mesh spans more than 1000 inches after scale {scale:g} "
                           f"(meshes are in inches)")
    if span * scale < MIN_PIECE_SIZE:
        raise _MeshProblem(f"the mesh spans less than {MIN_PIECE_SIZE:g} inches after scale {scale:g} "
                           f"(meshes are in inches)")


MIN_MM = 10.0                   # no base, hitbox or token is smaller (the smallest base is 25 mm)


def _mm_value(ck, value, p, key: str, what: str, hi: float) -> float | None:
    """A ``_mm`` length: a number > 0 and at most ``hi``; one under
    :data:`MIN_MM` is refused as inches written in a millimetre key."""
    n = ck.number(value, p, positive=True, hi=hi)
    if n is not None and n < MIN_MM:
        ck.error(p, f"{n:g} mm is too small for {what} (the smallest is {MIN_MM:g} mm); "
                    f"{key} is in millimetres, not inches")
        return None
    return n


# a dismount may not change HP: the seeds say nothing of Wounds carried over
DISMOUNT_STATS = tuple(k for k in STAT_NAMES if k != "HP")
#: a profile is a card: every model made from one with no HP would start Incapacitated
#: (a scene model may be given HP 0: it is set up Incapacitated)
HP_ZERO = ("must be at least 1, got 0 (every model of this profile would start Incapacitated; "
           "give a scene model stats: {HP: 0} or states: [Incapacitated] for that)")


def _mounted(ck, d: dict, p: tuple, states) -> tuple[bool | None, dict | None]:
    """A model's ``mounted`` and ``dismounted`` keys (Eldfall riders): the flag,
    and the stat changes (stat -> whole number -20..20, not HP) a dismount makes.
    (None, ...) / (..., None) when the key is wrong (the problems are in ``ck``)."""
    mounted = ck.boolean(d["mounted"], p + ("mounted",)) if "mounted" in d else False
    dismounted: dict | None = {}
    if "dismounted" in d:
        dd = ck.mapping(d["dismounted"], p + ("dismounted",),
                        "a mapping of stat changes on dismounting (e.g. {SPD: -2})")
        if dd is None:
            dismounted = None
        else:
            if mounted is False:
                ck.error(p + ("dismounted",), "stat changes on dismounting are a rider's: only for "
                                              "a model with mounted: true")
            for k, v in dd.items():
                if k == "HP":
                    ck.error(p + ("dismounted", k), "a dismount cannot change HP (allowed: "
                                                    f"{', '.join(DISMOUNT_STATS)})")
                    dismounted = None
                    continue
                if k not in DISMOUNT_STATS:
                    from engine.validate import suggest
                    guess = suggest(k, DISMOUNT_STATS)
                    ck.error(p + ("dismounted", k), f"unknown stat {describe_value(k)}"
                             + (f"; did you mean '{guess}'?" if guess else "")
                             + f" (allowed: {', '.join(DISMOUNT_STATS)})")
                    dismounted = None
                    continue
                n = ck.number(v, p + ("dismounted", k), integer=True, lo=-20, hi=20)
                if n is None:
                    dismounted = None
                elif dismounted is not None:
                    dismounted[str(k)] = int(n)
    if mounted and states:
        held = [s for s in ("Crouched", "Incapacitated", "Dead") if s in states]
        if held:
            ck.error(p + ("mounted",), f"a mounted model cannot start {held[0]}: riders are "
                                       "dismounted when their model becomes Crouched")
    return mounted, dismounted


def _model(ck, item, p, index, table, claim_id, models_dir: Path, party_problems: set) -> ModelSpec | None:
    from engine.units import size_table
    from engine.profiles import model_weapons, resolve_ref

    d = ck.mapping(item, p, "a model (a mapping with id, side, at, ...)")
    if d is None:
        return None
    line = ck.lines.of(p) or 0
    before = len(ck.problems)
    reserve = ck.boolean(d["reserve"], p + ("reserve",)) if "reserve" in d else False
    ck.keys(d, p, MODEL_KEYS, required=("id", "side") if reserve else MODEL_REQUIRED, what="a model",
            hints={"id": "id: a name", "side": "side: red, blue, ...", "at": "at: [x, y] or [x, y, z]"})
    from engine.validate import ID_RE
    ident = claim_id(d["id"], p + ("id",)) if "id" in d else None
    side = ck.string(d["side"], p + ("side",), pattern=ID_RE) if "side" in d else None
    tier = 1
    if "tier" in d:
        tier = ck.number(d["tier"], p + ("tier",), integer=True, lo=1, hi=MAX_TIER)
        if tier is not None and not reserve:
            ck.error(p + ("tier",), "a Tier is a summoned creature's: only for a model with reserve: true")
    if reserve:
        at = (0.0, 0.0)
        for k in ("at", "facing"):
            if k in d:
                ck.error(p + (k,), f"a reserve model is off the table until it is summoned: no {k} "
                                   f"(a Ritual places it in Base Contact with its caster)")
        if d.get("leader") is True:
            ck.error(p + ("leader",), "a reserve (summoned) creature cannot be the party's Leader")
    else:
        at = ck.numbers(d["at"], p + ("at",), (2, 3), names="x, y and optional z") if "at" in d else None
    facing = ck.number(d["facing"], p + ("facing",)) if "facing" in d else 0.0
    states = ck.strings(d["states"], p + ("states",), choices=STATES) if "states" in d else ()
    leader_given = ck.boolean(d["leader"], p + ("leader",)) if "leader" in d else None

    profile = None
    if "profile" in d:
        ref = ck.string(d["profile"], p + ("profile",), what="a profile reference party#name")
        if ref is not None:
            profile, why, fproblems = resolve_ref(ref, models_dir)
            if fproblems and set(fproblems) <= party_problems:
                why = None      # a party's problems are told once, with the first model that names it
            party_problems.update(fproblems)
            if why:
                ck.error(p + ("profile",), why)

    mounted, dismounted = _mounted(ck, d, p, states)
    if states and "Incapacitated" in states:
        # "The model immediately enters the Crouched State" (eldfall-states.txt,
        # Incapacitated; rules/eldfall/conditions.py add_state): an Incapacitated
        # model is Crouched, for the World (hitbox, cover) and the game alike; and
        # Incapacitated cancels Flying (Flying: "Auto-cancellation")
        if "Flying" in states:
            ck.error(p + ("states",), "an Incapacitated model cannot be Flying (Incapacitated cancels "
                                      "Flying at once): give one of them")
        if "Crouched" not in states:
            states = tuple(states) + ("Crouched",)
    elif states and "Flying" in states:
        # the other States that cancel Flying at once, or that a Flying model cannot have
        # (docs/rulings.md "Entering States": no model enters Flying while Crouched,
        # Immobilized or Dead, and a Flying model cannot become Engaged)
        for other, why in (("Crouched", "Crouched cancels Flying at once"),
                           ("Immobilized", "Immobilized cancels Flying at once"),
                           ("Dead", "Dead cancels Flying at once"),
                           ("Engaged", "a Flying model cannot be Engaged")):
            if other in states:
                ck.error(p + ("states",), f"a{'n' if other[0] in 'AEIOU' else ''} {other} model cannot "
                                          f"be Flying ({why}): give one of them")

    overrides: dict[str, int] = {}
    if "stats" in d:
        sd = ck.mapping(d["stats"], p + ("stats",), "a mapping of stats (STA, SPD, ...)")
        if sd is not None:
            ck.keys(sd, p + ("stats",), STAT_NAMES, what="stats")
            for k, v in sd.items():
                if k in STAT_NAMES:
                    n = ck.number(v, p + ("stats", k), integer=True, lo=0, hi=99)
                    if n is not None:
                        overrides[k] = int(n)
    if overrides.get("HP") == 0 and states is not None and not {"Dead", "Incapacitated"} & set(states):
        # "Triggered when the model's HP reaches 0" (eldfall-states.txt, Incapacitated): a
        # scene model with HP 0 is Incapacitated and Crouched at setup, for the World
        # (hitbox, cover, eldfall check) as for the game (docs/rulings.md)
        if "Flying" in states:
            ck.error(p + ("stats", "HP"), "a model with HP 0 is Incapacitated, which cancels Flying at "
                                          "once: give it HP or leave out Flying")
        states = tuple(states) + ("Incapacitated",) + (() if "Crouched" in states else ("Crouched",))

    sizes = size_table()
    size = None
    if "size" in d:
        size = d["size"]
        if not isinstance(size, str) or size not in sizes:
            ck.error(p + ("size",), unknown_size(size, sizes, mm_key=True))
            size = None
            size_bad = True
        else:
            size_bad = False
    else:
        size_bad = False
        if profile is not None:
            size = profile.size
    base_mm = _mm_value(ck, d["base_mm"], p + ("base_mm",), "base_mm", "a base", 2000) \
        if "base_mm" in d else None
    height_mm = _mm_value(ck, d["height_mm"], p + ("height_mm",), "height_mm", "a hitbox", 2000) \
        if "height_mm" in d else None
    if size is not None:
        base_mm = base_mm if base_mm is not None else (None if "base_mm" in d else float(sizes[size]["base_mm"]))
        height_mm = height_mm if height_mm is not None else (None if "height_mm" in d else float(sizes[size]["height_mm"]))
    elif not size_bad and ("base_mm" in d) != ("height_mm" in d):
        missing = "height_mm" if "base_mm" in d else "base_mm"
        ck.error(p + (missing,), "missing (give both base_mm and height_mm, or a size)", line=line)
    elif not size_bad and "base_mm" not in d and "profile" not in d:
        ck.error(p + ("size",), f"missing: give size ({', '.join(sizes)}) or base_mm and height_mm", line=line)

    if at is not None and len(at) == 3 and at[2] < 0:
        ck.error(p + ("at",), f"z must not be below the table top (0), got {at[2]:g}")
    if at is not None and table is not None and base_mm is not None and not reserve:
        from engine.units import mm
        r = mm(base_mm) / 2
        x, y = at[0], at[1]
        if x - r < 0 or y - r < 0 or x + r > table[0] or y + r > table[1]:
            ck.error(p + ("at",), (
                f"model '{ident or d.get('id')}' is off the table: its base spans x {x - r:.2f}..{x + r:.2f}, "
                f"y {y - r:.2f}..{y + r:.2f}; the table is {table[0]:g} x {table[1]:g}"))
        elif len(at) == 3 and at[2] > max(table):
            # a Flying model may be given any z (it floats legally): 50 mm up written as 50"
            ck.warn(p + ("at",), f"z {at[2]:g}\" is more than the {max(table):g}\" table: lengths are "
                                 "in inches (millimetres only in keys ending in _mm)")
    if len(ck.problems) != before or None in (ident, side, at, facing, states, base_mm, height_mm,
                                              reserve, tier, mounted, dismounted) \
            or ("profile" in d and profile is None):
        return None
    stats = dict(profile.stats) if profile is not None else {}
    stats.update(overrides)
    xyz = (float(at[0]), float(at[1]), float(at[2]) if len(at) == 3 else None)
    if reserve:
        xyz = (0.0, 0.0, None)
    leader = leader_given if leader_given is not None else bool(profile.leader if profile else False)
    return ModelSpec(id=ident, side=side, base_mm=float(base_mm), height_mm=float(height_mm), at=xyz,
                     facing=float(facing) % 360.0, size=size, profile=profile, stats=stats,
                     states=tuple(states), line=line, index=index, leader=leader,
                     weapons=model_weapons(profile, stats),
                     key_lines={k: ck.lines[p + (k,)] for k in d if (p + (k,)) in ck.lines},
                     reserve=bool(reserve), tier=int(tier),
                     mounted=bool(mounted), dismounted=dict(dismounted))
