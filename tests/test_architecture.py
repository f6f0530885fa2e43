"""Imports flow one way (docs/architecture.md): every module under src/ono99 is parsed — not
imported — and each of its imports, relative ones resolved, must go to its own layer or to a
layer it may use. The lowest layers are also held to what they may take from outside the
package: the engine and ``invocation`` the standard library only, ``features`` NumPy too.

A known violation that someone is fixing goes into ``ALLOWED`` with its reason; an entry whose
import is gone fails the test, so the list can only shrink.

Within the flow, no module of ono99 may reach itself through its imports (an import loop, even
one hidden in a function), and none imports another's ``_private`` names.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "ono99"
DOC = ROOT / "docs" / "architecture.md"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}

# The layer of each top-level package or module of ono99. The package itself (``ono99``,
# which re-exports the engine and holds ``__version__``) counts as the engine.
LAYERS = {
    "ono99": "engine",
    "ono99.__main__": "cli",
    "ono99.invocation": "invocation",
    "ono99.engine": "engine",
    "ono99.features": "features",
    "ono99.ratings": "ratings",
    "ono99.fast": "fast",
    "ono99.bots": "bots",
    "ono99.sim": "sim",
    "ono99.session": "session",
    "ono99.env": "env",
    "ono99.openspiel": "env",  # an environment too, outside ono99.env: it needs no Gymnasium
    "ono99.storage": "storage",
    "ono99.i18n": "i18n",
    "ono99.server": "server",
    "ono99.cli": "cli",
}

# What each layer may import besides itself. engine <- features <- bots <- sim <- {session,
# env}; session and storage <- server; i18n uses the engine only and serves every layer that
# words something for people (card names in the RL text render and the analysis report);
# invocation (how ono99 was started: stdlib only) serves everyone above the pure engine; cli
# may import anything, and nothing imports cli or server.
MAY_IMPORT: dict[str, set[str]] = {
    "invocation": set(),
    "engine": set(),
    "features": {"engine"},
    # One rating scale (openskill) for the tournaments' bots and the server's players.
    "ratings": set(),
    # The rules again, for speed: the playout (pure Python, for the expert) and the numba
    # kernels (the batch simulator), declared side by side under one contract.
    "fast": {"engine", "invocation"},
    "i18n": {"engine"},
    "bots": {"engine", "features", "fast", "invocation"},
    "sim": {"engine", "features", "fast", "bots", "invocation", "i18n", "ratings"},
    "session": {"engine", "features", "fast", "bots", "sim", "invocation"},
    # env sits on the bots (its opponents) and the batch simulator (sim.fast).
    "env": {"engine", "features", "fast", "bots", "sim", "invocation", "i18n"},
    "storage": {"engine", "invocation"},
    "server": {"session", "storage", "i18n", "invocation", "ratings"},
    "cli": set(LAYERS.values()) - {"cli"},
}

# What the lowest layers may import from outside ono99 (None: not checked).
OUTSIDE = {
    "engine": set(),
    "invocation": set(),
    "features": {"numpy"},
    "fast": {"numpy", "numba"},  # numba for the kernels only; the playout is pure Python
}

# Known violations, each (importing module, imported module): why it is still here and who is
# removing it. Empty: every import follows the flow.
ALLOWED: dict[tuple[str, str], str] = {}

# Names a package offers from a higher layer, imported on first use (inside a module
# ``__getattr__``), never when the package is imported: not a dependency of the layer, so
# ``import ono99`` still loads the engine alone (checked below by importing it).
LAZY: dict[tuple[str, str], str] = {
    ("ono99", "ono99.sim.evaluate"): "ono99.evaluate: any policy measured against the bots",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    path = SRC.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports(source: str, module: str, is_package: bool) -> list[tuple[str, int]]:
    """Every module ``source`` imports, anywhere in it (functions included), with its line;
    relative imports resolved against ``module``. ``from X import name`` counts as X.name when
    that is a module of ono99, else as X."""
    found = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                if node.level - 1 >= len(base):
                    raise ValueError(f"{module}:{node.lineno}: relative import beyond ono99")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append((sub if is_module(sub) else target, node.lineno))
    return found


def layer_of(module: str) -> str | None:
    """The layer of an ono99 module (None for a module outside ono99)."""
    if module != "ono99" and not module.startswith("ono99."):
        return None
    top = ".".join(module.split(".")[:2])
    if top not in LAYERS:
        raise AssertionError(
            f"{top} has no layer: add it to LAYERS here and to docs/architecture.md"
        )
    return LAYERS[top]


def sources() -> list[tuple[str, Path]]:
    return sorted((module_name(p), p) for p in PACKAGE.rglob("*.py"))


def edges() -> list[tuple[str, str, int]]:
    """(importing module, imported module, line) for every import under src/ono99."""
    out: dict[tuple[str, str, int], None] = {}  # one entry per import, however many names
    for module, path in sources():
        text = path.read_text(encoding="utf-8")
        for target, line in imports(text, module, path.name == "__init__.py"):
            out[module, target, line] = None
    return list(out)


def problem(module: str, target: str) -> str | None:
    """What is wrong with ``module`` importing ``target``, or None."""
    here = layer_of(module)
    assert here is not None
    there = layer_of(target)
    if there is None:
        allowed = OUTSIDE.get(here)
        top = target.split(".")[0]
        if allowed is None or top in STDLIB or top in allowed:
            return None
        return f"the {here} layer may use only {sorted(allowed) or 'the standard library'} outside"
    if there == here or there in MAY_IMPORT[here]:
        return None
    return f"{here} may import {', '.join(sorted(MAY_IMPORT[here])) or 'nothing else'}, not {there}"


def violations() -> list[tuple[str, str, str]]:
    """(importing module, imported module, what is wrong), the allow-list not applied."""
    out = []
    for module, target, line in edges():
        why = problem(module, target)
        if why is not None:
            out.append((module, target, f"{module}:{line} imports {target}: {why}"))
    return out


def test_every_import_follows_the_flow() -> None:
    wrong = [
        why
        for module, target, why in violations()
        if (module, target) not in ALLOWED and (module, target) not in LAZY
    ]
    assert not wrong, "imports against docs/architecture.md:\n" + "\n".join(wrong)


def test_the_allow_list_only_holds_violations_that_still_exist() -> None:
    present = {(module, target) for module, target, _ in violations()}
    stale = [f"{m} -> {t}" for (m, t) in ALLOWED if (m, t) not in present]
    assert not stale, f"fixed, so remove from ALLOWED: {stale}"


def lazy_imports(module: str) -> set[str]:
    """What ``module`` imports inside its module-level ``__getattr__`` and nowhere else."""
    path = SRC.joinpath(*module.split("."))
    package = path.is_dir()
    path = path / "__init__.py" if package else path.with_suffix(".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    getattr_ = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "__getattr__"]
    rest = ast.Module(body=[n for n in tree.body if n not in getattr_], type_ignores=[])
    inside = {t for node in getattr_ for t, _ in imports(ast.unparse(node), module, package)}
    elsewhere = {t for t, _ in imports(ast.unparse(rest), module, package)}
    return inside - elsewhere


def test_lazy_names_are_imported_on_first_use_only() -> None:
    for module, target in LAZY:
        assert target in lazy_imports(module), f"{module} no longer imports {target} lazily"
    code = (
        "import sys, ono99; "
        "print(sorted(m for m in sys.modules if m.startswith('ono99.') "
        "and not m.startswith('ono99.engine') or m == 'numpy'))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "[]", f"import ono99 loaded more than the engine: {loaded}"
    evaluate = subprocess.run(
        [sys.executable, "-c", "import ono99; print(ono99.evaluate.__module__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert evaluate.strip() == "ono99.sim.evaluate"


def runtime_source(source: str) -> str:
    """``source`` without its ``if TYPE_CHECKING:`` blocks: imports for annotations only, which
    never run (every module has ``from __future__ import annotations``)."""
    tree = ast.parse(source)

    class Strip(ast.NodeTransformer):
        def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt] | None:
            test = node.test
            name = test.attr if isinstance(test, ast.Attribute) else getattr(test, "id", None)
            if name == "TYPE_CHECKING":
                return node.orelse or None
            return self.generic_visit(node)

    return ast.unparse(Strip().visit(tree))


def import_graph() -> dict[str, set[str]]:
    """Each ono99 module → the ono99 modules it imports when run, anywhere in it."""
    graph: dict[str, set[str]] = {}
    for module, path in sources():
        text = runtime_source(path.read_text(encoding="utf-8"))
        targets = {t for t, _ in imports(text, module, path.name == "__init__.py")}
        graph[module] = {t for t in targets if layer_of(t) is not None and t != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import loops of ``graph``: its strongly connected parts of two modules or more
    (Tarjan's algorithm, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(sorted(part))
    return sorted(found)


# Known loops, each (its modules, sorted): why it is still here and who is removing it. An entry
# whose loop is gone fails the test, so the list can only shrink.
KNOWN_LOOPS: dict[tuple[str, ...], str] = {}


def test_no_import_loops() -> None:
    loops = [loop for loop in cycles(import_graph()) if tuple(loop) not in KNOWN_LOOPS]
    assert not loops, "modules that import each other (loops):\n" + "\n".join(
        " <-> ".join(loop) for loop in loops
    )


def test_the_known_loops_still_exist() -> None:
    present = {tuple(loop) for loop in cycles(import_graph())}
    stale = [" <-> ".join(loop) for loop in KNOWN_LOOPS if loop not in present]
    assert not stale, f"untangled, so remove from KNOWN_LOOPS: {stale}"


@pytest.mark.parametrize(
    ("graph", "loops"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b", "c"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
    ],
)
def test_loops_are_found(graph: dict[str, set[str]], loops: list[list[str]]) -> None:
    assert cycles(graph) == loops


def test_a_function_local_import_counts_and_an_annotation_only_one_does_not() -> None:
    hidden = "def f():\n    from .ismcts import ismcts\n"
    assert [t for t, _ in imports(runtime_source(hidden), "ono99.bots.expert", False)] == [
        "ono99.bots.ismcts"
    ]
    typing_only = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .view import View\n"
    )
    assert "ono99.engine.view" not in {
        t for t, _ in imports(runtime_source(typing_only), "ono99.engine.game", False)
    }


def private_imports(source: str) -> list[str]:
    """The ``_private`` names ``source`` imports from other modules (dunders are public)."""
    return [
        alias.name
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_no_module_imports_another_s_private_names() -> None:
    wrong = [
        f"{module} imports {name}"
        for module, path in sources()
        for name in private_imports(path.read_text(encoding="utf-8"))
    ]
    assert not wrong, "private names used across modules:\n" + "\n".join(wrong)


def test_private_imports_are_found() -> None:
    source = "def f():\n    from .game import _card_ids, __version__, HAND_SIZE\n"
    assert private_imports(source) == ["_card_ids"]


def test_every_package_has_a_layer_and_the_doc_names_it() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for module, _ in sources():
        layer_of(module)  # raises for a package without a layer
    for layer in MAY_IMPORT:
        assert f"`{layer}`" in doc, f"docs/architecture.md does not describe the {layer} layer"


def test_nothing_imports_cli_or_server() -> None:
    for module, target, line in edges():
        if layer_of(target) in ("cli", "server") and layer_of(module) != layer_of(target):
            assert layer_of(module) == "cli", f"{module}:{line} imports {target}"


@pytest.mark.parametrize(
    ("module", "package", "source", "target"),
    [
        ("ono99.bots.learned", False, "from ..env.encoding import encode", "ono99.env.encoding"),
        ("ono99.bots.learned", False, "from ..features import encode", "ono99.features"),
        ("ono99.env", True, "from . import pettingzoo_env", "ono99.env.pettingzoo_env"),
        ("ono99.sim.fast.batch", False, "from ...engine import Rules", "ono99.engine"),
        ("ono99.sim.report", False, "from .. import __version__", "ono99"),
        ("ono99.cli.serve", False, "def f():\n    from ..server import run", "ono99.server"),
        ("ono99.bots.learned", False, "def f():\n    import numpy as np", "numpy"),
    ],
)
def test_imports_are_resolved(module: str, package: bool, source: str, target: str) -> None:
    """The resolver sees relative imports at any depth, imports inside functions, and a
    submodule named in ``from X import name``."""
    assert [t for t, _ in imports(source, module, package)] == [target]


@pytest.mark.parametrize(
    ("module", "target", "wrong"),
    [
        ("ono99.bots.learned", "ono99.env.encoding", True),  # the knot this test was made for
        ("ono99.server.hub", "ono99.engine", True),
        ("ono99.server.hub", "ono99.session.table", False),
        ("ono99.engine.game", "numpy", True),
        ("ono99.engine.game", "random", False),
        ("ono99.features", "numpy", False),
        ("ono99.features", "gymnasium", True),
        ("ono99.i18n.catalog", "ono99.bots", True),
        ("ono99.sim.tournament", "ono99.cli.main", True),
        ("ono99.env.rewards", "ono99.sim", False),
        ("ono99.cli.play", "ono99.server", False),
    ],
)
def test_the_flow_is_what_the_doc_says(module: str, target: str, wrong: bool) -> None:
    assert (problem(module, target) is not None) == wrong, problem(module, target)


def test_the_batch_simulator_has_one_import_path() -> None:
    """``FastBatch`` and its ``Deal`` are imported from ``ono99.sim.fast`` (docs/fast-simulator.md),
    never from where the code lives, ``ono99.fast.batch``, which only that package re-exports."""
    where = {module for module, _ in sources()} - {"ono99.sim.fast"}
    wrong = [
        f"{module}:{line}"
        for module, target, line in edges()
        if module in where and target == "ono99.fast.batch"
    ]
    others = [ROOT / "tests", ROOT / "benchmarks", ROOT / "examples", ROOT / "docs"]
    for path in [ROOT / "README.md", *(p for d in others for p in d.rglob("*.*"))]:
        if path.suffix not in (".py", ".md") or path == Path(__file__).resolve():
            continue
        if "fast.batch import" in path.read_text("utf-8"):
            wrong.append(str(path.relative_to(ROOT)))
    assert not wrong, "import FastBatch from ono99.sim.fast: " + ", ".join(wrong)
