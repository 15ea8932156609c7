"""Scenarios (docs/scenarios.md) as Python values: load a file, build one from a dict, change keys."""

import os

from . import _pipesim as _core


class Scenario:
    """A scenario: its YAML text, checked as `pipesim map` checks a file.

    `file` is the name its messages and results give (the path given to load(), "<dict>" for from_dict());
    `base_dir` is where its relative paths (an XML platform) resolve. Scenarios are immutable: with_values() returns
    a new one.
    """

    __slots__ = ("_text", "file", "base_dir", "name", "_changes")

    def __init__(self, text, file, base_dir, name, changes=()):
        self._text = text
        self.file = file
        self.base_dir = base_dir
        self.name = name
        self._changes = tuple(changes)

    @classmethod
    def from_dict(cls, document, base_dir=".", file="<dict>"):
        """A scenario from the dict of its YAML document (what to_dict() returns); InputError if it is not valid.

        Its messages give lines of to_yaml(), the dict written as YAML."""
        base_dir = os.fspath(base_dir)
        text = _core.yaml_from_python(dict(document))
        return cls(text, file, base_dir, _core.check(text, file, base_dir))

    @classmethod
    def from_yaml(cls, text, base_dir=".", file="<yaml>"):
        """A scenario from its YAML text (a campaign row's `scenario_yaml`); InputError if it is not valid."""
        base_dir = os.fspath(base_dir)
        return cls(text, file, base_dir, _core.check(text, file, base_dir))

    def to_dict(self):
        """The YAML document as plain Python data (YAML 1.2 core schema: numbers, booleans, None, strings)."""
        return _core.to_dict(self._text, self.file)

    def to_yaml(self):
        """The YAML text (as loaded, or as written back after with_values() or from_dict())."""
        return self._text

    def with_values(self, values):
        """A copy with dotted keys set, as a campaign's sweep sets them: with_values({"simulation.datasets": 400}).

        A value None removes the key. InputError (naming "FILE (with KEY, ...)") when the result is not valid."""
        items = [(str(key), value) for key, value in dict(values).items()]
        text = _core.with_values(self._text, self.file, self.base_dir, items)
        return Scenario(text, self.file, self.base_dir, _core.check(text, self.file, self.base_dir),
                        self._changes + tuple(items))

    def describe(self):
        """How this scenario was made, as Python: pipesim.load('FILE').with_values({...}) (results record it)."""
        if self.file == "<dict>":
            text = "pipesim.Scenario.from_dict(...)"
        else:
            text = f"pipesim.load({self.file!r})"
        if self._changes:
            text += f".with_values({dict(self._changes)!r})"
        return text

    def __repr__(self):
        return f"<pipesim.Scenario {self.name!r}: {self.describe()}>"


def load(path):
    """The scenario file at `path` (docs/scenarios.md); InputError with the file, line and key when it is bad."""
    path = os.fspath(path)
    text, name = _core.load(path)
    return Scenario(text, path, os.path.dirname(path) or ".", name)


def as_scenario(scenario):
    """A Scenario, or the scenario file a path names."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, (str, os.PathLike)):
        return load(scenario)
    raise TypeError(f"expected a pipesim.Scenario or the path of a scenario file, not {type(scenario).__name__}")
