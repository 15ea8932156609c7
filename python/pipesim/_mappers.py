"""Mappers: the registry as a DataFrame, and mappers written in Python (@pipesim.mapper)."""

from . import _pipesim as _core
from ._mapping import normalize


class Problem:
    """What a mapper written in Python is given: the pipeline, the platform and the objective, read-only.

    Pipeline: n, w (w_1..w_n), delta (delta_0..delta_n). Platform: p, processors (names), speed, failure_probability,
    nic_in, nic_out (per processor; inf when unbounded), bandwidth and latency (node-by-node matrices: the
    processors, then P_in at index p, then P_out at p + 1), transfer_time(u, v, bytes), in_name, out_name,
    platform_class. Objective: model ("one-port" or "multi-port"), objective ("period" or "failure_probability"),
    period_bound. Mapper options: seed, time_limit. evaluate(mapping) and period(mapping) give a candidate's analytic
    figures as `pipesim map` computes them. Its lists are copies made for this call: changing one changes nothing.
    """

    def __init__(self, core):
        self._core = core

    def __getattr__(self, name):  # read once from the C++ problem (a matrix is built at each read), then kept
        value = getattr(self._core, name)
        if not callable(value):
            self.__dict__[name] = value
        return value

    def evaluate(self, mapping):
        """{"period", "latency", "failure_probability", "formula"} of a mapping (any form a mapper may return)."""
        return self._core.evaluate(normalize(mapping, self.processors))

    def period(self, mapping):
        """The analytic period of a mapping under the problem's model (seed 000 eq. (2), seed 004 Alg. 1, ...)."""
        return self.evaluate(mapping)["period"]

    def __repr__(self):
        return (f"<pipesim.Problem n={self.n} p={self.p} {self.platform_class} {self.model} "
                f"minimize {self.objective}>")


def mapper(name, description=None, models=("one-port", "multi-port"), family="heuristic", objective="period",
           mapping="general"):
    """Registers the decorated function as the mapper `name`, used by map, simulate and campaign like a built-in one.

    The function takes a pipesim.Problem and returns a mapping (see pipesim._mapping.normalize for its forms), or None
    when it finds none (status infeasible). What it declares is the registry's metadata (paper "python"), listed by
    pipesim.mappers() and checked as a built-in mapper's is: `models` are the communication models it accepts (others
    are refused); `family` how it finds its mapping ("heuristic", "random", "best-of", "dynamic-program",
    "integer-program", "period-search", "exhaustive"); `objective` what it minimises, "period" or
    "failure-probability" (a scenario with the other objective is refused); `mapping` the rule every mapping it
    returns obeys ("one-to-one", "interval" or "general"; a mapping beyond it is an InputError). The description
    defaults to the first line of its docstring. Registering a name again replaces the function and its metadata (a
    notebook cell run twice); a built-in mapper's name is refused. In a campaign the function runs in the worker
    processes, forked from this interpreter: it must be registered before pipesim.campaign is called.
    """

    def register(function):
        def adapter(core):
            return normalize(function(Problem(core)), core.processors)

        doc = (function.__doc__ or "").strip()
        text = description or (doc.splitlines()[0].strip() if doc else f"Python function {function.__qualname__}")
        _core.register_mapper(name, adapter, text, list(models), family, objective, mapping)
        function.pipesim_name = name
        return function

    return register


def mapper_name(mapper):
    """A mapper given by name or as a function registered with @pipesim.mapper; "" for None (the scenario's)."""
    if mapper is None:
        return ""
    if isinstance(mapper, str):
        return mapper
    name = getattr(mapper, "pipesim_name", None)
    if name is None:
        raise TypeError(f"{mapper!r} is no registered mapper: decorate it with @pipesim.mapper(NAME)")
    return name


def mappers():
    """The registered mappers as a pandas.DataFrame, one row each in `pipesim mappers`' order (paper, family, rank,
    name): the keys of `pipesim mappers --format json` as columns (name, description, paper, family, objective,
    models, platform_classes, input, mapping, exact, complexity, restriction: "" when the mapper has none), plus
    `python` (True for mappers written in Python, paper "python")."""
    import pandas as pd

    df = pd.DataFrame(_core.mappers())
    df["python"] = df["paper"] == "python"
    return df
