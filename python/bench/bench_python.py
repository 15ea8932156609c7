"""Benchmarks of the pipesim Python module (docs/python.md, "Speed"), as ratios against a baseline in the same run.

    PYTHONPATH=build/python /usr/bin/python3 python/bench/bench_python.py [--rounds R] [--jobs J] [--only PART]

1. Campaign rows per second through pipesim.campaign against `pipesim campaign` (the CLI) on the same campaign, in
   alternating rounds (goal: ratio >= 0.95): a simulated campaign (200 runs, 200 data sets each) and an analytic one
   (400 runs of seed 000's heuristics, where each row is little more than its worker's fork). The interpreter has
   pandas and matplotlib loaded, as a notebook has: the workers are forked from it.
   Then the analytic campaign with a mapper written in Python (the one-to-one greedy of examples/notebooks/), whose
   workers must be forked from this interpreter, against the CLI with br07.h1a-gr (the same kind of mapping).
2. A mapper written in Python: seconds per run_mapper call against the built-in `explicit` mapper returning the same
   mapping (the difference is the Python mapper's overhead per call), on the quickstart (n = 3, p = 4) and on a
   br07 instance (n = 50, p = 100).
3. A re-mapping policy written in Python (the threshold policy of python/tests/test_policies.py) against the built-in
   `threshold` deciding as often (the same checks, the same re-map), wall time of pipesim.simulate in alternating
   rounds (goal: ratio <= 1.10): on the step scenario of validation/evaluation/remap_test.cpp with 50,000 data sets at
   the default check (half a window at the predicted period); then with 5,000 data sets and a decision every 0.1 s (each
   data set a window), where the decisions are most of the work: the cost of one decision. Also the CPU time of the
   simulation processes, which a loaded machine disturbs less than the wall time.
"""

import argparse
import os
import resource
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


STEP = """\
pipeline: {w: [10, 10], delta: [1, 1, 1]}
platform:
  processors: [{name: P1, speed: 10}, {name: P2, speed: 10}, {name: P3, speed: 4}]
  bandwidth: 10
  io: {in: io, out: io}
  profiles:
    hosts:
      - {host: P2, speed: [[100, 0.25]]}
mapper: exact.interval
simulation: {datasets: 5000, seed: 1}
dynamic: {policy: threshold, threshold: 10, windows: 2, window: 10, state: [5, 7], restart: 0.3}
"""


@pipesim.policy("bench.threshold")
class PythonThreshold:
    """The built-in `threshold` policy in Python (as python/tests/test_policies.py checks it)."""

    def __init__(self, threshold=10, windows=2):
        self.threshold, self.windows = threshold, windows
        self.predicted, self.above, self.since = None, 0, 0

    def decide(self, view):
        if self.predicted is None:
            self.predicted = view.period(platform="nominal")
        for w in view.new:
            if w.disturbed or w.first < self.since:
                continue
            self.above = self.above + 1 if w.period > self.predicted * (1 + self.threshold / 100) else 0
        if self.above < self.windows:
            return None
        self.above = 0
        m = view.map()
        if m is None or m == view.mapping:
            self.predicted = view.period()
            return None
        self.predicted = view.period(m)
        self.since = view.next_dataset
        return pipesim.Remap(m, reason="python threshold")


def bench_policy(label, values, rounds):
    base = pipesim.Scenario.from_yaml(STEP, file="bench-step.yaml")
    base = base.with_values(values) if values else base
    python = base.with_values({"dynamic": {k: v for k, v in base.to_dict()["dynamic"].items()
                                           if k not in ("threshold", "windows")} | {"policy": "bench.threshold"}})
    times = {"built-in": [], "Python": []}
    cpu = {"built-in": [], "Python": []}  # of the simulation's processes (reaped children): the load matters less
    results = {}
    for _ in range(rounds):  # alternating, so that a busy machine slows both alike
        for name, sc in (("built-in", base), ("Python", python)):
            start, start_cpu = time.perf_counter(), children_cpu()
            results[name] = pipesim.simulate(sc, quiet=True)
            times[name].append(time.perf_counter() - start)
            cpu[name].append(children_cpu() - start_cpu)
    remaps = {name: [(r["time"], r["dataset"], r["to"]) for r in res.to_dict()["dynamic"]["remaps"]]
              for name, res in results.items()}
    assert remaps["built-in"] == remaps["Python"], remaps
    doc = results["Python"].to_dict()
    check = values.get("dynamic.check") or 10 * 1.2 / 2  # the default: half a window at the predicted 1.2 s
    decisions = doc["simulated"]["makespan"] / check
    b, p = statistics.median(times["built-in"]), statistics.median(times["Python"])
    bc, pc = statistics.median(cpu["built-in"]), statistics.median(cpu["Python"])
    print(f"policy   {label:30} ~{decisions:6.0f} decisions, {len(remaps['Python'])} re-map, median of {rounds}: "
          f"wall built-in {b:6.3f} s, Python {p:6.3f} s, ratio {p / b:.3f}; CPU {bc:6.3f} s, {pc:6.3f} s, ratio "
          f"{pc / bc:.3f} ({(pc - bc) / decisions * 1e6:.2f} us/decision)")
    return p / b


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2000)
    parser.add_argument("--only", choices=("mapper", "policy", "campaign"), help="one part of the benchmark")
    args = parser.parse_args()
    os.chdir(ROOT)
    print(f"pipesim {pipesim.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    if args.only in (None, "mapper"):
        quick = pipesim.load("scenarios/examples/quickstart.yaml")
        big = quick.with_values({"pipeline": {"generate": {"preset": "br07-exp1", "n": 50, "seed": 1}},
                                 "platform": {"generate": {"preset": "br07", "p": 100, "seed": 1}},
                                 "mapper": "br07.h7b-bsc"})
        bench_mapper("quickstart (n = 3, p = 4)", quick, args.repeats)
        bench_mapper("br07 (n = 50, p = 100)", big, max(1, args.repeats // 10))
    if args.only in (None, "policy"):  # goal ratio <= 1.10
        bench_policy("step, 50,000 data sets", {"simulation.datasets": 50000}, args.rounds)
        bench_policy("step, a decision every 0.1 s", {"dynamic.window": 1, "dynamic.check": 0.1}, args.rounds)
    if args.only not in (None, "campaign"):
        return
    with tempfile.TemporaryDirectory(prefix="pipesim-bench-python-") as scratch:
        for kind, text in CAMPAIGNS.items():  # the same file for both: goal ratio >= 0.95
            bench_campaign(kind, text, text, args.rounds, args.jobs, scratch)
        sweep = "sweep:\n  mapper: [br07.h1a-gr, br07.h2-gsw, br07.h4-gp, br07.h7b-bsc]\n"
        analytic = CAMPAIGNS["analytic"].replace(sweep, "").replace("count: 100", "count: 200")
        bench_campaign("Python mapper", analytic.replace("br07.h7b-bsc", "br07.h1a-gr"),
                       analytic.replace("br07.h7b-bsc", "bench.greedy"), args.rounds, args.jobs, scratch)

if __name__ == "__main__":
    main()
