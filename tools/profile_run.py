"""Profile one msgraphlint run in this process and print where the time went.

    python tools/profile_run.py [--out FILE] [--top N] check PATH --no-cache --jobs 1 ...

The CLI leaves through ``os._exit`` (no interpreter teardown), so a profiler's own exit hook never
runs; this wraps it to write the profile first. Use ``--jobs 1``: with more, the work is done in
child processes the profile does not see.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="msgraphlint.prof", help="where the profile is written")
    parser.add_argument("--top", type=int, default=40, help="rows of the cumulative listing")
    ours, rest = parser.parse_known_args()
    profile = cProfile.Profile()
    leave = os._exit

    def report_then_exit(code: int) -> None:
        profile.disable()
        profile.dump_stats(ours.out)
        pstats.Stats(ours.out, stream=sys.stderr).sort_stats("cumulative").print_stats(ours.top)
        sys.stderr.flush()
        leave(code)

    os._exit = report_then_exit
    sys.argv = ["msgraphlint", *rest]
    from msgraphlint.cli import main as cli_main

    profile.enable()
    try:
        cli_main()
    finally:
        report_then_exit(0)


if __name__ == "__main__":
    main()
