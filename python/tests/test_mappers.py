"""pipesim.mappers() and mappers written in Python (@pipesim.mapper), used by map and simulate like built-in ones."""

import math

import pytest

import pipesim
from conftest import QUICKSTART


def test_mappers_lists_the_registry(cli):
    df = pipesim.mappers()
    listed = cli.json("mappers")
    # every key of the JSON is a column (restriction "" where the JSON has none), plus `python`; same rows, same order
    assert set().union(*(row.keys() for row in listed)) | {"python"} == set(df.columns)
    builtin = df[~df.python]
    assert [{k: r[k] for k in row} for row, r in zip(listed, builtin.to_dict("records"))] == listed
    assert len(builtin) == len(listed)
    assert set(builtin[builtin.restriction != ""].name) == {r["name"] for r in listed if "restriction" in r}
    row = df.set_index("name").loc["br07.h7b-bsc"]
    assert (row.paper, row.family, row.objective, row.exact) == ("br07", "heuristic", "period", False)


@pipesim.mapper("test.fastest-first")
def fastest_first(problem):
    """Stage i on the i-th fastest processor (one-to-one)."""
    order = sorted(range(problem.p), key=lambda u: -problem.speed[u])
    return [(i + 1, i + 1, problem.processors[order[i]]) for i in range(problem.n)]


def test_a_python_mapper_maps_and_simulates():
    r = pipesim.map(QUICKSTART, mapper=fastest_first)
    assert r.mapping_text == "[1]:P1 [2]:P3 [3]:P2" and r.mapper == "test.fastest-first"
    assert r.status == "feasible"
    # br07 eq. (2): each processor receives 10 bytes, computes, sends 10 bytes (b = 10): P1 1 + 10/12 + 1,
    # P3 1 + 20/10 + 1 = 4, P2 1 + 5/8 + 1; the period is the largest, 4
    assert r.period == pytest.approx(4.0, rel=1e-12) and r.objective == pytest.approx(4.0, rel=1e-12)
    s = pipesim.simulate(QUICKSTART, mapper="test.fastest-first", datasets=50, warmup=10)
    assert s.period == pytest.approx(4.0, rel=1e-9)
    row = pipesim.mappers().set_index("name").loc["test.fastest-first"]
    assert row.python and row.description == "Stage i on the i-th fastest processor (one-to-one)."
    assert (row.paper, row.family, row.objective, row.mapping, row.input, row.exact) == \
        ("python", "heuristic", "period", "general", "pipeline", False)
    assert row.models == ["one-port", "multi-port"] and len(row.platform_classes) == 3


def test_the_problem_a_python_mapper_sees():
    seen = {}

    @pipesim.mapper("test.look")
    def look(problem):
        seen["problem"] = problem
        seen["values"] = dict(n=problem.n, w=problem.w, delta=problem.delta, p=problem.p,
                              processors=problem.processors, speed=problem.speed,
                              failure_probability=problem.failure_probability, nic_in=problem.nic_in,
                              bandwidth=problem.bandwidth, latency=problem.latency, model=problem.model,
                              objective=problem.objective, seed=problem.seed, time_limit=problem.time_limit,
                              platform_class=problem.platform_class, io=(problem.in_name, problem.out_name))
        seen["eval"] = problem.evaluate([(1, 1, "P2"), (2, 2, "P1"), (3, 3, "P3")])
        seen["transfer"] = problem.transfer_time(0, 1, 10)
        return [{"stages": [1, 3], "replicas": ["P1"]}]

    r = pipesim.map(QUICKSTART, mapper=look)
    v = seen["values"]
    assert (v["n"], v["w"], v["delta"], v["p"]) == (3, [10, 20, 5], [10, 10, 10, 10], 4)
    assert v["processors"] == ["P1", "P2", "P3", "P4"] and v["speed"] == [12, 8, 10, 6]
    assert v["failure_probability"] == [0.1] * 4 and v["nic_in"] == [20] * 4
    assert len(v["bandwidth"]) == 6 and v["bandwidth"][0][1] == 10 and math.isinf(v["bandwidth"][0][0])
    assert v["latency"][4][0] == 0  # P_in (index p) to P1
    assert (v["model"], v["objective"], v["seed"], v["time_limit"]) == ("one-port", "period", 7, 60)
    assert v["platform_class"] == "communication-homogeneous" and v["io"] == ("in", "out")
    assert seen["eval"]["period"] == pytest.approx(11 / 3, rel=1e-12)  # the quickstart's optimal mapping
    assert seen["transfer"] == pytest.approx(1.0)
    # the whole pipeline on P1: receive 10 bytes, 35 flop at s = 12, send 10 bytes
    assert r.mapping_text == "[1-3]:P1" and r.period == pytest.approx(2 + 35 / 12, rel=1e-12)
    assert "n=3 p=4" in repr(seen["problem"])


