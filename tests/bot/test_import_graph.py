"""The first-party import graph (``bot``, ``engine``, ``render``) has no
circle, and the layers point one way: ``engine`` imports neither ``render``
nor ``bot`` nor Discord, ``render`` imports neither ``bot`` nor Discord.

Every import statement counts, wherever it is (a function-level import is a
circle put off until the function runs, and one under ``TYPE_CHECKING`` is a
circle for the reader), except that a package's ``__init__`` importing its
own submodules to re-export them is not a circle with them. A relative
import is resolved against the importing module's package; ``from pkg
import name`` is an edge to ``pkg.name`` when that is a module, else to
``pkg``."""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "engine", "render")


def modules(root: Path) -> dict[str, Path]:
    """Every first-party module's dotted name and file."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The dotted names ``name`` imports (absolute, first- and third-party;
    ``from pkg import name``: ``pkg.name`` if it is one of the ``known``
    modules, else ``pkg``)."""
    package = name if _is_package(path) else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            for alias in node.names:
                sub = f"{module}.{alias.name}"
                found.add(sub if sub in known else module)
    return found


def graph(root: Path) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """First-party edges (re-exports by a package's ``__init__`` left out),
    and every module's imports, third-party included."""
    known = modules(root)
    edges: dict[str, set[str]] = {}
    everything: dict[str, set[str]] = {}
    for name, path in known.items():
        targets = imports(name, path, set(known))
        everything[name] = targets
        edges[name] = {
            target
            for target in targets
            if target in known
            and target != name
            and not (_is_package(path) and target.startswith(name + "."))
        }
    return edges, everything


@functools.cache
def _graph_of_the_project() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    return graph(ROOT)


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected component of more than one module
    (Tarjan), each listed from its smallest name."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def _top(names: set[str]) -> set[str]:
    return {n.split(".")[0] for n in names}


def test_no_import_circle() -> None:
    edges, _ = _graph_of_the_project()
    assert len(edges) > 40  # the walk found the packages
    assert cycles(edges) == []


def test_the_layers_point_one_way() -> None:
    _, everything = _graph_of_the_project()
    for name, targets in everything.items():
        top = _top(targets)
        if name.startswith("engine"):
            assert not top & {"render", "bot", "discord"}, (name, top)
        elif name.startswith("render"):
            assert not top & {"bot", "discord"}, (name, top)


def test_the_graph_sees_circles(tmp_path: Path) -> None:
    """The checks themselves: a function-level circle, a relative one, and
    a package's re-export (which is none)."""
    files = {
        "bot/__init__.py": "from .adapter import run\n",
        "bot/adapter.py": "def run():\n    from .records import cog\n",
        "bot/records.py": "from bot.adapter import run\ncog = run\n",
        "bot/pkg/__init__.py": "from .part import x\n",
        "bot/pkg/part.py": "from bot.pkg import other\nx = 1\n",
        "bot/pkg/other.py": "y = 2\n",
        "engine/__init__.py": "import discord\n",
        "render/__init__.py": "",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    edges, everything = graph(tmp_path)
    assert cycles(edges) == [["bot.adapter", "bot.records"]]
    assert edges["bot.pkg.part"] == {"bot.pkg.other"}
    assert "discord" in _top(everything["engine"])


def test_each_adapter_module_imports_alone() -> None:
    """Imported first (every module of ``bot`` forgotten before each; the
    engine and the renderer, below, stay loaded), each module of the adapter
    loads: an import circle would stop one half-way."""
    adapter = sorted(m for m in modules(ROOT) if m.startswith("bot.discord"))
    assert len(adapter) > 5
    script = (
        "import importlib, sys, traceback\n"
        "failed = []\n"
        f"for name in {adapter!r}:\n"
        "    for loaded in [m for m in sys.modules if m.split('.')[0] == 'bot']:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception:\n"
        "        failed.append(name + ': ' + traceback.format_exc(limit=1))\n"
        "print('\\n'.join(failed))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "", done.stdout
