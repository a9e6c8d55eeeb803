"""A terrain piece larger than the table is warned of (millimetres written as inches).

The table's own size was checked ("a 914 x 914 table is 76 feet across"), a piece's was
not: a 76" wall on a 36" table (76 mm meant) loaded without a word.
"""
from __future__ import annotations

from cli_run import run_cli  # noqa: E402

SCENE = """\
table: [36, 36]
terrain:
  - {id: wall, shape: box, at: [10, 10, 0], size: [3, 1, 76]}
  - {id: col, shape: cylinder, at: [20, 20, 0], radius: 1, height: 50.8}
  - {id: mat, shape: box, at: [18, 18, 0], size: [36, 36, 0.1]}
models:
  - {id: a, side: red, size: M, at: [5, 5], facing: 0}
  - {id: b, side: blue, size: M, at: [30, 30], facing: 0}
"""


def test_a_piece_larger_than_the_table_is_warned_of(tmp_path, capsys):
    p = tmp_path / "big.yaml"
    p.write_text(SCENE)
    rc, out, err = run_cli(capsys, "check", str(p))
    said = out + err
    assert rc == 0, said                      # a warning, not an error
    assert f"{p}:3: terrain[0].size[2]: warning: a height of 76\" is more than the 36\" table" in said
    assert f"{p}:4: terrain[1].height: warning: a height of 50.8\"" in said
    assert "terrain[2]" not in said           # a mat the size of the table is no mistake
