"""Re-mapping policies written in Python (@pipesim.policy): what they see (PolicyView) and what they answer (Remap)."""

from . import _pipesim as _core
from ._mapping import normalize
from ._mappers import Problem

_BUILT_IN = ("static", "periodic", "threshold", "clairvoyant", "registered")


class Remap:
    """A policy's decision: run `mapping` from the next data set on (k*). `reason` is recorded in dynamic.remaps
    (default "policy NAME"); `free=True` re-maps at no cost (no state moved, no restart: a clairvoyant reference; under
    dynamic.cost drain the data sets in flight still drain). A policy may also return the mapping alone."""

    __slots__ = ("mapping", "reason", "free")

    def __init__(self, mapping, reason=None, free=False):
        self.mapping = mapping
        self.reason = reason
        self.free = bool(free)

    def __repr__(self):
        return f"pipesim.Remap({self.mapping!r}, reason={self.reason!r}, free={self.free})"


class Window:
    """One closed measurement window of W data sets (dynamic.window): data sets [first, first + W) counted over the
    whole run, from `start` to `end` (s), `period` = (t_out(first + W) - t_out(first)) / W, `disturbed` when a re-map
    happened inside it. `intervals`: per interval of the mapping that ran it, {interval (0-based), node, host (None
    under active replication), work (flop), time (s computing), count (data sets)}; `links`: per pair of nodes,
    {from, to, bytes, time (s from each transfer's start to its end), count}."""

    __slots__ = ("index", "first", "start", "end", "period", "disturbed", "_core", "_i", "_intervals", "_links")

    def __init__(self, core, i):
        self.index, self.first, self.start, self.end, self.period, self.disturbed = core.window(i)
        self._core, self._i, self._intervals, self._links = core, i, None, None

    @property
    def intervals(self):
        if self._intervals is None:
            self._intervals = self._core.window_intervals(self._i)
        return self._intervals

    @property
    def links(self):
        if self._links is None:
            self._links = self._core.window_links(self._i)
        return self._links

    @property
    def compute_times(self):
        """{interval j: seconds per data set computing} over the window (time / count of each measured interval)."""
        return {m["interval"]: m["time"] / m["count"] for m in self.intervals if m["count"] > 0}

    @property
    def transfer_times(self):
        """{(from, to): seconds per transfer} over the window, per pair of nodes."""
        return {(l["from"], l["to"]): l["time"] / l["count"] for l in self.links if l["count"] > 0}

    def __repr__(self):
        flag = " disturbed" if self.disturbed else ""
        return f"<pipesim.Window {self.index}: data sets {self.first}.. period {self.period:.6g} s{flag}>"


