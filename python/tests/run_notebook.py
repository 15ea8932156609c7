"""Executes a notebook of examples/notebooks/ as ctest does: committed without outputs, run top to bottom in a kernel
of this interpreter (nbclient), and the figure its metadata names (`pipesim.figure`) written.

    python3 python/tests/run_notebook.py NOTEBOOK.ipynb OUT_DIR

The kernel runs in the notebook's folder (as Jupyter runs it); PIPESIM_NOTEBOOK_OUT=OUT_DIR tells the notebook where
to write its figure and outputs. Jupyter's, IPython's and matplotlib's own files go under OUT_DIR, not the home.
"""

import json
import os
import shutil
import sys

import nbclient
import nbformat


def kernel_for_this_interpreter(jupyter_dir):
    """A kernelspec `python3` that starts this interpreter: one earlier on a JUPYTER_PATH than the system's."""
    spec = os.path.join(jupyter_dir, "kernels", "python3")
    os.makedirs(spec, exist_ok=True)
    with open(os.path.join(spec, "kernel.json"), "w") as f:
        json.dump({"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                   "display_name": "Python 3 (pipesim tests)", "language": "python"}, f)


def main():
    notebook, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    nb = nbformat.read(notebook, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and (cell.outputs or cell.execution_count is not None):
            sys.exit(f"{notebook}: cell {i} holds outputs: commit notebooks without them (clear all outputs)")
    figure = nb.metadata.get("pipesim", {}).get("figure")
    if not figure:
        sys.exit(f"{notebook}: no metadata pipesim.figure naming the figure it writes")
    jupyter = os.path.join(out, "jupyter")
    kernel_for_this_interpreter(jupyter)
    os.environ.update(JUPYTER_PATH=jupyter, JUPYTER_RUNTIME_DIR=os.path.join(jupyter, "runtime"),
                      IPYTHONDIR=os.path.join(out, "ipython"), MPLCONFIGDIR=os.path.join(out, "matplotlib"),
                      MPLBACKEND="Agg", PIPESIM_NOTEBOOK_OUT=out)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": os.path.dirname(notebook)}})
    client.execute()
    nbformat.write(nb, os.path.join(out, os.path.basename(notebook)))  # the executed copy, for a look
    path = os.path.join(out, figure)
    with open(path, "rb") as f:
        head = f.read(8)
    if head != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG figure")
    print(f"{notebook}: ran, figure {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
