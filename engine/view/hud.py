"""The heads-up display: text panels over the 3D table.

Panels (all plain TextNodes on ``aspect2d`` with a dark card, so they stay
readable on any background):

* status (top left): game, round, active side, phase, hints;
* profile (left): the selected model's profile, AP/HP, states, weapons --
  or, for Legends of Norova, ``game.hud_lines(id)`` with the four action slots;
* menu (bottom): the legal movements and actions from the rules engine, numbered;
* verdict (top right): the live LoS verdict / measure;
* dice (right, above the log): the last rolls as dice with their results and
  the confrontation explained;
* log (right): the event log, newest last.

The attract mode (an organiser's big screen) shows only the status panel and
the banner: the banner narrates each step with its dice and outcome.

The HUD formats what the rules and the engine say; it decides nothing.
"""
from __future__ import annotations

from panda3d.core import NodePath, TextNode

PANEL_BG = (0.05, 0.06, 0.08, 0.78)


class Panel:
    def __init__(self, app, name: str, parent: NodePath, pos, *, scale=0.042,
                 align=TextNode.ALeft, width: float | None = None, fg=(1, 1, 1, 1)):
        self.tn = TextNode(f"hud-{name}")
        self.tn.setAlign(align)
        self.tn.setTextColor(*fg)
        self.tn.setCardColor(*PANEL_BG)
        self.tn.setCardAsMargin(0.5, 0.5, 0.35, 0.3)
        self.tn.setCardDecal(True)
        self.tn.setShadow(0.05, 0.05)
        self.tn.setShadowColor(0, 0, 0, 0.8)
        if width:
            self.tn.setWordwrap(width)
        self.np = parent.attachNewNode(self.tn)
        self.np.setScale(scale)
        self.scale = scale
        self.np.setPos(pos[0], 0, pos[1])
        self.text = ""
        self.on_change = None           # called after the text changed (the HUD re-stacks its panels)

    def set(self, text: str, colour=None) -> None:
        if colour is not None:
            self.tn.setTextColor(*colour)
        if text == self.text:
            return
        self.text = text
        self.tn.setText(text)
        if text:
            self.np.show()
        else:
            self.np.hide()
        if self.on_change is not None:
            self.on_change()

    def rows(self) -> int:
        """Its rows as drawn: a line longer than the panel's width wraps (0 when empty)."""
        return self.tn.getNumRows() if self.text else 0

    def row_height(self) -> float:
        """One row's height on ``aspect2d``."""
        return self.scale * self.tn.getLineHeight()

    def destroy(self) -> None:
        self.np.removeNode()


def die_face(value: int, sides: int = 20) -> str:
    return f"[d{sides}:{value:>2}]"


def event_line(ev) -> str:
    """One readable line for an event of any game."""
    kind = getattr(ev, "kind", None) or (ev.get("kind") if isinstance(ev, dict) else "?")
    data = getattr(ev, "data", None) or (ev.get("data") if isinstance(ev, dict) else {}) or {}
    if kind == "action":
        return f"> {data.get('action', '')}"
    if kind == "roll":
        extra = {k: v for k, v in data.items() if k not in ("sides", "value", "why")}
        tail = " ".join(f"{k}={v}" for k, v in extra.items())
        return f"  {die_face(int(data.get('value', 0)), int(data.get('sides', 20)))} {data.get('why', '')} {tail}".rstrip()
    if "text" in data:
        return f"  {kind}: {data['text']}"
    if "why" in data and len(data) <= 3:
        rest = ", ".join(f"{k}={_short(v)}" for k, v in data.items() if k != "why")
        return f"  {kind}: {data['why']}" + (f" ({rest})" if rest else "")
    parts = ", ".join(f"{k}={_short(v)}" for k, v in data.items())
    return f"  {kind}: {parts}"


def _short(v) -> str:
    if isinstance(v, float):
        return f"{v:.2f}"
    if isinstance(v, (list, tuple)) and len(v) == 3 and all(isinstance(x, (int, float)) for x in v):
        return "(" + ", ".join(f"{float(x):.1f}" for x in v) + ")"
    s = str(v)
    return s if len(s) <= 48 else s[:45] + "..."


