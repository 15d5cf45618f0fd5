"""The syntax walks every model shares visit what Python's own walk visits: only the fields the
grammar says can hold nodes are followed, and none is left out."""

from __future__ import annotations

import ast

from msgraphlint.syntax.project import parent_map, preorder

EVERY_KIND = '''
import a.b as c
from .d import (e, f as g)
global_value: int = 1


@decorator(arg=1)
class Net(Base, metaclass=Meta):
    """doc"""
    attribute = [x * 2 for x in range(3) if x]

    async def run(self, /, a, *args, b=1, **kwargs) -> "Net":
        global global_value
        async with open(a) as (h, i):
            async for item in h:
                yield item
        try:
            await self.call(lambda z=1: z, *args, **kwargs)
        except* ValueError as error:
            raise RuntimeError(f"{error!r:>10} {a.b[1:2, ::3]}") from error
        else:
            pass
        finally:
            del a[0]
        match b:
            case [1, *rest] | {"k": 2, **others}:
                pass
            case Point(x=0, y=y) if y > 0:
                pass
            case None:
                pass
            case str() as name:
                pass
        while (n := b) and not n:
            b += {k: v for k, v in {}.items()}.get(1, ...)
        return {*{1}, 2} if b else (yield from [])
'''


def test_preorder_visits_every_node_python_walks_parents_first():
    tree = ast.parse(EVERY_KIND)
    walked = preorder([tree])
    every = [node for node in ast.walk(tree) if not isinstance(node, ast.expr_context)]
    assert sorted(map(id, walked)) == sorted(map(id, every))
    position = {id(node): index for index, node in enumerate(walked)}
    parents = parent_map(tree)
    assert len(parents) == len(every) - 1  # every node but the module has one
    for node in every:
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, ast.expr_context):
                assert parents[id(child)] is node
                assert position[id(node)] < position[id(child)]


def test_statements_in_are_the_statements_preorder_meets_in_its_order():
    from msgraphlint.syntax.project import statements_in

    tree = ast.parse(EVERY_KIND)
    assert statements_in(tree.body) == [n for n in preorder(tree.body) if isinstance(n, ast.stmt)]
