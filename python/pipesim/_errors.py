"""pipesim.InputError: bad input (a scenario, a campaign, an argument), as the command line reports it (exit 2)."""

import os
import re

# The file part holds no ": ": in "c.yaml: the scenario of run 4 is invalid: c.yaml (run 4: n=5):9: ...", the line
# is the run's scenario's, not the campaign file's.
_LOCATION = re.compile(r"^(?P<file>(?:(?!: ).)+?):(?P<line>\d+)(?::\d+)?: ")
_KEY = re.compile(r"key '(?P<key>[^']*)'")
_INPUT_SUFFIXES = (".yaml", ".yml", ".xml", ".json", ".csv", ".txt")


def location(message):
    """(file, line, key) of an InputError's message, None where it names none.

    The C++ message reads "FILE:LINE: key 'KEY': value 'VALUE': what was expected" (file and line omitted when
    unknown; "FILE:LINE:COLUMN: YAML syntax error: ..." for syntax). This is the one place that reads them out of the
    text: once the C++ InputError carries them as fields, the extension passes them to InputError and this goes.
    """
    file = line = key = None
    match = _LOCATION.match(message)
    if match:
        file, line = match["file"], int(match["line"])
    else:  # "FILE: what" (no line): only when the head is a file name
        head, sep, _ = message.partition(": ")
        if sep and " " not in head and (head.endswith(_INPUT_SUFFIXES) or os.path.isfile(head)):
            file = head
    match = _KEY.search(message)
    if match:
        key = match["key"]
    return file, line, key


class InputError(ValueError):
    """Bad input: str(error) is the command line's message; .file, .line and .key locate it (None if unknown)."""

    def __init__(self, message, file=None, line=None, key=None):
        super().__init__(message)
        self.message = message
        if file is None and line is None and key is None:
            file, line, key = location(message)
        self.file = file
        self.line = line
        self.key = key


InputError.__module__ = "pipesim"  # tracebacks say pipesim.InputError, the name to catch

from . import _pipesim  # noqa: E402 (the extension raises this class from now on)

_pipesim.set_input_error_type(InputError)