class _Windows:
    """The windows closed so far, in order: a read-only sequence (len, [i], [-1], slices) made on access."""

    __slots__ = ("_core", "_n")

    def __init__(self, core, n):
        self._core, self._n = core, n

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [Window(self._core, j) for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("window index out of range")
        return Window(self._core, i)

    def __iter__(self):
        return (Window(self._core, j) for j in range(self._n))


class PolicyView:
    """What a policy is given at each decision, between two engine steps (every actor paused).

    now (s); mapping (the running one, in the form of MapResult.mapping) and mapping_text; windows (every window
    closed so far, pipesim.Window) and new_windows (how many of them closed since the previous call; `new` is that
    list); next_dataset (k*: where a re-map decided now would start); datasets (N); problem (the nominal
    pipesim.Problem: pipeline, platform with its nominal speeds) and measured (the same with each processor's speed
    and, one-port, each measured pair's bandwidth as the latest windows measured them: docs/dynamic.md "The measured
    model"); map() runs a mapper on either platform, period() predicts a mapping's steady period there."""

    __slots__ = ("_core", "_windows")

    def __init__(self, core):
        self._core = core
        self._windows = None

    now = property(lambda self: self._core.now, doc="The simulated date of the decision (s).")
    new_windows = property(lambda self: self._core.new_windows, doc="Windows closed since the previous call.")
    next_dataset = property(lambda self: self._core.next_dataset, doc="k*: the first data set a re-map would move.")
    datasets = property(lambda self: self._core.datasets, doc="N: the data sets of the run.")
    mapping = property(lambda self: self._core.mapping, doc="The running mapping ([{stages, replicas, ...}, ...]).")
    mapping_text = property(lambda self: self._core.mapping_text, doc="The running mapping as `[1]:P2 [2]:P1`.")
    name = property(lambda self: self._core.name, doc="The policy's registered name.")

    @property
    def windows(self):
        if self._windows is None:
            self._windows = _Windows(self._core, self._core.window_count)
        return self._windows

    @property
    def new(self):
        """The windows closed since the previous call, in order."""
        core = self._core
        new = core.new_windows
        if not new:
            return []
        n = core.window_count
        return [Window(core, j) for j in range(n - new, n)]

    @property
    def problem(self):
        """The nominal problem (pipesim.Problem): pipeline, platform, model, objective."""
        return Problem(self._core.nominal())

    @property
    def measured(self):
        """The problem on the measured platform (pipesim.Problem; a copy made at each access)."""
        return Problem(self._core.measured())

    def map(self, platform="measured", mapper=None):
        """The mapping the mapper (dynamic.mapper, or the scenario's; or `mapper`) finds on the "measured" or the
        "nominal" platform, in the form of `mapping` (so `view.map() == view.mapping` says nothing would change), or
        None when it finds none."""
        from ._mappers import mapper_name

        return self._core.map(platform, mapper_name(mapper))

    def period(self, mapping=None, platform="measured"):
        """The steady period of `mapping` (None: the running one) on the "measured" or "nominal" platform, as the
        built-in policies predict it (one-port: the event graph; multi-port: bbr10's Algorithm 1)."""
        intervals = None if mapping is None else normalize(mapping, self._core.processors)
        return self._core.period(intervals, platform)

    def __repr__(self):
        return (f"<pipesim.PolicyView t={self.now:.6g} {self.mapping_text}, {len(self.windows)} windows "
                f"({self.new_windows} new), k*={self.next_dataset}>")


def _decider(name, decide):
    """decide(core) for the C++ side: None, or (intervals, reason, free)."""
    processors = []

    def call(core):
        answer = decide(PolicyView(core))
        if answer is None:
            return None
        mapping, reason, free = (answer.mapping, answer.reason, answer.free) if isinstance(answer, Remap) \
            else (answer, None, False)
        if not processors:
            processors.extend(core.processors)
        intervals = normalize(mapping, processors)
        if intervals is None:
            return None
        return (intervals, f"policy {name}" if reason is None else str(reason), bool(free))

    return call


def policy(name):
    """Registers the decorated function or class as the re-mapping policy `name`, which a scenario's
    `dynamic.policy: NAME` (or pipesim.simulate(..., policy=NAME or the function)) uses like a built-in one.

    A function is called with a pipesim.PolicyView at each decision and returns None (no change), a mapping (any form
    a mapper may return) or a pipesim.Remap(mapping, reason, free). A class is instantiated (without arguments) at the
    start of each run, its `decide(view)` answers as the function does, and its optional `next_date(now)` returns the
    next date (s) at which it wants to decide besides the regular checks (dynamic.check), or None. The policy runs in
    the simulation's child process: what it changes there (its attributes, globals) does not come back, and what it
    raises comes back as pipesim.InputError naming the policy. Registering a name again replaces it; the built-in
    policies' names are refused."""
    if not isinstance(name, str) or not name or name in _BUILT_IN:
        raise ValueError(f"policy name {name!r}: expected a name other than {', '.join(_BUILT_IN)}")

    def register(target):
        if isinstance(target, type):
            def factory():
                instance = target()
                next_date = getattr(instance, "next_date", None)
                return (_decider(name, instance.decide), next_date)
        else:
            def factory():
                return (_decider(name, target), None)

        _core.register_policy(name, factory)
        target.pipesim_policy = name
        return target

    return register


def policy_name(policy):
    """A policy given by name or as a function or class registered with @pipesim.policy."""
    if isinstance(policy, str):
        return policy
    name = getattr(policy, "pipesim_policy", None)
    if name is None:
        raise TypeError(f"{policy!r} is no registered policy: decorate it with @pipesim.policy(NAME)")
    return name
