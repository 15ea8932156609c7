"""Re-mapping policies written in Python (@pipesim.policy), called between engine steps in the simulation's child."""

import json

import pytest

import pipesim

# The step scenario of validation/evaluation/remap_test.cpp: two stages of 10 flop, messages of 1 byte, b = 10 bytes/s
# (0.1 s a
# transfer); P1 and P2 at 10 flop/s, P3 at 4. One-port cycle-times (br07 eq. (2), receive + compute + send):
# [1]:P2 [2]:P1 (exact.interval's mapping at the nominal speeds) 0.1 + 1 + 0.1 = 1.2 on each processor. From t = 100
# P2 runs at 2.5 flop/s: [1]:P2 [2]:P1 takes 0.1 + 4 + 0.1 = 4.2, and the best interval mapping is [1-2]:P1 at
# 0.1 + 2 + 0.1 = 2.2.
STEP = """\
pipeline: {{w: [10, 10], delta: [1, 1, 1]}}
platform:
  processors: [{{name: P1, speed: 10}}, {{name: P2, speed: 10}}, {{name: P3, speed: 4}}]
  bandwidth: 10
  io: {{in: io, out: io}}
  profiles:
    hosts:
      - {{host: P2, speed: [[100, 0.25]]}}
mapper: exact.interval
simulation: {{datasets: 200, seed: 1}}
dynamic: {dynamic}
"""
COSTS = "window: 5, state: [5, 7], restart: 0.3"


def step(dynamic):
    return pipesim.Scenario.from_yaml(STEP.format(dynamic="{" + dynamic + "}"), file="step.yaml")


@pipesim.policy("test.threshold")
class PythonThreshold:
    """The built-in `threshold` policy (validation/evaluation/remap_policies.cpp) in Python: when the measured period
    exceeds
    the predicted one by 10 % for 2 windows in a row, map on the measured model; re-map when the mapping differs."""

    def __init__(self, threshold=10, windows=2):
        self.threshold, self.windows = threshold, windows
        self.predicted = None
        self.above = 0
        self.since = 0  # the first data set of the running mapping

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
        measured_at = view.windows[-1].period
        m = view.map()
        if m is None or m == view.mapping:
            self.predicted = view.period()
            return None
        reason = f"python threshold: period {measured_at:.6g} s > {self.predicted:.6g} s predicted + 10 %"
        self.predicted = view.period(m)
        self.since = view.next_dataset
        return pipesim.Remap(m, reason=reason)


def output_times(result):
    """t_out(k) per data set k from the trace: the end of each data set's last operation (its arrival at P_out)."""
    ends = {}
    for e in result.to_dict()["simulated"]["trace"]:
        ends[e["dataset"]] = max(ends.get(e["dataset"], 0.0), e["end"])
    return [ends[k] for k in sorted(ends)]


def test_a_python_threshold_policy_reproduces_the_built_in_one():
    builtin = pipesim.simulate(step(f"policy: threshold, threshold: 10, windows: 2, {COSTS}"), trace=True)
    python = pipesim.simulate(step(f"policy: test.threshold, {COSTS}"), trace=True)
    b, p = builtin.to_dict()["dynamic"], python.to_dict()["dynamic"]
    assert (b["policy"], p["policy"]) == ("threshold", "test.threshold")
    assert len(b["remaps"]) == 1 and len(p["remaps"]) == 1
    rb, rp = b["remaps"][0], p["remaps"][0]
    assert (rp["from"], rp["to"]) == ("[1]:P2 [2]:P1", "[1-2]:P1")
    assert rp["time"] == pytest.approx(rb["time"], abs=1e-9) and rp["time"] > 100
    assert rp["dataset"] == rb["dataset"]
    assert rp["reason"].startswith("python threshold: period ")
    # the costs by hand (validation/evaluation/remap_test.cpp): S_1 = 5 bytes over P2 -> P1 at 10 bytes/s, r = 0.3 s,
    # and k* through the empty [1-2]:P1 in 0.1 + 20 / 10 + 0.1 = 2.2 s
    assert (rp["transfer"], rp["restart"], rp["fill"], rp["bytes_moved"]) == pytest.approx((0.5, 0.3, 2.2, 5), abs=1e-9)
    for key in ("drain", "downtime"):
        assert rp[key] == pytest.approx(rb[key], abs=1e-9)
    assert p["windows"] == b["windows"]
    tb, tp = output_times(builtin), output_times(python)
    assert len(tb) == len(tp) == 200
    assert max(abs(x - y) for x, y in zip(tb, tp)) < 1e-9
    # every window of W = 5 data sets: the same period in both runs within 1e-9, and from k* on the new mapping's 2.2
    windows = [((tp[k + 5] - tp[k]) / 5, (tb[k + 5] - tb[k]) / 5) for k in range(0, 195, 5)]
    assert max(abs(x - y) for x, y in windows) < 1e-9
    assert windows[0][0] == pytest.approx(1.2, abs=1e-9)  # before the step: [1]:P2 [2]:P1 at 1.2
    after = [(tp[k + 5] - tp[k]) / 5 for k in range(rp["dataset"], 195, 5)]
    assert len(after) > 10 and max(abs(x - 2.2) for x in after) < 1e-9
    assert python.period == pytest.approx(builtin.period, abs=1e-9)


