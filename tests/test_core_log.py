"""rules.core: dice, events, the JSON-lines log and its torn-line recovery."""
import json
import os

import pytest

from rules.core.dice import Dice, DiceExhausted
from rules.core.errors import LogError
from rules.core.game import Event
from rules.core.log import EventLog, read_log


def test_seeded_dice_reproducible_and_in_range():
    a, b = Dice(42), Dice(42)
    ra = [a.roll() for _ in range(200)]
    assert ra == [b.roll() for _ in range(200)]
    assert set(ra) <= set(range(1, 21)) and len(set(ra)) > 15
    assert a.state_digest() == b.state_digest()
    assert [Dice(43).roll() for _ in range(20)] != ra[:20]
    assert [Dice(1).roll(6) for _ in range(3)] == [Dice(1).roll(6)] * 3


def test_fixed_dice_sequence_and_exhaustion():
    d = Dice.fixed([1, 20, 7])
    assert [d.roll(), d.roll(), d.roll()] == [1, 20, 7]
    with pytest.raises(DiceExhausted):
        d.roll()
    with pytest.raises(ValueError):
        Dice.fixed([21]).roll(20)


def test_event_json_round_trip():
    ev = Event("roll", {"value": 7, "why": "hit", "list": [1, 2]}, 3)
    assert Event.from_json(ev.to_json()) == ev


def _write(tmp_path, n=3):
    p = tmp_path / "g.jsonl"
    with EventLog(p) as log:
        log.write_header({"game": "eldfall", "seed": 5, "units": [], "scene": {}, "settings": {}})
        for i in range(n):
            log.append(Event("roll", {"value": i + 1}, i))
    return p


def test_log_round_trip(tmp_path):
    p = _write(tmp_path)
    header, events, warnings = read_log(p)
    assert header["game"] == "eldfall" and header["seed"] == 5 and header["format"] == 1
    assert [e["data"]["value"] for e in events] == [1, 2, 3]
    assert warnings == []


def test_torn_last_line_without_newline_is_dropped(tmp_path):
    p = _write(tmp_path)
    with open(p, "a") as fh:
        fh.write('{"type":"event","seq":3,"kind":"ro')
    header, events, warnings = read_log(p)
    assert len(events) == 3
    assert len(warnings) == 1 and "torn last line" in warnings[0]


def test_torn_last_line_invalid_json_with_newline_is_dropped(tmp_path):
    p = _write(tmp_path)
    with open(p, "a") as fh:
        fh.write('{"type":"event","seq":3,\n')
    _, events, warnings = read_log(p)
    assert len(events) == 3 and "invalid JSON" in warnings[0]


def test_bad_line_in_the_middle_is_an_error(tmp_path):
    p = _write(tmp_path)
    lines = p.read_text().splitlines()
    lines[2] = "{not json"
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError) as exc:
        read_log(p)
    assert ":3:" in str(exc.value)


def test_missing_header_and_out_of_order(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text(json.dumps({"type": "event", "seq": 0, "kind": "a", "data": {}}) + "\n")
    with pytest.raises(LogError, match="not a header"):
        read_log(p)
    p = _write(tmp_path)
    lines = p.read_text().splitlines()
    lines[1], lines[2] = lines[2], lines[1]
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match="out of order"):
        read_log(p)
    with pytest.raises(LogError, match="cannot read"):
        read_log(tmp_path / "nope.jsonl")


def test_log_is_fsynced_line_by_line(tmp_path):
    p = tmp_path / "live.jsonl"
    log = EventLog(p)
    log.write_header({"game": "eldfall", "seed": 1, "units": []})
    log.append(Event("x", {}, 0))
    # not closed: another reader sees both lines already
    assert len(open(p).read().splitlines()) == 2
    log.close()
