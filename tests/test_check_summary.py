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
