"""``eldfall check``: the summary lists the reserve creatures and the tokens."""
import json
import re

from tools.cli import main

SCENE = "scenes/ritual.yaml"


def test_check_lists_reserves_and_tokens(capsys):
    assert main(["check", SCENE]) == 0
    out = capsys.readouterr().out.splitlines()
    i = next(i for i, ln in enumerate(out) if ln.startswith("reserves:"))
    assert out[i] == "reserves: 2 off the table until a Ritual summons them (red 2)"
    wolf, bear = out[i + 1].split(), out[i + 2].split()
    assert wolf[:4] == ["ritual-wolf", "red", "Tier", "1"] and "(sample-conjurers#spirit-wolf)" in wolf
    assert bear[:5] == ["ritual-bear", "red", "Tier", "2", "L"]
    # the models line counts only what stands on the table
    assert "models: 6 (red 3, blue 3)" in out
    assert not any(ln.split()[:1] == ["ritual-wolf"] for ln in out[:i])
    j = next(i for i, ln in enumerate(out) if ln.startswith("tokens:"))
    assert out[j] == "tokens: 3 (2 hidden, 1 revealed)"
    rows = {ln.split()[0]: ln for ln in out[j + 1:j + 4]}
    assert list(rows) == ["red-snare", "blue-cache", "old-relic"]
    assert re.search(r"red-snare\s+spell\s+red\s+hidden\s+spell \"Rune Snare\" of red-summoner\s+"
                     r"at \(12, 12, 0\.00\)", rows["red-snare"])
    assert re.search(r"blue-cache\s+item\s+blue\s+hidden\s+item \"Healing Draught\"", rows["blue-cache"])
    assert re.search(r"old-relic\s+item\s+blue\s+revealed\s+item \"Old Relic\"", rows["old-relic"])


def test_check_json_has_reserves_and_tokens(capsys):
    assert main(["check", SCENE, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["side"], r["tier"]) for r in info["reserves"]] == [
        ("ritual-wolf", "red", 1), ("ritual-bear", "red", 2)]
    toks = {t["id"]: t for t in info["tokens"]}
    assert (toks["red-snare"]["kind"], toks["red-snare"]["side"], toks["red-snare"]["hidden"]) == ("spell", "red", True)
    assert toks["red-snare"]["caster"] == "red-summoner" and toks["red-snare"]["spell"] == "Rune Snare"
    assert (toks["old-relic"]["kind"], toks["old-relic"]["hidden"], toks["old-relic"]["item"]) == ("item", False, "Old Relic")
    assert toks["blue-cache"]["diameter_in"] == round(25 / 25.4, 3)


def test_a_token_without_z_lies_on_the_top_it_is_placed_on(tmp_path, capsys):
    text = open(SCENE, encoding="utf-8").read()
    # on top of the 1" low wall (x 9.5-14.5, y 16.75-17.25; a 0.4" disc fits across 0.5")
    text = text.replace("at: [4, 12], hidden: false}",
                        "at: [4, 12], hidden: false}\n  - {id: wall-coin, kind: item, side: red, "
                        "at: [13, 17], base_mm: 10}")
    p = tmp_path / "coin.yaml"
    p.write_text(text, encoding="utf-8")
    assert main(["check", str(p), "--json"]) == 0
    toks = {t["id"]: t for t in json.loads(capsys.readouterr().out)["tokens"]}
    assert abs(toks["wall-coin"]["z"] - 1.0) < 1e-3 and toks["wall-coin"]["item"] == "wall-coin"
    assert toks["old-relic"]["z"] == 0.0


def test_a_scene_without_reserves_or_tokens_says_nothing_of_them(capsys):
    assert main(["check", "scenes/skirmish.yaml"]) == 0
    out = capsys.readouterr().out
    assert "reserves:" not in out and "tokens:" not in out
    assert main(["check", "scenes/skirmish.yaml", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["reserves"] == [] and info["tokens"] == []


STRAT = "scenes/warbands.yaml"


def test_check_lists_each_sides_stratagems(capsys):
    assert main(["check", STRAT]) == 0
    out = capsys.readouterr().out.splitlines()
    i = out.index("stratagems: 6 (red 3, blue 3)")
    assert out[i + 1] == "  red (Leader red-champion):"
    rows = [ln.split("  ") for ln in out[i + 2:i + 5]]
    rows = [[c.strip() for c in r if c.strip()] for r in rows]
    assert rows[0][:4] == ["War Horn", "1 per game", "own", 'within 8"'] and rows[0][4] == "+1 AP at this Upkeep"
    assert rows[1][:4] == ["Shield Wall", "2 per game", "all-own", 'within 6"'] and rows[1][4].startswith("+2 DEF")
    assert rows[2][:4] == ["Field Dressing", "1 per turn", "own", "in Awareness"]
    assert out[i + 5] == "  blue (Leader blue-warden):"
    blue = {ln.split("  ")[2].strip(): ln for ln in out[i + 6:i + 9]}
    assert list(blue) == ["Hunter's Mark", "Fade into Cover", "Second Wind"]
    assert re.search(r"1 per game\s+enemy\s+within 18\"\s+-2 AG, \+Slowed", blue["Hunter's Mark"])
    assert re.search(r"1 per game\s+leader\s+the Leader\s+heals 1 HP", blue["Second Wind"])
    # the columns line up: every row's target kind starts at the same place
    cols = {ln.index(" own ") if " own " in ln else None for ln in out[i + 2:i + 9]} - {None}
    assert len(cols) == 1


def test_check_json_has_the_stratagems(capsys):
    assert main(["check", STRAT, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    st = info["stratagems"]
    assert list(st) == ["red", "blue"]
    assert [(r["name"], r["uses"], r["per"], r["target"], r["range"], r["awareness"]) for r in st["red"]] == [
        ("War Horn", 1, "game", "own", 8.0, False), ("Shield Wall", 2, "game", "all-own", 6.0, False),
        ("Field Dressing", 1, "turn", "own", None, True)]
    mark = st["blue"][0]
    assert mark["effect"]["mods"] == {"AG": -2} and mark["effect"]["states"] == ["Slowed"]
    assert mark["text"].startswith("SAMPLE.")
    assert (st["blue"][2]["target"], st["blue"][2]["range"]) == ("leader", None)


def test_a_scene_without_stratagems_says_nothing_of_them(capsys):
    assert main(["check", "scenes/skirmish.yaml"]) == 0
    assert "stratagems" not in capsys.readouterr().out.lower()
    assert main(["check", "scenes/skirmish.yaml", "--json"]) == 0
    assert "stratagems" not in json.loads(capsys.readouterr().out)


def test_a_side_without_a_leader_is_said_to_be_unable(tmp_path, capsys):
    text = open(STRAT, encoding="utf-8").read()
    text = text.replace("stratagems:\n  red:", "stratagems:\n  green:", 1)
    text = text.replace("models:\n", "models:\n  - {id: green-lone, side: green, profile: sample-red#archer, "
                                     "at: [2, 2], facing: 90}\n", 1)
    text = text.replace("deployment:\n", "deployment:\n  green: [[0, 0], [24, 6]]\n", 1)
    p = tmp_path / "green.yaml"
    p.write_text(text, encoding="utf-8")
    assert main(["check", str(p)]) == 0
    out = capsys.readouterr().out
    assert "  green (no Leader: unusable):" in out and "  blue (Leader blue-warden):" in out
