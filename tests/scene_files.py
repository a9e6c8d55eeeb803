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


def problems_of(path, **kw) -> list[str]:
    """The one-line problems ``load_scene`` reports for ``path`` (it must refuse it)."""
    with pytest.raises(InputError) as info:
        load_scene(path, **kw)
    return [str(p) for p in info.value.problems]
