"""rules.core.Game: the checked entry point, the lazy legal view, replay and the hash."""
from dataclasses import dataclass

import pytest

from rules.core import Dice, EventLog, Game, IllegalAction, LogError, Outcome, Termination, read_log


@dataclass(frozen=True)
class Add:
    n: int

    def __str__(self):
        return f"add {self.n}"


class Race(Game):
    """First to 10 points; each action rolls a d6 and adds it times n."""
    game_name = "race"

    def __init__(self, seed=0, dice=None):
        super().__init__(seed=seed, dice=dice)
        self.total = 0
        self.phase = "play"
        self.emit("setup", {"start": 0})

    def header(self):
        return {"game": self.game_name, "seed": self.seed, "units": [], "scene": {}, "settings": {}}

    @classmethod
    def from_header(cls, header, geometry, dice=None):
        return cls(header["seed"], dice)

    @classmethod
    def parse_action(cls, text):
        word, n = text.split()
        if word != "add":
            raise ValueError(text)
        return Add(int(n))

    def generate_actions(self):
        return (Add(n) for n in (1, 2))

    def check_phase(self, action):
        return None if self.phase == "play" else "not in play"

    def check_rule(self, action):
        return None if action.n in (1, 2) else f"n must be 1 or 2, not {action.n}"

    def perform(self, action):
        v = self.roll("points", sides=6)
        self.total += v * action.n
        self.emit("score", {"total": self.total})
        if self.total >= 10:
            self.finish(Outcome(Termination.OBJECTIVE, "me", {"me": self.total}))

    def state_dict(self):
        return {"total": self.total}


def test_legal_view_and_reasons():
    g = Race(1)
    assert Add(1) in g.legal_actions() and Add(3) not in g.legal_actions()
    assert len(g.legal_actions()) == 2
    with pytest.raises(IllegalAction, match="n must be 1 or 2"):
        g.apply(Add(3))
    while not g.is_over:
        g.apply(Add(2))
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply(Add(1))
    g.phase = "other"
    with pytest.raises(IllegalAction, match="not in play"):   # the phase is checked first
        g.apply(Add(1))


def test_every_roll_is_an_event_and_replay_matches(tmp_path):
    p = tmp_path / "race.jsonl"
    g = Race(7)
    g.start_log(EventLog(p))
    while not g.is_over:
        g.apply(Add(1))
    g.log.close()
    assert sum(1 for e in g.events if e.kind == "roll") == sum(1 for e in g.events if e.kind == "action")
    header, events, warnings = read_log(p)
    again = Race.replay(header, events, None)
    assert again.state_hash() == g.state_hash() and again.total == g.total
    # undo: replay to an earlier event
    k = [e.seq for e in g.events if e.kind == "action"][1]
    early = Race.replay(header, events[:k], None)
    assert len([e for e in early.events if e.kind == "action"]) == 1


def test_replay_detects_a_forged_roll(tmp_path):
    g = Race(3)
    g.apply(Add(1))
    events = [e.to_dict() for e in g.events]
    for e in events:
        if e["kind"] == "roll":
            e["data"] = dict(e["data"], value=(e["data"]["value"] % 6) + 1)
    with pytest.raises(LogError, match="replay gives roll"):
        Race.replay(g.header(), events, None)
    with pytest.raises(LogError, match="not 'race'"):
        Race.replay(dict(g.header(), game="chess"), events, None)


def test_fixed_dice_injected():
    g = Race(0, dice=Dice.fixed([6, 5]))
    g.apply(Add(1))
    g.apply(Add(1))
    assert g.total == 11 and g.is_over and g.outcome.winner == "me"
