"""Benchmarks of the pipesim Python module (docs/python.md, "Speed"), as ratios against a baseline in the same run.

    PYTHONPATH=build/python /usr/bin/python3 python/bench/bench_python.py [--rounds R] [--jobs J]

1. Campaign rows per second through pipesim.campaign against `pipesim campaign` (the CLI) on the same campaign, in
   alternating rounds (goal: ratio >= 0.95): a simulated campaign (200 runs, 200 data sets each) and an analytic one
   (400 runs of seed 000's heuristics, where each row is little more than its worker's fork). The interpreter has
   pandas and matplotlib loaded, as a notebook has: the workers are forked from it.
   Then the analytic campaign with a mapper written in Python (the one-to-one greedy of examples/notebooks/), whose
   workers must be forked from this interpreter, against the CLI with br07.h1a-gr (the same kind of mapping).
2. A mapper written in Python: seconds per run_mapper call against the built-in `explicit` mapper returning the same
   mapping (the difference is the Python mapper's overhead per call), on the quickstart (n = 3, p = 4) and on a
   br07 instance (n = 50, p = 100).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import matplotlib  # noqa: F401  (loaded as in a notebook: the campaign's workers are forked from this process)
import pandas  # noqa: F401

import pipesim

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CLI = os.environ.get("PIPESIM_EXECUTABLE", os.path.join(ROOT, "build", "apps", "pipesim"))

CAMPAIGNS = {
    "simulate": """name: bench-python-simulate
mode: simulate
trace: 0
base:
  pipeline: {generate: {n: 6, w: [1, 20], delta: [1, 100], seed: 1}}
  platform: {generate: {class: fully-heterogeneous, p: 8, speed: [1, 20], bandwidth: [1, 10], seed: 1}}
  mapper: random.interval
  simulation: {datasets: 200}
seed: {from: 1, count: 200}
""",
    "analytic": """name: bench-python-analytic
mode: analytic
base:
  pipeline: {generate: {preset: br07-exp1, n: 20, seed: 1}}
  platform: {generate: {preset: br07, p: 20, seed: 1}}
  mapper: br07.h7b-bsc
sweep:
  mapper: [br07.h1a-gr, br07.h2-gsw, br07.h4-gp, br07.h7b-bsc]
seed: {from: 1, count: 100}
""",
}


@pipesim.mapper("bench.greedy")
def greedy(problem):
    """Stage i on the i-th fastest processor (one-to-one; the bench's mapper written in Python)."""
    order = sorted(range(problem.p), key=lambda u: -problem.speed[u])
    return [(i + 1, i + 1, order[i]) for i in range(problem.n)]


def run_cli(path, out, jobs):
    start = time.perf_counter()
    subprocess.run([CLI, "campaign", path, "--out", out, "--jobs", str(jobs), "-q"], check=True,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def run_python(path, out, jobs):
    start = time.perf_counter()
    df = pipesim.campaign(path, out, jobs=jobs, quiet=True)
    seconds = time.perf_counter() - start
    assert len(df) > 0 and (df.status == "ok").all()
    return seconds


def bench_campaign(label, cli_text, python_text, rounds, jobs, scratch):
    paths = []
    for name, text in (("cli", cli_text), ("python", python_text)):
        paths.append(os.path.join(scratch, f"{label}-{name}.yaml"))
        with open(paths[-1], "w") as f:
            f.write(text)
    rows = 0
    cli, py = [], []
    for r in range(rounds):  # alternating, so that a busy machine slows both alike
        for runner, path, times in ((run_cli, paths[0], cli), (run_python, paths[1], py)):
            out = os.path.join(scratch, f"{label}-{runner.__name__}-{r}")
            times.append(runner(path, out, jobs))
            rows = len(pipesim.read_campaign(out))
            shutil.rmtree(out)
    cli_rate, py_rate = rows / statistics.median(cli), rows / statistics.median(py)
    print(f"campaign {label:17} {rows} rows, --jobs {jobs}, median of {rounds}: CLI {cli_rate:6.1f} rows/s, "
          f"pipesim.campaign {py_rate:6.1f} rows/s, ratio {py_rate / cli_rate:.3f}")
    return py_rate / cli_rate


def bench_mapper(label, scenario, repeats):
    fixed = pipesim.map(scenario)
    mapping = fixed.mapping

    @pipesim.mapper("bench.fixed")
    def fixed_mapping(problem):
        """Returns the mapping the scenario's mapper found (the bench's Python mapper)."""
        return mapping

    with_mapping = scenario.with_values({"mapper": None, "mapping": mapping})  # the `explicit` mapper
    t_python = pipesim._pipesim.time_mapper(with_mapping._text, with_mapping.file, with_mapping.base_dir,
                                            "bench.fixed", repeats)
    t_explicit = pipesim._pipesim.time_mapper(with_mapping._text, with_mapping.file, with_mapping.base_dir,
                                              "explicit", repeats)
    print(f"mapper   {label:30} Python {t_python * 1e6:8.1f} us/call, explicit {t_explicit * 1e6:8.1f} us/call, "
          f"overhead {(t_python - t_explicit) * 1e6:8.1f} us/call")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2000)
    args = parser.parse_args()
    os.chdir(ROOT)
    print(f"pipesim {pipesim.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    quick = pipesim.load("scenarios/examples/quickstart.yaml")
    big = quick.with_values({"pipeline": {"generate": {"preset": "br07-exp1", "n": 50, "seed": 1}},
                             "platform": {"generate": {"preset": "br07", "p": 100, "seed": 1}},
                             "mapper": "br07.h7b-bsc"})
    bench_mapper("quickstart (n = 3, p = 4)", quick, args.repeats)
    bench_mapper("br07 (n = 50, p = 100)", big, max(1, args.repeats // 10))
    with tempfile.TemporaryDirectory(prefix="pipesim-bench-python-") as scratch:
        for kind, text in CAMPAIGNS.items():  # the same file for both: goal ratio >= 0.95
            bench_campaign(kind, text, text, args.rounds, args.jobs, scratch)
        sweep = "sweep:\n  mapper: [br07.h1a-gr, br07.h2-gsw, br07.h4-gp, br07.h7b-bsc]\n"
        analytic = CAMPAIGNS["analytic"].replace(sweep, "").replace("count: 100", "count: 200")
        bench_campaign("Python mapper", analytic.replace("br07.h7b-bsc", "br07.h1a-gr"),
                       analytic.replace("br07.h7b-bsc", "bench.greedy"), args.rounds, args.jobs, scratch)


if __name__ == "__main__":
    main()