def test_mapping_forms():
    forms = {
        "tuples with names": [(1, 2, "P1"), (3, 3, "P3")],
        "tuples with indices": [(1, 2, 0), (3, 3, 2)],
        "dicts": [{"stages": [1, 2], "replicas": [["P1"]], "replication": "active"}, {"stages": 3, "replicas": "P3"}],
    }
    for label, mapping in forms.items():
        @pipesim.mapper("test.form")
        def form(problem, mapping=mapping):
            return mapping

        assert pipesim.map(QUICKSTART, mapper="test.form").mapping_text == "[1-2]:P1 [3]:P3", label

    @pipesim.mapper("test.replicas")
    def replicas(problem):
        return [(1, 3, ["P1", "P2"], "deal")]

    r = pipesim.map(QUICKSTART, mapper="test.replicas")
    assert r.mapping == [{"stages": [1, 3], "replicas": [["P1"], ["P2"]], "replication": "deal"}]

    @pipesim.mapper("test.result")
    def result(problem):  # a map result's mapping (or its to_dict()) is a mapping too
        return pipesim.map(QUICKSTART).to_dict()

    assert pipesim.map(QUICKSTART, mapper="test.result").mapping_text == "[1]:P2 [2]:P1 [3]:P3"


def test_none_is_infeasible():
    @pipesim.mapper("test.none")
    def none(problem):
        return None

    r = pipesim.map(QUICKSTART, mapper="test.none")
    assert r.status == "infeasible" and r.mapping is None and r.period is None


def test_a_bad_mapping_is_an_input_error_naming_the_mapper():
    @pipesim.mapper("test.bad")
    def bad(problem):
        return [(1, 2, "P9")]

    with pytest.raises(pipesim.InputError) as caught:
        pipesim.map(QUICKSTART, mapper="test.bad")
    assert str(caught.value).startswith("mapper 'test.bad': ")
    assert caught.value.key == "mapping[0].stages"


def test_the_python_exception_reaches_the_caller():
    @pipesim.mapper("test.raises")
    def raises(problem):
        raise ZeroDivisionError("nothing to divide")

    with pytest.raises(ZeroDivisionError, match="nothing to divide"):
        pipesim.map(QUICKSTART, mapper="test.raises")
    with pytest.raises(TypeError, match="a mapping is a list of intervals"):
        pipesim.mapper("test.number")(lambda problem: 3)
        pipesim.map(QUICKSTART, mapper="test.number")


def test_registration_rules():
    @pipesim.mapper("test.again")
    def first(problem):
        return [(1, 3, "P1")]

    @pipesim.mapper("test.again", description="the second one")
    def second(problem):
        return [(1, 3, "P2")]

    assert pipesim.map(QUICKSTART, mapper="test.again").mapping_text == "[1-3]:P2"  # a cell run again replaces it
    assert pipesim.mappers().set_index("name").loc["test.again"].description == "the second one"
    with pytest.raises(pipesim.InputError, match="'br07.h7b-bsc' is a built-in mapper"):
        pipesim.mapper("br07.h7b-bsc")(first)
    with pytest.raises(TypeError, match="decorate it with @pipesim.mapper"):
        pipesim.map(QUICKSTART, mapper=lambda problem: None)


def test_a_mapper_refuses_what_it_was_not_registered_for():
    @pipesim.mapper("test.multiport-only", models=["multi-port"], family="exhaustive", mapping="interval")
    def multiport(problem):
        return [(1, 3, "P1")]

    with pytest.raises(pipesim.InputError, match="mapper 'test.multiport-only' cannot handle this problem: it accepts "
                                                 "the multi-port model, not one-port"):
        pipesim.map(QUICKSTART, mapper="test.multiport-only")
    row = pipesim.mappers().set_index("name").loc["test.multiport-only"]
    assert (row.models, row.family, row.mapping) == (["multi-port"], "exhaustive", "interval")

    @pipesim.mapper("test.for-f", objective="failure-probability")
    def for_f(problem):
        return [(1, 3, "P1")]

    with pytest.raises(pipesim.InputError, match="cannot handle this problem: it minimises the failure probability F "
                                                 "under a period bound"):
        pipesim.map(QUICKSTART, mapper=for_f)
    for keyword, value, expected in (("family", "given", "is the registry's own"),
                                     ("objective", "production-time", "expected 'period' or 'failure-probability'"),
                                     ("mapping", "cyclic", "mapping cyclic"), ("models", ["two-port"], "model")):
        with pytest.raises(pipesim.InputError, match=expected):
            pipesim.mapper("test.bad-keyword", **{keyword: value})(for_f)


def test_a_mapping_beyond_the_declared_rule_is_an_input_error():
    @pipesim.mapper("test.one-to-one", mapping="one-to-one")
    def intervals(problem):
        return [(1, 2, "P1"), (3, 3, "P2")]

    with pytest.raises(pipesim.InputError, match="mapper 'test.one-to-one': it returned a mapping of rule 'interval', "
                                                 "beyond the mapping='one-to-one' it was registered with"):
        pipesim.map(QUICKSTART, mapper=intervals)
