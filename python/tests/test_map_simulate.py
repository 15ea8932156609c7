"""pipesim.map and pipesim.simulate on the shipped examples: values, and the command line's JSON documents."""

import os

import pytest

import pipesim
from conftest import QUICKSTART, QUICKSTART_PERIOD, children_of, without_run_specifics


def test_map_gives_the_quickstart_period():
    r = pipesim.map(QUICKSTART)
    assert r.period == pytest.approx(QUICKSTART_PERIOD, rel=1e-12)
    assert f"{r.period:.9f}" == "3.666666667"
    assert r.event_graph_period == pytest.approx(QUICKSTART_PERIOD, rel=1e-12)
    assert r.status == "optimal" and r.mapper == "br07.one-to-one" and r.rule == "one-to-one"
    assert r.mapping_text == "[1]:P2 [2]:P1 [3]:P3"
    assert r.mapping == [{"stages": [1, 1], "replicas": [["P2"]], "replication": "active"},
                         {"stages": [2, 2], "replicas": [["P1"]], "replication": "active"},
                         {"stages": [3, 3], "replicas": [["P3"]], "replication": "active"}]
    # bbr10 eq. (2): three unreplicated processors of f = 0.1, so F = 1 - 0.9^3
    assert r.failure_probability == pytest.approx(1 - 0.9**3, rel=1e-12)
    # latency: 1 + 10/8 + 1 + 20/12 + 1 + 5/10 + 1 (transfers of 10 bytes at b = 10, three computations)
    assert r.latency == pytest.approx(4 + 10 / 8 + 20 / 12 + 5 / 10, rel=1e-12)


def test_map_is_the_json_of_pipesim_map(cli):
    assert without_run_specifics(pipesim.map(QUICKSTART).to_dict()) == \
        without_run_specifics(cli.json("map", QUICKSTART))
    assert without_run_specifics(pipesim.map(QUICKSTART, mapper="br07.h7b-bsc").to_dict()) == \
        without_run_specifics(cli.json("map", QUICKSTART, "--mapper", "br07.h7b-bsc"))
    assert pipesim.map(QUICKSTART).to_dict()["command"] == \
        "python3: pipesim.map(pipesim.load('scenarios/examples/quickstart.yaml'))"


def test_simulate_gives_the_quickstart_period():
    r = pipesim.simulate(pipesim.load(QUICKSTART))
    assert r.period == pytest.approx(QUICKSTART_PERIOD, rel=1e-9)
    assert f"{r.period:.9f}" == "3.666666667"
    assert r.analytic_period == pytest.approx(QUICKSTART_PERIOD, rel=1e-12)
    assert r.relative_error < 1e-9
    assert r.latency == pytest.approx(r.analytic_latency, rel=1e-9)
    busy = r.usage.set_index("host")
    # P1 computes 20 flop at s = 12 per data set, once per period, over the 200 data sets' makespan
    makespan = r.to_dict()["simulated"]["makespan"]
    assert busy.loc["P1", "compute"] == pytest.approx(200 * 20 / 12 / makespan, rel=1e-9)
    assert list(busy.index) == ["P1", "P2", "P3"]


def test_simulate_is_the_json_of_pipesim_simulate(cli):
    assert without_run_specifics(pipesim.simulate(QUICKSTART, datasets=300, warmup=50).to_dict()) == \
        without_run_specifics(cli.json("simulate", QUICKSTART, "--datasets", "300", "--warmup", "50"))
    failures = "scenarios/examples/failures.yaml"
    assert without_run_specifics(pipesim.simulate(failures, runs=20, seed=3, jobs=2).to_dict()) == \
        without_run_specifics(cli.json("simulate", failures, "--runs", "20", "--seed", "3", "--jobs", "2"))


def test_simulate_50_times_in_one_interpreter():
    sc = pipesim.load(QUICKSTART)
    periods = [pipesim.simulate(sc, datasets=20 + i, warmup=10).period for i in range(50)]
    # one-port, one-to-one, exact network: every data set after the first leaves one period after the previous one
    assert periods == pytest.approx([QUICKSTART_PERIOD] * 50, rel=1e-9)
    assert children_of(os.getpid()) == []


