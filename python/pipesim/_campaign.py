"""Campaigns (docs/campaigns.md) from Python: run one as `pipesim campaign` does, read its rows as a DataFrame."""

import json
import os
import sys

from . import _pipesim as _core
from ._errors import InputError

# The types of the results.csv columns (validation/campaigns/campaign_row.cpp): counts may be missing (nullable Int64),
# numbers are floats (inf, nan and missing values included), the rest strings. A column not listed here (param:KEY, a
# column added later) gets the type pandas reads in it.
_INTEGERS = ("run_id", "seed")
_COUNTS = ("n", "p", "crashes", "runs", "run_errors", "survived_late_crash", "milp_variables", "milp_constraints",
           "milp_nodes", "random_seed")
_NUMBERS = ("mapper_lower_bound", "mapper_gap", "analytic_period", "event_graph_period", "hedpm_period",
            "simulated_period", "rel_error_period", "rel_error_event_graph", "analytic_latency", "simulated_latency",
            "failure_probability", "period_after_crash", "survival_rate", "survival_ci_low", "survival_ci_high",
            "survival_ci99_low", "survival_ci99_high", "schedule_survival_rate", "period_random", "period_max_bout",
            "period_min_comm", "period_min_nb_procs", "period_milp", "milp_bound")
_STRINGS = ("campaign", "mapper", "status", "mapper_status", "platform_class", "mapping", "rule", "formula",
            "verdict", "error", "milp_status")


def _column_type(column):
    if column in _INTEGERS:
        return "int64"
    if column in _COUNTS:
        return "Int64"
    if column in _NUMBERS or column.startswith("timing."):
        return "float64"
    if column in _STRINGS:
        return "object"
    return None


def read_campaign(directory):
    """The rows of a campaign's output directory (results.csv) as a pandas.DataFrame, one row per run in run-id
    order: the CSV's columns with their types (numbers as floats, counts as Int64, text as str; an empty cell is
    NaN/<NA>), the swept parameters as `param:KEY` columns. `df.attrs["campaign"]` holds campaign.json."""
    import pandas as pd

    directory = os.fspath(directory)
    meta_path = os.path.join(directory, "campaign.json")
    csv_path = os.path.join(directory, "results.csv")
    if not os.path.isfile(meta_path):
        raise InputError(f"{directory}: not a campaign output directory (no campaign.json)")
    with open(meta_path) as f:
        meta = json.load(f)
    if not os.path.isfile(csv_path):
        raise InputError(f"{directory}: no results.csv (the campaign has not run yet)")
    header = pd.read_csv(csv_path, nrows=0).columns
    dtypes = {c: t for c in header if (t := _column_type(c)) is not None}
    # Only empty cells are missing, and "nan" in a number column: a mapper or a parameter named "NA" stays text.
    na_values = {c: ["", "nan"] if dtypes.get(c) == "float64" else [""] for c in header}
    # round_trip: the CSV's 17 significant digits read back to the very doubles the runner wrote (pandas' default
    # parser may be off by one unit in the last place)
    df = pd.read_csv(csv_path, dtype=dtypes, keep_default_na=False, na_values=na_values, float_precision="round_trip")
    df = df.sort_values("run_id", kind="stable").reset_index(drop=True)
    df.attrs["campaign"] = meta
    return df


def _run_in_fresh_process(a):
    """_core.campaign(**a) in a fresh interpreter (pipesim/_runner.py): its summary, or its error raised here.
    Ctrl-C (KeyboardInterrupt) kills the runner, whose workers die with it."""
    import ast
    import signal
    import subprocess

    read_fd, write_fd = os.pipe()
    argv = [sys.executable, "-S", os.path.join(os.path.dirname(os.path.abspath(__file__)), "_runner.py"),
            str(write_fd), str(os.getpid()), a["path"], a["out"], str(a["jobs"]), "1" if a["resume"] else "0",
            a["shard"], ",".join(map(str, a["only"])), "1" if a["quiet"] else "0", a["command"]]
    try:
        # its own session: a Ctrl-C on the terminal reaches this interpreter alone, which then ends the runner
        runner = subprocess.Popen(argv, pass_fds=(write_fd,), start_new_session=True)
    finally:
        os.close(write_fd)
    with os.fdopen(read_fd) as result_pipe:
        try:
            text = result_pipe.read()
            runner.wait()
        except BaseException:  # KeyboardInterrupt: the runner and (by their parent-death signal) its workers end
            os.killpg(runner.pid, signal.SIGKILL)
            runner.wait()
            raise
    result = ast.literal_eval(text) if text else {"error": f"campaign runner ended with status {runner.returncode}"}
    if "input_error" in result:
        raise InputError(result["input_error"])
    if "error" in result:
        raise RuntimeError(result["error"])
    return result["summary"]


def _may_use_python_mappers(path):
    """Whether the campaign may name a mapper or a re-mapping policy written in Python: one's name in the campaign
    file or in its base scenario's file. Cheap and never wrong in the direction that matters: a false alarm only runs
    it here."""
    names = _core.python_mappers() + _core.python_policies()
    if not names:
        return False
    texts = []
    for file in (path, *_base_scenario_files(path)):
        try:
            with open(file, encoding="utf-8", errors="replace") as f:
                texts.append(f.read())
        except OSError:
            pass  # the runner reports what it cannot read
    return any(name in text for name in names for text in texts)


def _base_scenario_files(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            base = _core.to_dict(f.read(), path).get("base")
    except (OSError, ValueError, AttributeError):
        return []
    return [os.path.join(os.path.dirname(path), base)] if isinstance(base, str) else []


def campaign(path, out, jobs=None, resume=True, shard=None, only=None, quiet=None):
    """Runs the campaign file `path` into the directory `out` as `pipesim campaign PATH --out OUT` does (every run
    in a worker process; every row on disk as it ends) and returns read_campaign(out). `jobs`: worker processes
    (default: the number of cores); `resume`: skip the runs `out` already holds (False refuses a directory with
    results); `shard`: "i/N"; `only`: run ids; `quiet=None` shows the CLI's progress line when stderr is a terminal.
    `df.attrs["summary"]` holds the runner's counts.

    A campaign that names a mapper or a re-mapping policy written in Python runs here: its workers are forked from
    this interpreter, where the function is. Any other runs in a fresh interpreter that loads only pipesim's extension (pipesim/_runner.py):
    forking a process that holds pandas costs several times more than forking the command line."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise InputError(f"jobs={jobs!r}: expected a whole number >= 1")
    if quiet is None:
        quiet = not os.isatty(2)
    path, out = os.fspath(path), os.fspath(out)
    command = f"python3: pipesim.campaign({path!r}, {out!r}, jobs={jobs!r}, resume={resume!r}" + \
        (f", shard={shard!r}" if shard else "") + (f", only={list(only)!r}" if only else "") + ")"
    arguments = dict(path=path, out=out, jobs=jobs or 0, resume=bool(resume), shard=shard or "",
                     only=[int(i) for i in only or []], quiet=bool(quiet), command=command)
    if _may_use_python_mappers(path) or not sys.executable:
        summary = _core.campaign(**arguments)
    else:
        summary = _run_in_fresh_process(arguments)
    df = read_campaign(out)
    df.attrs["summary"] = summary
    return df
