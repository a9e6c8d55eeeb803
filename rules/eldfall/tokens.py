"""Tokens on the field: hidden (or revealed) Items and lasting Spells.

Source: seeds/eldfall-actions.txt ("Perceive": "Reveals a hidden enemy model,
Spell, or Item represented by a token", within Awareness, LoS to the token, an
INT roll; "Uncover": every Hidden token within Awareness at once, INT halved;
"Interact"; "Spell Types": a Transmutation "remains on the field until removed
or destroyed") and shared/rules/eldfall-facts.md ("Base Contact: ... a hitbox
touches a token").

A token is a disc lying on a surface (``radius`` inches, default a Small
base); the geometry answers for it through the protocol's point methods
(``point_in_awareness``, ``point_sight``, ``point_distance``). The scene
declares them (``tokens:``, docs/scene-format.md); they reach the game as plain
dicts in ``scene_info["tokens"]``, so the log's header carries them.

Rulings (docs/rulings.md, "Hidden tokens"):
* Perceive targets one hidden enemy token (Active Role: a Reaction may only
  target the activated model); Uncover reveals every hidden enemy token (and
  Shrouded enemy model) within Awareness, without LoS, as for models.
* A hidden enemy token cannot be targeted or Interacted with; its owner's
  models know where it lies and may pick up their own hidden Item.
* A revealed Item is picked up with Interact in Base Contact (no roll) by a
  model of either side: it becomes an acquired Item of that model (Trade may
  hand it on); the token leaves the field.
* A revealed Spell token stays on the field; an enemy model in Base Contact
  removes ("destroys") it with Interact, no roll.
* A successful Transmutation cast lays a new hidden spell token of the caster's
  side (``place_spell``; "Casting a Transmutation").
"""
from __future__ import annotations

from dataclasses import dataclass

from rules.eldfall import combat as cb

MM_PER_INCH = 25.4
DEFAULT_BASE_MM = 25.0
DEFAULT_RADIUS = DEFAULT_BASE_MM / MM_PER_INCH / 2     # inches: a Small base's disc
CONTACT = 1e-3
KINDS = ("item", "spell")


@dataclass
class TokenState:
    id: str
    kind: str                    # "item" | "spell"
    side: str                    # the owner (a spell token: its caster's side)
    at: tuple                    # (x, y, z) on the surface
    hidden: bool = True
    radius: float = DEFAULT_RADIUS
    item: str = ""
    spell: str = ""
    caster: str = ""
    removed: bool = False        # picked up or destroyed
    by: str | None = None        # who picked it up / destroyed it

    @property
    def on_field(self) -> bool:
        return not self.removed

    @property
    def label(self) -> str:
        return f"{self.kind} token {self.id}" + (f" ({self.item})" if self.kind == "item" and self.item
                                                  else f" ({self.spell})" if self.spell else "")

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "side": self.side,
                "at": [round(float(v), 9) for v in self.at], "hidden": self.hidden,
                "radius": round(self.radius, 9), "item": self.item, "spell": self.spell,
                "caster": self.caster, "removed": self.removed, "by": self.by}


def build(game, raw) -> dict[str, TokenState]:
    """The tokens of ``scene_info["tokens"]`` (plain dicts), z resolved onto
    the surface (``geo.ground``) where not given. ValueError on bad data."""
    out: dict[str, TokenState] = {}
    if raw is None:
        return out
    if not isinstance(raw, list):
        raise ValueError("scene tokens must be a list")
    for i, d in enumerate(raw):
        if not isinstance(d, dict):
            raise ValueError(f"token {i} is not a mapping")
        tid = str(d.get("id", ""))
        if not tid:
            raise ValueError(f"token {i} has no id")
        if tid in out or tid in game.models:
            raise ValueError(f"the token id {tid!r} is used twice (tokens and models share ids)")
        kind = d.get("kind")
        if kind not in KINDS:
            raise ValueError(f"token {tid}: kind must be item or spell, not {kind!r}")
        side = str(d.get("side", ""))
        if side not in game.sides:
            raise ValueError(f"token {tid}: side {side!r} is not one of {', '.join(game.sides)}")
        at = [float(v) for v in d.get("at", ())]
        if len(at) not in (2, 3):
            raise ValueError(f"token {tid}: at is [x, y] or [x, y, z]")
        if len(at) == 2:
            at = list(game.geo.ground(at[0], at[1]))
        caster = str(d.get("caster") or "")
        spell = str(d.get("spell") or "")
        if kind == "spell":
            c = game.models.get(caster)
            if c is None or c.side != side:
                raise ValueError(f"token {tid}: its caster {caster!r} is not a model of side {side}")
            if not any(s.get("name") == spell for s in c.unit.spells):
                raise ValueError(f"token {tid}: {caster} has no spell {spell!r}")
        out[tid] = TokenState(tid, kind, side, tuple(at), bool(d.get("hidden", True)),
                              float(d.get("base_mm", DEFAULT_BASE_MM)) / MM_PER_INCH / 2,
                              str(d.get("item") or (tid if kind == "item" else "")), spell, caster)
    return out


