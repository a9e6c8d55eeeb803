"""Rules settings given on the command line (``--set KEY=VALUE``), common to the games."""
from __future__ import annotations

import copy


def expand_dotted(settings: dict) -> dict:
    """A settings mapping whose dotted keys name nested settings, as the rulings name them
    (``--set facing.front_half_angle=60``), as nested mappings: ``{"facing":
    {"front_half_angle": 60}}``. Keys given both ways merge; of two values for the same
    key, the later counts (as a second ``--set`` of a key does)."""
    out: dict = {}

    def put(node: dict, key, v) -> None:
        if isinstance(v, dict) and isinstance(node.get(key), dict):
            for k2, v2 in v.items():
                put(node[key], k2, v2)
        else:
            node[key] = copy.deepcopy(v)

    for k, v in settings.items():
        parts = k.split(".") if isinstance(k, str) else [k]
        node = out
        for part in parts[:-1]:
            if not isinstance(node.get(part), dict):
                node[part] = {}
            node = node[part]
        put(node, parts[-1], expand_dotted(v) if isinstance(v, dict) else v)
    return out
