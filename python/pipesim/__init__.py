"""pipesim from Python (docs/python.md): scenarios, mappers, simulations and campaigns, results as the command
line's JSON documents and campaigns as pandas DataFrames.

    import pipesim
    sc = pipesim.load("scenarios/examples/quickstart.yaml")
    pipesim.map(sc).period                       # 3.666666667 (br07 eq. (2))
    pipesim.simulate(sc, datasets=400).period    # the SimGrid run, in a child process
"""

from ._pipesim import __version__
from ._errors import InputError
from ._scenario import Scenario, load
from ._mappers import Problem, mapper, mappers
from ._policies import PolicyView, Remap, Window, policy
from ._runs import MapResult, SimulateResult, map, simulate
from ._campaign import campaign, read_campaign

__all__ = ["InputError", "MapResult", "PolicyView", "Problem", "Remap", "Scenario", "SimulateResult", "Window",
           "__version__", "campaign", "load", "map", "mapper", "mappers", "policy", "read_campaign", "simulate"]