def new_id(game, caster: str, spell: str) -> str:
    """A fresh id for a token a cast lays: ``CASTER-SPELL-N`` (the first N free among
    the models' and tokens' ids)."""
    slug = "-".join("".join(c if c.isalnum() else " " for c in spell.lower()).split()) or "spell"
    n = 1
    while f"{caster}-{slug}-{n}" in game.tokens or f"{caster}-{slug}-{n}" in game.models:
        n += 1
    return f"{caster}-{slug}-{n}"


def place_spell(game, caster: str, spell: str, at) -> TokenState:
    """A Transmutation's token laid on the field by a successful cast: hidden, of the
    caster's side, as a scene's spell token (spells.resolve_transmutation)."""
    t = TokenState(new_id(game, caster, spell), "spell", game.models[caster].side,
                   tuple(float(v) for v in at), True, spell=spell, caster=caster)
    game.tokens[t.id] = t
    game.emit("token", {"token": t.id, "kind": "spell", "side": t.side, "event": "placed",
                        "by": caster, "spell": spell, "caster": caster,
                        "at": [round(float(v), 9) for v in t.at], "hidden": True,
                        "radius": round(t.radius, 9)})
    return t


def is_token(game, ident: str | None) -> bool:
    return ident is not None and ident in game.tokens


def in_contact(game, model: str, t: TokenState) -> bool:
    """Base Contact: the model's hitbox touches the token's disc."""
    return game.geo.point_distance(model, t.at) <= t.radius + CONTACT


def sees(game, model: str, t: TokenState) -> bool:
    if "Blinded" in game.models[model].states:
        return False
    return bool(game.geo.point_sight(model, t.at, t.radius))


# ---------------------------------------------------------------- Perceive
def why_not_perceive(game, d, t: TokenState) -> str | None:
    m = game.models[d.model]
    if t.removed:
        return f"{t.id} is no longer on the field"
    if t.side == m.side:
        return f"{t.id} is {m.side}'s own token: Perceive reveals an enemy's"
    if not t.hidden:
        return f"{t.id} is not hidden (already revealed)"
    if not game.geo.point_in_awareness(d.model, t.at, t.radius):
        return f"{t.id} is not within {d.model}'s Awareness"
    if not sees(game, d.model, t):
        return f"no LoS to {t.id}"
    return None


def reveal(game, t: TokenState, by: str, how: str) -> None:
    if not t.hidden:
        return
    t.hidden = False
    game.emit("token", {"token": t.id, "kind": t.kind, "side": t.side, "event": "revealed",
                        "by": by, "how": how, "at": list(t.at), "item": t.item, "spell": t.spell,
                        "caster": t.caster})


def resolve_perceive(game, mid: str, t: TokenState) -> None:
    v = game.roll(f"Perceive: {mid} INT", model=mid, target=t.id)
    die = cb.judge(v, game.stat(mid, "INT"))
    game.emit("check", {"model": mid, "check": "Perceive", "target": t.id, "die": die.to_dict()})
    if die.success and t.on_field:
        reveal(game, t, mid, "Perceive")


def hidden_in_awareness(game, mid: str) -> list[TokenState]:
    """The hidden enemy tokens within ``mid``'s Awareness (for Uncover)."""
    side = game.models[mid].side
    return [t for t in game.tokens.values() if t.on_field and t.hidden and t.side != side
            and game.geo.point_in_awareness(mid, t.at, t.radius)]


# ---------------------------------------------------------------- Interact
def why_not_interact(game, d, t: TokenState) -> str | None:
    m = game.models[d.model]
    if d.targets:
        return "Interact targets a token or quest object, not a model"
    if t.removed:
        return f"{t.id} is no longer on the field"
    if t.hidden and t.side != m.side:
        return f"{t.id} is hidden: reveal it first (Perceive or Uncover)"
    if t.kind == "spell" and t.side == m.side:
        return f"{t.id} is {m.side}'s own spell: only an enemy removes it"
    if not in_contact(game, d.model, t):
        return (f"{d.model} is not in Base Contact with {t.id} "
                f"({game.geo.point_distance(d.model, t.at) - t.radius:.2f}\" away)")
    return None


def resolve_interact(game, mid: str, t: TokenState) -> None:
    if t.removed:
        game.emit("token", {"token": t.id, "event": "gone", "by": mid})
        return
    m = game.models[mid]
    if t.hidden:                      # its owner picks up its own hidden Item: now seen
        reveal(game, t, mid, "picked up")
    t.removed = True
    t.by = mid
    if t.kind == "item":
        m.items = tuple(m.items) + (t.item,)
        game.emit("token", {"token": t.id, "kind": "item", "side": t.side, "event": "picked up",
                            "by": mid, "item": t.item})
        game.emit("item", {"model": mid, "item": t.item})
    else:
        game.emit("token", {"token": t.id, "kind": "spell", "side": t.side, "event": "destroyed",
                            "by": mid, "spell": t.spell, "caster": t.caster})


def candidates(game, model: str, role: str):
    """(action, token id) pairs worth checking for ``model`` (cheap filters)."""
    side = game.models[model].side
    for t in game.tokens.values():
        if t.removed:
            continue
        if role == "active" and t.hidden and t.side != side:
            yield "Perceive", t.id
        if not (t.hidden and t.side != side) and not (t.kind == "spell" and t.side == side):
            yield "Interact", t.id
