"""Shared by the pipesim Python tests (run by ctest from the source root, the build's package on PYTHONPATH)."""

import json
import os
import subprocess

import pytest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
QUICKSTART = "scenarios/examples/quickstart.yaml"
# br07 eq. (2) on the quickstart's optimal one-to-one mapping [1]:P2 [2]:P1 [3]:P3 (README, docs/library.md):
# P1 receives 10 bytes at b = 10 (1 s), computes 20 flop at s = 12 (1.6667 s), sends 10 bytes (1 s): 11/3.
QUICKSTART_PERIOD = 11 / 3


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # the scenarios' paths as the docs write them


@pytest.fixture
def cli():
    """Runs the `pipesim` command line; its JSON output when it prints some."""
    executable = os.environ.get("PIPESIM_EXECUTABLE", os.path.join(ROOT, "build", "apps", "pipesim"))

    def run(*args, check=True):
        done = subprocess.run([executable, *args], cwd=ROOT, capture_output=True, text=True)
        if check:
            assert done.returncode == 0, done.stderr
        return done

    run.json = lambda *args: json.loads(run(*args, "--format", "json").stdout)
    return run


def without_run_specifics(document):
    """A result document without what differs between two runs of the same thing: the command that made it and the
    wall-clock values (`timing`, docs/reports.md "Determinism")."""
    if isinstance(document, dict):
        return {k: without_run_specifics(v) for k, v in document.items() if k not in ("command", "timing")}
    if isinstance(document, list):
        return [without_run_specifics(v) for v in document]
    return document


def children_of(pid):
    """The pids of the processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat[stat.rfind(")") + 2:].split()[1]) == pid:
            found.append(int(entry))
    return found


def descendants_of(pid):
    out, todo = [], [pid]
    while todo:
        kids = children_of(todo.pop())
        out += kids
        todo += kids
    return out


def alive(pid):
    """Whether `pid` is a process that has not ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2] not in "ZX"
