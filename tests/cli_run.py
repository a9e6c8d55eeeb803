"""Running the ``eldfall`` command inside a test: its exit code and printed output."""
from __future__ import annotations


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """``eldfall ARGV...`` in this process: (exit code, stdout, stderr). argparse's usage
    errors exit through SystemExit; no run ever prints a traceback."""
    from tools.cli import main
    try:
        rc = main(list(argv))
    except SystemExit as exc:
        rc = exc.code
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return rc, out.out, out.err
