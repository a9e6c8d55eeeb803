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


#: what a setting must be, in words, by the type of its default value
KIND_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a name",
              list: "a list", dict: "a mapping", type(None): "a value"}


def kind_words(default) -> str:
    """What a setting whose default is ``default`` must be, in words ("a whole number"),
    never a Python type name ("int")."""
    return KIND_WORDS.get(type(default), "a value")


def given_words(value, limit: int = 40) -> str:
    """A value given for a setting as its user wrote it (YAML words, not Python's):
    ``true`` (a yes/no value), not ``True``; ``null`` (no value), not ``None``; a text in
    quotes; a list or mapping in YAML's flow form. Long values are cut to ``limit``."""
    if isinstance(value, bool):
        shown = f"{str(value).lower()} (a yes/no value)"
    elif value is None:
        shown = "null (no value)"
    elif isinstance(value, (int, float, str)):
        shown = repr(value)
    elif isinstance(value, (list, tuple, dict)):
        import json
        try:
            text = json.dumps(value, ensure_ascii=False, default=str).replace('"', "'")
        except (TypeError, ValueError):
            text = repr(value)
        what = "a mapping" if isinstance(value, dict) else "a list"
        shown = f"{what} {text}"
    else:
        shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit - 3] + "..."


def did_you_mean(word, choices) -> str:
    """``": did you mean max_rounds?"`` when one of ``choices`` is close to ``word`` (a typo,
    a name cut short or another game's name for it: ``rounds`` -> ``max_rounds``), else ``""``."""
    import difflib
    if not isinstance(word, str):
        return ""
    choices = [c for c in choices if isinstance(c, str)]
    lower = {c.lower(): c for c in choices}
    w = word.lower().replace("-", "_").replace(" ", "_")
    if w in lower and lower[w] != word:
        return f": did you mean {lower[w]}?"
    hits = difflib.get_close_matches(w, list(lower), n=1, cutoff=0.6)
    if not hits:
        # a word that is one part of a longer name (rounds, max_rounds)
        hits = [c for c in lower if w and len(w) >= 4 and w in c.split("_")][:1] or \
               [c for c in lower if w and len(w) >= 4 and (c.endswith("_" + w) or c.startswith(w + "_"))][:1]
    return f": did you mean {lower[hits[0]]}?" if hits else ""