def explain_rolls(events, limit: int = 6) -> str:
    """The last rolls as dice, grouped under the action that caused them, with
    the confrontation's own explanation events when the rules emit them."""
    out: list[str] = []
    last_action = None
    block: list[str] = []
    for ev in events:
        kind = getattr(ev, "kind", "")
        data = getattr(ev, "data", {}) or {}
        if kind == "action":
            if block:
                out.append((last_action or "") + "\n" + "\n".join(block))
            last_action, block = f"{data.get('action', '')}", []
        elif kind == "roll":
            block.append(f"  {die_face(int(data.get('value', 0)), int(data.get('sides', 20)))} {data.get('why', '')}")
        elif kind in ("confrontation", "attack", "hit", "damage", "save", "check", "result", "wound", "miss",
                      "critical", "dodge", "armour", "armor") or "result" in data or "success" in data:
            block.append("    = " + event_line(ev).strip())
    if block:
        out.append((last_action or "") + "\n" + "\n".join(block))
    text = "\n".join(out[-2:])
    lines = text.splitlines()
    return "\n".join(lines[-(limit * 3):])


class Hud:
    def __init__(self, app):
        self.app = app
        self.root = app.aspect2d.attachNewNode("hud-root")
        ar = app.getAspectRatio()
        self.status = Panel(app, "status", self.root, (-ar + 0.04, 0.93), scale=0.045, width=40)
        self.profile = Panel(app, "profile", self.root, (-ar + 0.04, 0.62), scale=0.036, width=34)
        self.menu = Panel(app, "menu", self.root, (-ar + 0.04, -0.62), scale=0.036, width=70)
        # the verdict wraps short of the status panel's widest line (top left, 40 units of
        # 0.045), so that the two never run into each other across the top
        self.verdict = Panel(app, "verdict", self.root, (ar - 0.04, 0.93), scale=0.042,
                             align=TextNode.ARight, width=max(16.0, min(44.0, (2 * ar - 0.08 - 0.045 * 41) / 0.042)))
        self.dice = Panel(app, "dice", self.root, (ar - 1.12, 0.74), scale=0.03,
                          align=TextNode.ALeft, width=36, fg=(1, 0.92, 0.6, 1))
        self.log = Panel(app, "log", self.root, (ar - 1.12, 0.3), scale=0.03,
                         align=TextNode.ALeft, width=36, fg=(0.85, 0.9, 1, 1))
        self.banner = Panel(app, "banner", self.root, (0, -0.9), scale=0.05, align=TextNode.ACenter, width=50,
                            fg=(1, 1, 0.7, 1))
        self.log_lines = 16
        self.verdict.on_change = self.place_right

    def place_profile(self) -> None:
        """The profile panel just below the status panel, whatever its height."""
        # the rows as drawn: a long line the panel wraps is two rows (F1's key list)
        self.profile.np.setZ(0.93 - self.status.row_height() * self.status.rows() - 0.06)

    def set_menu(self, text: str) -> None:
        """The menu grows upward from the bottom edge so every entry shows."""
        self.menu.set(text)
        n = self.menu.rows()                                        # a long entry wraps: its rows
        self.menu.np.setZ(-0.95 + 0.036 * 1.2 * max(0, n - 1))

    def set_banner(self, text: str) -> None:
        """The banner grows upward from the bottom edge so every line shows
        (wrapped lines included)."""
        self.banner.set(text)
        self.banner.np.setZ(-0.93 + self.banner.row_height() * max(0, self.banner.rows() - 1))

    def show_log(self, events, narrator=None, misses=None) -> None:
        """The newest events as the rules narrate them (a game's narration leaves the
        dice to the dice panel); ``misses`` as in :meth:`show_dice`: a missed attack says
        so after its dice (the rules emit no event for it). Narrated oldest first, as the
        game told them: a narration remembers what it told (the initiative roll-off, the
        moves a reaction names), and told backwards the log gave red's initiative roll
        the words "blue wins the initiative" and blue's none."""
        evs = list(events)
        span = 8 * self.log_lines
        while True:
            start = max(0, len(evs) - span)
            while start > 0 and getattr(evs[start], "kind", "") != "action":
                start -= 1                   # from a decision on (a miss needs its attack)
            lines = self._narrated(evs[start:], narrator, misses)
            if len(lines) >= self.log_lines or start == 0:
                break
            span *= 4
        lines = lines[-self.log_lines:]
        self._log_lines = lines
        self.log.set("Event log\n" + "\n".join(lines) if lines else "")
        self.fit_log()

    @staticmethod
    def _narrated(evs, narrator=None, misses=None) -> list[str]:
        """One log line per event worth one, in order, each miss after its attack's
        last die; whole, as the dice panel's: the panel wraps it (cut at 70
        characters, "may react to red-archer: blue-arcanist (LoS), b..." lost who)."""
        missed: dict = {}
        if misses is not None:
            try:
                missed = dict(misses(evs))
            except Exception:
                missed = {}
        lines = []
        for j, e in enumerate(evs):
            if narrator is not None and getattr(e, "kind", "") == "roll":
                text = None
            elif narrator is not None:
                try:
                    text = narrator(e)
                except Exception:
                    text = event_line(e)
            else:
                text = event_line(e)
            lines.extend(t for t in (text, missed.get(j)) if t)
        return lines

    #: the most lines of the dice panel (the oldest go first)
    DICE_LINES = 12

    def show_dice(self, events, narrator=None, misses=None) -> None:
        """The last action that rolled dice: its dice and the confrontation,
        as the rules narrate them (else the raw events); ``misses`` (events ->
        {index: line}, the game's narration of the attacks that hit nothing, for
        which the rules emit no event) adds each miss after its last die."""
        evs = list(events)
        if narrator is None:
            text = explain_rolls(evs[-60:])
            lines = [t for t in text.splitlines() if t.strip()]         # whole: the panel wraps them
            self.dice.set(("Dice and confrontation\n" + "\n".join(lines[-9:])) if lines else "")
            self.place_right()
            return
        last_roll = max((i for i, e in enumerate(evs) if getattr(e, "kind", "") == "roll"), default=None)
        if last_roll is None:
            self.dice.set("")
            self.place_right()
            return
        start = max((i for i, e in enumerate(evs[:last_roll + 1]) if getattr(e, "kind", "") == "action"), default=0)
        end = next((i for i in range(last_roll + 1, len(evs)) if getattr(evs[i], "kind", "") == "action"), len(evs))
        lines = []
        try:
            missed = dict(misses(evs[start:end])) if misses is not None else {}
        except Exception:
            missed = {}
        for i, e in enumerate(evs[start:end]):
            try:
                t = narrator(e)
            except Exception:
                t = event_line(e)
            if t:
                lines.append(t)         # whole: the panel wraps it (cut, "35: blue wi..." lost the winner)
            if missed.get(i):
                lines.append(missed[i])
        self.dice.set("Dice and confrontation\n" + "\n".join(lines[-self.DICE_LINES:]))
        self.place_right()

    def place_right(self) -> None:
        """The dice panel below the verdict (top right, as tall as its wrapped
        lines), the log just below the dice panel: none runs into another."""
        top = 0.74
        if self.verdict.text:
            lo, _ = self.verdict.np.getTightBounds(self.root)
            head = 0.03 * (self.dice.tn.getLineHeight() * 0.8 + 0.35)     # first baseline to the card's top
            top = min(top, float(lo[2]) - 0.02 - head)
        self.dice.np.setZ(top)
        n = self.dice.rows()                                        # its rows as wrapped
        self.log.np.setZ(top - self.dice.row_height() * n - 0.07 if n else top)
        self.fit_log()

    def fit_log(self) -> None:
        """The log keeps its newest lines, as wrapped, in its ``log_lines`` rows (and
        its title's) above the frame's bottom edge: the oldest go first when they
        wrap, or when the dice panel above it has pushed it down."""
        keep = list(getattr(self, "_log_lines", None) or [])
        if not keep:
            return
        room = min(self.log_lines + 1, int((self.log.np.getZ() + 0.96) / self.log.row_height()))
        while True:
            self.log.set("Event log\n" + "\n".join(keep))
            if len(keep) <= 1 or self.log.rows() <= room:
                break
            keep.pop(0)

    def rects(self) -> list[tuple[float, float, float, float]]:
        """The shown panels' pixel rectangles (y up): the labels keep off them."""
        from engine.view.labels import screen_rect
        rects = (screen_rect(self.app, p.np) for p in (self.status, self.profile, self.menu, self.verdict,
                                                       self.dice, self.log, self.banner))
        return [r for r in rects if r is not None]

    def destroy(self) -> None:
        self.root.removeNode()
