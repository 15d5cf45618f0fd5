"""The module's one walk: every subtree's node list and parent map are read off it, and must be
exactly what a walk of that subtree alone gives (the families and the model iterate them)."""

from __future__ import annotations

import ast
from pathlib import Path

from msgraphlint.syntax.project import Project, parent_map, preorder

from .samples_index import ROOT

OPERATORS = (ast.operator, ast.boolop, ast.cmpop, ast.unaryop)

SOURCE = '''
import mindspore as ms
from mindspore import nn, ops


@ms.jit
def step(x: ms.Tensor, n: int = 2) -> ms.Tensor:
    """doc"""
    for i in range(n):
        x = x * 2 if i else -x
    return ops.relu(x)


class Net(nn.Cell):
    @staticmethod
    def helper(a, *rest, **kw):
        return [b for b in rest if b] or {k: v for k, v in kw.items()}

    def construct(self, x):
        with ms.no_grad():
            y = lambda t: t + 1
        return y(x), self.helper(x)
'''


def test_every_subtree_walk_is_the_walk_of_that_subtree_alone(tmp_path: Path):
    path = tmp_path / "walks.py"
    path.write_text(SOURCE, "utf-8")
    module = Project().module(path)
    nodes = module.nodes(module.tree)
    assert nodes == preorder([module.tree]) and len(nodes) > 60
    for node in nodes:
        assert module.nodes(node) == preorder([node])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert module.body_nodes(node) == preorder(node.body)
        # operators (ast.Add) are shared singletons: no one parent, asked of no one
        operators = {id(n) for n in nodes if isinstance(n, OPERATORS)}
        expected = {key: parent for key, parent in parent_map(node).items() if key not in operators}
        found = {key: parent for key, parent in module.parents(node).items() if key not in operators}
        assert found == expected


def test_a_node_built_apart_from_the_tree_is_walked_on_its_own(tmp_path: Path):
    path = tmp_path / "walks.py"
    path.write_text(SOURCE, "utf-8")
    module = Project().module(path)
    apart = ast.parse("f(a, b=1)").body[0]
    assert module.nodes(apart) == preorder([apart])
    assert module.parents(apart) == parent_map(apart)


def test_the_package_sources_walk_alike():
    for path in sorted((ROOT / "msgraphlint" / "values").glob("*.py"))[:4]:
        module = Project().module(path)
        for node in module.nodes(module.tree)[::7]:
            assert module.nodes(node) == preorder([node])