@pipesim.policy("test.never")
def never(view):
    """Measures and never re-maps."""
    return None


def test_a_policy_that_never_remaps_equals_static():
    static = pipesim.simulate(step("policy: static, window: 5"), trace=True)
    python = pipesim.simulate(step("policy: static, window: 5"), policy=never, trace=True)
    assert python.to_dict()["dynamic"]["policy"] == "test.never"
    assert python.to_dict()["dynamic"]["remaps"] == [] and static.to_dict()["dynamic"]["remaps"] == []
    assert python.to_dict()["dynamic"]["windows"] == static.to_dict()["dynamic"]["windows"] == 39
    assert output_times(python) == output_times(static)
    assert python.period == static.period
    # after the step the static mapping runs at 4.2 (the hand-worked cycle-time above)
    t = output_times(python)
    assert (t[199] - t[189]) / 10 == pytest.approx(4.2, abs=1e-9)


def test_the_view_a_policy_sees():
    # what the policy sees comes back in the re-map's reason (its own state stays in the simulation's process)
    @pipesim.policy("test.look")
    def look(view):
        if view.now < 150:
            return None
        first, last = view.windows[0], view.windows[-1]
        seen = dict(now=view.now, n=len(view.windows), new=view.new_windows, k=view.next_dataset, N=view.datasets,
                    mapping=view.mapping_text, first=[first.first, first.period, first.disturbed],
                    compute=first.compute_times, transfer=sorted(map(list, first.transfer_times.items())),
                    hosts=[m["host"] for m in first.intervals], nominal=view.problem.speed,
                    measured=view.measured.speed, last=last.compute_times, nominal_period=view.period(platform="nominal"),
                    measured_period=view.period(), nominal_map=view.map(platform="nominal") == view.mapping,
                    measured_map=view.map(), slice=[w.index for w in view.windows[1:3]])
        return pipesim.Remap([(1, 2, "P1")], reason=json.dumps(seen))

    r = pipesim.simulate(step("policy: test.look, window: 5, check: 10"))
    remaps = r.to_dict()["dynamic"]["remaps"]
    assert len(remaps) == 1 and remaps[0]["to"] == "[1-2]:P1"
    seen = json.loads(remaps[0]["reason"])
    assert seen["now"] == pytest.approx(150, abs=1e-9)  # the checks every 10 s: 10, 20, ..., 150
    assert seen["mapping"] == "[1]:P2 [2]:P1" and seen["N"] == 200
    assert 0 <= seen["new"] <= 1  # after the step a window of 5 data sets at 4.2 s takes 21 s: checks 10 s apart
    assert seen["first"] == [0, pytest.approx(1.2, abs=1e-9), False]
    # before the step each interval computes 10 flop at 10 flop/s: 1 s a data set; each transfer 1 byte at 10 B/s
    assert seen["compute"] == {"0": pytest.approx(1.0, abs=1e-9), "1": pytest.approx(1.0, abs=1e-9)}
    assert seen["hosts"] == ["P2", "P1"]
    assert [pair for pair, _ in seen["transfer"]] == [["P1", "io"], ["P2", "P1"], ["io", "P2"]]
    assert all(t == pytest.approx(0.1, abs=1e-9) for _, t in seen["transfer"])
    # after the step P2 (interval 0) computes 10 flop at 2.5 flop/s: 4 s, and the measured model says so
    assert seen["last"]["0"] == pytest.approx(4.0, abs=1e-9)
    assert seen["nominal"] == [10, 10, 4] and seen["measured"] == pytest.approx([10, 2.5, 4], abs=1e-9)
    assert seen["nominal_period"] == pytest.approx(1.2, abs=1e-9)
    assert seen["measured_period"] == pytest.approx(4.2, abs=1e-9)
    assert seen["nominal_map"] is True
    assert seen["measured_map"] == [{"stages": [1, 2], "replicas": [["P1"]], "replication": "active"}]
    assert seen["slice"] == [1, 2]
    assert 0 < seen["k"] < 200


