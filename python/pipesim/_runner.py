"""A campaign runner process, started by pipesim.campaign:

    python3 -S .../pipesim/_runner.py RESULT_FD PARENT PATH OUT JOBS RESUME SHARD ONLY QUIET COMMAND

Every run of a campaign is a child forked by its runner (SimGrid allows one engine per process), and forking costs
in proportion to the forking process's memory: an interpreter that has loaded pandas and matplotlib (a notebook)
forks several times slower than the command line. A campaign that names no mapper written in Python therefore runs
in this fresh interpreter, which loads the extension alone (as a top-level module: not the package, whose imports
would double its memory) and runs the same run_campaign as `pipesim campaign`. It dies with its parent; its result,
the runner's counts or the error, goes to RESULT_FD as the repr of a dict.
"""

import os
import sys


def main():
    result_fd, parent, path, out, jobs, resume, shard, only, quiet, command = sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # even with PYTHONSAFEPATH set
    import _pipesim

    _pipesim.die_with_parent(int(parent))
    try:
        result = {"summary": _pipesim.campaign(path, out, int(jobs), resume == "1", shard,
                                               [int(i) for i in only.split(",") if i], quiet == "1", command)}
    except ValueError as error:  # what pipesim::InputError becomes here
        result = {"input_error": str(error)}
    except Exception as error:  # noqa: BLE001 (reported to the caller as it would have seen it)
        result = {"error": f"{type(error).__name__}: {error}"}
    with os.fdopen(int(result_fd), "w") as f:
        f.write(repr(result))


if __name__ == "__main__":
    main()
