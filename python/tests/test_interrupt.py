"""Ctrl-C (SIGINT) while pipesim waits for its child processes: KeyboardInterrupt, and no process left behind."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

from conftest import ROOT, alive, descendants_of

# A script that starts a long call, says when its children run, and on KeyboardInterrupt prints its descendants
# still alive (none expected: the pool has killed and reaped them before the exception reached Python).
SCRIPT = textwrap.dedent("""
    import json, os, signal, sys
    sys.path.insert(0, {tests!r})
    from conftest import alive, descendants_of
    import pipesim
    signal.signal(signal.SIGINT, signal.default_int_handler)  # a background job may start with SIGINT ignored
    print("ready", flush=True)
    try:
        {call}
        print(json.dumps({{"finished": True}}), flush=True)
    except KeyboardInterrupt:
        left = [p for p in descendants_of(os.getpid()) if alive(p)]
        print(json.dumps({{"interrupted": True, "left": left}}), flush=True)
""")


def interrupt(call, tmp_path, processes=1):
    """Runs `call` in a fresh interpreter, sends SIGINT once it has `processes` descendants, and returns what the
    script printed and the processes it had started (all of its descendants seen before the signal)."""
    script = tmp_path / "script.py"
    script.write_text(SCRIPT.format(tests=os.path.dirname(os.path.abspath(__file__)), call=call))
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            start_new_session=True)
    assert proc.stdout.readline().strip() == "ready"
    started = []
    while len(started) < processes and proc.poll() is None:  # until the simulations (or the campaign's workers) run
        time.sleep(0.05)
        started = descendants_of(proc.pid)
    time.sleep(0.2)
    started = sorted(set(started + descendants_of(proc.pid)))
    os.kill(proc.pid, signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    return json.loads(out.strip().splitlines()[-1]), started


def test_ctrl_c_during_simulate_stops_its_children(tmp_path):
    # 5 million data sets: minutes of simulation, far more than the test waits
    result, started = interrupt("pipesim.simulate('scenarios/examples/quickstart.yaml', datasets=5_000_000, "
                                "warmup=10)", tmp_path)
    assert result == {"interrupted": True, "left": []}
    assert started  # there was a simulation process to stop
    assert not any(alive(p) for p in started)


def test_ctrl_c_during_a_campaign_stops_its_runner_and_workers(tmp_path):
    campaign = tmp_path / "long.yaml"
    campaign.write_text(textwrap.dedent("""\
        name: long
        mode: simulate
        base: {scenario}
        sweep:
          simulation.datasets: [4000000, 4000001, 4000002, 4000003]
        """).format(scenario=os.path.join(ROOT, "scenarios/examples/quickstart.yaml")))
    # the runner, its two workers and their simulations
    result, started = interrupt(f"pipesim.campaign({str(campaign)!r}, {str(tmp_path / 'out')!r}, jobs=2)", tmp_path,
                                processes=5)
    assert result == {"interrupted": True, "left": []}
    assert len(started) >= 5
    deadline = time.time() + 10  # the workers end by their parent-death signal once the runner is killed
    while any(alive(p) for p in started) and time.time() < deadline:
        time.sleep(0.05)
    assert [p for p in started if alive(p)] == []


def test_ctrl_c_while_a_python_policy_runs_stops_the_simulation(tmp_path):
    # the policy sleeps for an hour at its first decision, in the simulation's child process
    result, started = interrupt("pipesim.policy('test.sleepy')(lambda view: __import__('time').sleep(3600)); "
                                "pipesim.simulate('scenarios/examples/quickstart.yaml', policy='test.sleepy')",
                                tmp_path)
    assert result == {"interrupted": True, "left": []}
    assert started
    assert not any(alive(p) for p in started)
