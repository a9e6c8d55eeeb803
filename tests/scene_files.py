"""Writing scene files in a test and reading back the problems the loader reports."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import InputError
from engine.scene import load_scene


def write(tmp: Path, name: str, text: str | bytes) -> Path:
    """``text`` (str: UTF-8; bytes: as given) into ``tmp/name``, folders made."""
    p = tmp / name
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def write_dedented(tmp: Path, name: str, text: str) -> Path:
    """``text`` written as ``write`` does, its common indentation removed first."""
    import textwrap
    return write(tmp, name, textwrap.dedent(text))


def world_of(tmp: Path, text: str, name: str = "scene.yaml"):
    """The World of the scene ``text`` written to ``tmp/name`` (as the commands build it)."""
    from tools.loading import build_world
    p = write(tmp, name, text)
    return build_world(load_scene(str(p)), str(p))


def problems_of(path, **kw) -> list[str]:
    """The one-line problems ``load_scene`` reports for ``path`` (it must refuse it)."""
    with pytest.raises(InputError) as info:
        load_scene(path, **kw)
    return [str(p) for p in info.value.problems]


#: a party file with one caster (test-party#burster, Fire affinity) whose Sorcery places
#: circular-s templates; its STK and whether it also has a spray-s spell (Gust) are chosen
_BURSTER = """party: Test
game: eldfall
profiles:
  burster:
    name: Burster
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}
    affinities: [Fire]
    spells:
      - {name: Fire Rain, type: Sorcery, affinity: Fire, mana: 2, pw: 10, stk: %d, range: 24, template: circular-s}
"""
_GUST = ("      - {name: Gust, type: Sorcery, affinity: Fire, mana: 2, pw: 8, stk: 3, range: 12, "
         "template: spray-s}\n")


def burster_models(tmp: Path, stk: int = 3, gust: bool = False) -> Path:
    """``tmp/models`` holding ``test-party.yaml`` (the burster caster): the folder."""
    write(tmp, "models/test-party.yaml", _BURSTER % stk + (_GUST if gust else ""))
    return tmp / "models"