def test_with_values_is_the_cli_override(cli):
    sc = pipesim.load(QUICKSTART).with_values({"simulation.datasets": 400})
    assert without_run_specifics(pipesim.simulate(sc).to_dict()) == \
        without_run_specifics(cli.json("simulate", QUICKSTART, "--datasets", "400"))


def test_a_monte_carlo_series_has_its_survival_rate():
    r = pipesim.simulate("scenarios/examples/failures.yaml", runs=40, jobs=2)
    d = r.to_dict()["simulated"]
    assert d["runs"] == 40 and 0 <= r.survival_rate <= 1
    assert d["survival_ci"][0] <= r.survival_rate <= d["survival_ci"][1]


def test_bad_arguments_are_input_errors_as_on_the_command_line(cli):
    with pytest.raises(pipesim.InputError) as caught:
        pipesim.simulate(QUICKSTART, warmup=500)
    assert str(caught.value) == "--warmup 500: must be below the number of data sets (200)"
    assert cli("simulate", QUICKSTART, "--warmup", "500", check=False).stderr == f"pipesim: error: {caught.value}\n"
    with pytest.raises(pipesim.InputError, match="--runs 5: .* has no failure model"):
        pipesim.simulate(QUICKSTART, runs=5)
    with pytest.raises(pipesim.InputError, match="--jobs 2: .* runs no Monte Carlo series"):
        pipesim.simulate(QUICKSTART, jobs=2)
    with pytest.raises(pipesim.InputError, match="--network fast: expected exact or simgrid"):
        pipesim.simulate(QUICKSTART, network="fast")
    with pytest.raises(pipesim.InputError, match="datasets=0: expected a whole number >= 1"):
        pipesim.simulate(QUICKSTART, datasets=0)
    with pytest.raises(pipesim.InputError, match="--mapper nope: unknown mapper"):
        pipesim.map(QUICKSTART, mapper="nope")
    with pytest.raises(TypeError):
        pipesim.map(42)


def test_simgrid_arguments_pass_through(cli):
    args = ["--cfg=network/model:CM02"]
    assert without_run_specifics(pipesim.simulate(QUICKSTART, simgrid=args).to_dict()) == \
        without_run_specifics(cli.json("simulate", QUICKSTART, *args))


def test_calls_from_several_threads_run_one_at_a_time():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(3) as pool:
        periods = list(pool.map(lambda n: pipesim.simulate(QUICKSTART, datasets=n, warmup=10).period, range(20, 32)))
    assert periods == pytest.approx([QUICKSTART_PERIOD] * 12, rel=1e-9)


RANDOM_TIMES = """name: exponential-line
pipeline:
  w: [1, 1]
  delta: [0, 0, 0]
  variability: {work: exponential, seed: 3}
platform:
  processors:
    - {name: P1, speed: 1}
    - {name: P2, speed: 1}
  bandwidth: 1
mapping: [{stages: [1, 1], replicas: [[P1]]}, {stages: [2, 2], replicas: [[P2]]}]
"""


def test_precision_gives_the_interval_of_random_times_as_the_command_line(cli, tmp_path):
    path = tmp_path / "exponential.yaml"
    path.write_text(RANDOM_TIMES)
    r = pipesim.simulate(str(path), precision=0.05)
    assert without_run_specifics(r.to_dict()) == \
        without_run_specifics(cli.json("simulate", str(path), "--precision", "0.05"))
    lo, hi = r.period_ci
    assert lo <= r.period <= hi and (hi - lo) / 2 <= 0.05 * r.period  # the precision asked for
    assert r.to_dict()["simulated"]["precision"] == 0.05 and r.stochastic["maxplus_period"] is not None
    assert pipesim.simulate(QUICKSTART).period_ci is None and pipesim.simulate(QUICKSTART).stochastic is None
    with pytest.raises(pipesim.InputError, match="precision=2: expected a number in \\(0, 1\\)"):
        pipesim.simulate(str(path), precision=2)
    with pytest.raises(pipesim.InputError, match="--precision 0.05: does not go together with --warmup 10"):
        pipesim.simulate(str(path), precision=0.05, warmup=10)
