"""map and simulate: one scenario, as `pipesim map` and `pipesim simulate` run it; results hold their JSON."""

import copy

from . import _pipesim as _core
from ._errors import InputError
from ._mappers import mapper_name
from ._policies import policy_name
from ._scenario import as_scenario


class MapResult:
    """What `pipesim map --format json` prints, as a dict (to_dict()), with its main values as attributes."""

    __slots__ = ("_doc",)

    def __init__(self, document):
        self._doc = document

    def to_dict(self):
        """The JSON document of `pipesim map` (`pipesim simulate` for a SimulateResult) as Python data; `command` is
        the Python call, and the values under `timing` are wall-clock seconds."""
        return copy.deepcopy(self._doc)

    def _get(self, *keys):
        value = self._doc
        for key in keys:
            if not isinstance(value, dict) or key not in value:
                return None
            value = value[key]
        return value

    @property
    def mapping(self):
        """The mapping: [{"stages": [first, last], "replicas": [[host, ...], ...], "replication": ...}, ...], None
        without one. A mapper written in Python may return it as is."""
        return copy.deepcopy(self._doc.get("mapping"))

    mapping_text = property(lambda self: self._get("mapping_text"), doc="The mapping as `[1-2]:P3 [3]:P1|P4`.")
    status = property(lambda self: self._get("status"), doc="optimal, feasible, infeasible or time limit.")
    mapper = property(lambda self: self._get("mapper"), doc="The mapper's name.")
    objective = property(lambda self: self._get("objective"), doc="What the mapper minimised (period or F).")
    rule = property(lambda self: self._get("rule"), doc="one-to-one, interval or general.")
    latency = property(lambda self: self._get("analytic", "latency"), doc="Analytic latency.")
    failure_probability = property(lambda self: self._get("analytic", "failure_probability"),
                                   doc="Seed 004 eq. (2): F, the probability that the mapping fails.")
    event_graph_period = property(lambda self: self._get("event_graph", "period"),
                                  doc="The exact period of the execution model (None for a deadlock).")

    @property
    def period(self):
        """The analytic period (the formula under `analytic.formula`)."""
        return self._get("analytic", "period")

    analytic_period = period

    def __repr__(self):
        return (f"<pipesim.{type(self).__name__} {self._get('scenario')!r}: {self.mapping_text} "
                f"({self.status}), period {self.period}>")


class SimulateResult(MapResult):
    """What `pipesim simulate --format json` prints: the map result plus the SimGrid runs (`simulated`) and the
    relative errors. `period` and `latency` are the simulated ones here; the analytic ones are `analytic_*`."""

    __slots__ = ()

    analytic_period = property(lambda self: self._get("analytic", "period"), doc="The analytic period.")
    analytic_latency = property(lambda self: self._get("analytic", "latency"), doc="The analytic latency.")
    period = property(lambda self: self._get("simulated", "period"),
                      doc="The simulated period (t_N - t_K) / (N - K); None without a simulation.")
    latency = property(lambda self: self._get("simulated", "latency"),
                       doc="The simulated latency (a separate one-data-set run).")
    relative_error = property(lambda self: self._get("relative_error", "period"),
                              doc="|simulated - analytic| / analytic period.")
    period_ci = property(lambda self: self._get("simulated", "period_ci"),
                         doc="[lo, hi], the period's 95 % interval (batch means after the detected warm-up) when the "
                             "scenario has random operation times; None otherwise (docs/random-times.md).")
    stochastic = property(lambda self: self._get("stochastic"),
                          doc="The random-times analysis (max-plus estimate, exponential period, NBUE bracket) as a "
                              "dict; None when the operation times are deterministic.")
    survival_rate = property(lambda self: self._get("simulated", "survival_rate"),
                             doc="The Monte Carlo survival rate (simulation.runs > 1 with a failure model).")

    @property
    def usage(self):
        """Busy fractions per processor (host, compute, send, receive) as a pandas.DataFrame."""
        import pandas as pd

        return pd.DataFrame(self._get("simulated", "usage") or [], columns=["host", "compute", "send", "receive"])


def _call(function, scenario, **arguments):
    given = ", ".join(f"{k}={v!r}" for k, v in arguments.items() if v is not None and v is not False)
    return f"python3: pipesim.{function}({scenario.describe()}{', ' if given else ''}{given})"


def map(scenario, mapper=None):
    """Maps a scenario as `pipesim map SCENARIO [--mapper M]`: the mapping, its status, the analytic period,
    latency, F and the event-graph period. `scenario` is a Scenario or a file path; `mapper` a registered name or a
    function decorated with @pipesim.mapper (None: the scenario's own). Bad input raises InputError."""
    sc = as_scenario(scenario)
    name = mapper_name(mapper)
    return MapResult(_core.map(sc._text, sc.file, sc.base_dir, name, _call("map", sc, mapper=name or None)))


def _whole(name, value, minimum):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InputError(f"{name}={value!r}: expected a whole number >= {minimum}")
    return value


def _fraction(name, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
        raise InputError(f"{name}={value!r}: expected a number in (0, 1), the relative half-width of the 95 % interval "
                         "of the period (0.01: within +/- 1 %)")
    return float(value)


def simulate(scenario, mapper=None, datasets=None, warmup=None, network=None, seed=None, runs=None, trace=False,
             jobs=None, quiet=None, simgrid=(), precision=None, policy=None):
    """Maps and simulates a scenario as `pipesim simulate` with the same options: every SimGrid run in a child
    process (call it as often as you like), Ctrl-C stops them all (KeyboardInterrupt). `simgrid` takes SimGrid's
    --cfg=... and --log=... arguments; `quiet=None` shows the progress line when stderr is a terminal; `precision`
    is --precision (simulation.precision: simulate until the period's 95 % interval has that relative half-width);
    `policy` sets dynamic.policy (a built-in policy's name, or a name or function registered with @pipesim.policy:
    docs/python.md, "Re-mapping policies"), the scenario's other dynamic keys staying as they are."""
    sc = as_scenario(scenario)
    if policy is not None:
        sc = sc.with_values({"dynamic.policy": policy_name(policy)})
    name = mapper_name(mapper)
    arguments = dict(mapper=name or None, datasets=_whole("datasets", datasets, 1), warmup=_whole("warmup", warmup, 0),
                     network=network, seed=_whole("seed", seed, 0), runs=_whole("runs", runs, 1),
                     trace=bool(trace), jobs=_whole("jobs", jobs, 1), precision=_fraction("precision", precision))
    document = _core.simulate(sc._text, sc.file, sc.base_dir, name, datasets or 0,
                              -1 if warmup is None else warmup, network or "", -1 if seed is None else seed,
                              runs or 0, bool(trace), [str(a) for a in simgrid], jobs or 0, bool(quiet),
                              precision or 0.0, _call("simulate", sc, **arguments))
    return SimulateResult(document)