def test_a_policy_that_raises_comes_back_as_an_input_error():
    @pipesim.policy("test.raises")
    def raises(view):
        if view.now > 50:
            return 1 / 0
        return None

    with pytest.raises(pipesim.InputError) as e:
        pipesim.simulate(step("policy: test.raises, window: 5"))
    message = str(e.value)
    assert "policy 'test.raises' raised ZeroDivisionError: division by zero" in message
    assert "test_policies.py" in message and "raises" in message
    # the interpreter goes on: the next simulation runs
    assert pipesim.simulate(step("policy: static, window: 5")).period > 0


def test_a_class_policy_with_its_own_dates():
    @pipesim.policy("test.dated")
    class Dated:
        def next_date(self, now):
            return 100.5 if now < 100.5 else None

        def decide(self, view):
            if view.now == 100.5:
                return pipesim.Remap([(1, 2, "P1")], reason="at 100.5", free=True)
            return None

    r = pipesim.simulate(step(f"policy: test.dated, {COSTS}, check: 1000")).to_dict()["dynamic"]["remaps"]
    assert len(r) == 1
    assert r[0]["time"] == 100.5 and r[0]["reason"] == "at 100.5"
    assert (r[0]["transfer"], r[0]["restart"], r[0]["bytes_moved"]) == (0, 0, 0)  # free: no state moved, no restart


@pytest.mark.parametrize("answer, expected", [
    ("[(1, 2, 'P9')]", "the mapping policy 'test.bad' returned: key 'mapping[0].replicas[0]': value 'P9': unknown host"),
    ("[(1, 1, 'P1')]", "the mapping policy 'test.bad' returned: key 'mapping[0].stages': value '[1]': interval ends at "
                       "stage 1 but the pipeline has 2 stages"),
    ("42", "policy 'test.bad' raised TypeError: a mapping is a list of intervals, not int"),
])
def test_a_bad_mapping_names_the_policy(answer, expected):
    @pipesim.policy("test.bad")
    def bad(view):
        return eval(answer) if view.now > 20 else None

    with pytest.raises(pipesim.InputError) as e:
        pipesim.simulate(step("policy: test.bad, window: 5"))
    assert expected in str(e.value)


def test_unknown_and_built_in_names():
    with pytest.raises(pipesim.InputError) as e:
        pipesim.simulate(step("policy: test.nowhere"))
    assert "step.yaml:11" in str(e.value) and "test.nowhere" in str(e.value) and "test.threshold" in str(e.value)
    with pytest.raises(ValueError):
        pipesim.policy("threshold")
    with pytest.raises(TypeError):
        pipesim.simulate(step("policy: static"), policy=len)


def test_a_function_given_as_policy_runs_with_a_scenario_without_dynamic_keys():
    sc = pipesim.Scenario.from_yaml(STEP.format(dynamic="X").replace("dynamic: X\n", ""), file="nodyn.yaml")
    r = pipesim.simulate(sc, policy=PythonThreshold)
    d = r.to_dict()["dynamic"]
    assert d["policy"] == "test.threshold" and len(d["remaps"]) == 1 and d["remaps"][0]["to"] == "[1-2]:P1"


def test_a_python_policy_in_a_two_worker_campaign(tmp_path):
    path = tmp_path / "c.yaml"
    base = STEP.format(dynamic=f"{{policy: test.threshold, {COSTS}}}")
    path.write_text("name: policies\nmode: simulate\nbase:\n" + "".join("  " + line + "\n" for line in base.splitlines())
                    + "sweep:\n  simulation.datasets: [150, 200]\n")
    df = pipesim.campaign(str(path), tmp_path / "out", jobs=2)
    assert (df.status == "ok").all() and len(df) == 2
    # each row's period is the built-in threshold's on the same scenario (the policies decide alike)
    for datasets in (150, 200):
        builtin = pipesim.simulate(step(f"policy: threshold, threshold: 10, windows: 2, {COSTS}"), datasets=datasets)
        row = df[df["param:simulation.datasets"] == datasets].iloc[0]
        assert abs(row.simulated_period - builtin.period) <= 1e-9


def test_a_mapping_alone_is_a_decision_with_the_default_reason():
    @pipesim.policy("test.plain")
    def plain(view):
        return [(1, 2, "P1")] if view.now > 20 else None

    r = pipesim.simulate(step("policy: test.plain, window: 5")).to_dict()["dynamic"]["remaps"]
    # the checks are half a window at the predicted period apart: 5 x 1.2 / 2 = 3 s, so the first after 20 s is 21 s;
    # then the same answer equals the running mapping and is ignored
    assert len(r) == 1
    assert (r[0]["reason"], r[0]["to"]) == ("policy test.plain", "[1-2]:P1")
    assert r[0]["time"] == pytest.approx(21, abs=1e-9)
