"""Ancestors of tree-sitter nodes at a cost independent of the tree's depth.

py-tree-sitter's `Node.parent` (ts_node_parent) searches down from the root on every
call, and so does `descendant_for_byte_range` from the root: each costs the node's
depth. Walking up d levels one parent at a time costs d * d, so a call inside 20,000
nested blocks took seconds to find its function, and each of 10,000 nested launches
searched from the root.

An `Ancestry` answers the IR's questions about one tree (a node's parent, the function,
block or ERROR above it, the `if` statements around it) in one of two ways:

* shallow (the start): `.parent` walks, as before, which are the cheapest on ordinary
  trees, a few dozen levels deep. Each walk is cut off after LIMIT levels, and every
  SAMPLE-th lookup (a parent, a node search) first measures the depth at its node (a
  cursor going down at most LIMIT levels); a walk cut off, or a depth of LIMIT, makes it
* deep, for good: one TreeCursor kept between queries, with the path from the root to
  the node asked about last. A query moves up the path to the deepest node containing
  the new one and down from there (`goto_parent` is O(1), `goto_first_child_for_byte`
  one C call per level), so queries in document order cost the tree distance between
  them, a walk of the tree at most, whatever their number. Along the path it keeps, per
  level, the nearest function definition, block, ERROR and if_statement at or above it,
  which answer those questions in O(1), and a node search starts at the deepest node
  of the path containing the range, not at the root.

Both ways give the same answers as the `.parent` walks they replace (a node the cursor
cannot reach, such as a zero-width node at a child's edge, is answered by `.parent`
walks). Nothing here recurses on the tree's depth.
"""

from __future__ import annotations

import tree_sitter as ts

_FUNCTION, _BLOCK, _ERROR, _IF = "function_definition", "compound_statement", "ERROR", "if_statement"
_KINDS = frozenset({_FUNCTION, _BLOCK, _ERROR, _IF})
LIMIT = 64          # levels a shallow walk goes up, or a depth probe goes down, before `deep`
SAMPLE = 64         # every SAMPLE-th lookup of a shallow Ancestry probes the depth


class Ancestry:
    """The ancestors of the nodes of one tree; see the module's docstring."""

    def __init__(self, root: ts.Node, deep: bool = False):
        self.root = root
        self.deep = deep        # see the module's docstring
        self.parent_calls = 0   # `.parent` calls made while shallow (for tests of cost)
        self._lookups = 0       # parent lookups and node searches while shallow
        self._cursor: ts.TreeCursor | None = None      # made when first needed
        # The path, one level per node from the root: (node, start byte, end byte, and the
        # index of the nearest function definition, block (compound_statement), ERROR and
        # if_statement at or above it, -1 for none).
        self._levels: list[tuple] = []
        self._positions: dict[ts.Node, dict[ts.Node, int]] = {}
        self.moves = 0          # cursor moves, up and down (for tests of cost)

    # ------------------------------------------------------------------ the path

    def _reset(self) -> None:
        if self._cursor is None:
            self._cursor = self.root.walk()
        self._cursor.reset(self.root)
        self._levels.clear()
        self._push(self.root, self.root.start_byte, self.root.end_byte)

    def _push(self, node: ts.Node, start: int, end: int) -> None:
        levels = self._levels
        kind, i = node.type, len(levels)
        if i:
            _, _, _, function, block, error, if_ = levels[-1]
        else:
            function = block = error = if_ = -1
        if kind in _KINDS:
            if kind == _FUNCTION:
                function = i
            elif kind == _BLOCK:
                block = i
            elif kind == _ERROR:
                error = i
            else:
                if_ = i
        levels.append((node, start, end, function, block, error, if_))

    def _up_to(self, start: int, end: int, strict: bool) -> None:
        """Pop the path up to its deepest node that contains [start, end) (with `strict`,
        one that is larger too); the root always stays."""
        levels = self._levels
        goto_parent = self._cursor.goto_parent
        popped = 0
        while len(levels) > 1:
            top = levels[-1]
            s, e = top[1], top[2]
            if s <= start and end <= e and not (strict and s == start and e == end):
                break
            levels.pop()
            goto_parent()
            popped += 1
        self.moves += popped

    def locate(self, node: ts.Node) -> int | None:
        """Move the path to end at `node`; its index in the path (its depth), or None
        when the cursor cannot reach it (then the path is reset to the root)."""
        levels = self._levels
        if not levels:
            self._reset()
        if levels[-1][0] == node:
            return len(levels) - 1
        if len(levels) > 1 and levels[-2][0] == node:       # the parent of the last: walking up
            levels.pop()
            self._cursor.goto_parent()
            self.moves += 1
            return len(levels) - 1
        start, end = node.start_byte, node.end_byte
        # Up to a strictly larger container: a node whose range equals `node`'s may be
        # its child (type_descriptor > primitive_type), then `node` is on the way down.
        self._up_to(start, end, strict=True)
        if levels[-1][0] == node:
            return len(levels) - 1
        cursor = self._cursor
        while cursor.goto_first_child_for_byte(start) is not None:
            self.moves += 1
            child = cursor.node
            s, e = child.start_byte, child.end_byte
            while s <= start and e < end:
                # Not a container: a later child might be (only past zero-width ones).
                if not cursor.goto_next_sibling():
                    break
                child = cursor.node
                s, e = child.start_byte, child.end_byte
            if s > start or e < end:
                break
            self._push(child, s, e)
            if child == node:
                return len(levels) - 1
        self._reset()
        return None

    # ------------------------------------------------------------------ queries

    def node_at(self, start: int, end: int) -> ts.Node | None:
        """The smallest node spanning exactly [start, end), or None: what
        `root.descendant_for_byte_range` gives, searched from the deepest node of the
        path that contains the range (every node containing a non-empty range lies on
        the root's search path, so the search from any of them ends where the root's
        does)."""
        if not self.deep:
            self._lookups += 1
        if start < end and (self.deep or not self._lookups % SAMPLE and self._deepens(start)):
            if not self._levels:
                self._reset()
            self._up_to(start, end, strict=False)
            node = self._levels[-1][0].descendant_for_byte_range(start, end)
            if node is not None and node.start_byte == start and node.end_byte == end:
                self.locate(node)       # the next search, or a question about it, starts there
                return node
            return None
        node = self.root.descendant_for_byte_range(start, end)
        if node is None or node.start_byte != start or node.end_byte != end:
            return None
        return node

    def _deepens(self, byte: int) -> bool:
        """While shallow, every SAMPLE-th lookup (a parent, a node search: they count
        `_lookups`) first measures the tree's depth at `byte`: True when that made the
        Ancestry deep."""
        if not deep_at(self.root, byte):
            return False
        self.deep = True
        return True

    def parent(self, node: ts.Node) -> ts.Node | None:
        if not self.deep:
            self._lookups += 1
            if self._lookups % SAMPLE or not self._deepens(node.start_byte):     # (inlined: hot)
                self.parent_calls += 1
                return node.parent
        i = self.locate(node)
        if i is None:
            return node.parent
        return self._levels[i - 1][0] if i > 0 else None

    def ancestors(self, node: ts.Node):
        """The ancestors of `node`, its parent first. Consume it before the next query."""
        steps = 0
        if not self.deep:
            parent = node.parent
            self.parent_calls += 1
            while parent is not None:
                if steps == LIMIT:
                    self.deep = True
                    break
                yield parent
                steps += 1
                parent = parent.parent
                self.parent_calls += 1
            else:
                return
        i = self.locate(node)
        if i is None:
            parent = node.parent
            while parent is not None:
                if steps:
                    steps -= 1
                else:
                    yield parent
                parent = parent.parent
            return
        levels = self._levels
        for k in range(i - 1 - steps, -1, -1):
            yield levels[k][0]

    def function_of(self, node: ts.Node) -> ts.Node | None:
        """The nearest function_definition at or above `node`."""
        if not self.deep:
            up, steps = node, 0
            while up is not None and up.type != _FUNCTION:
                if steps == LIMIT:
                    self.deep = True
                    break
                up, steps = up.parent, steps + 1
            else:
                self.parent_calls += steps
                return up
            self.parent_calls += steps
        i = self.locate(node)
        if i is None:
            while node is not None and node.type != _FUNCTION:
                node = node.parent
            return node
        j = self._levels[i][3]
        return self._levels[j][0] if j >= 0 else None

    def block_of(self, node: ts.Node) -> tuple[ts.Node | None, ts.Node | None]:
        """(the nearest compound_statement above `node`, its child that holds `node`),
        or (None, None)."""
        if not self.deep:
            child, parent, steps = node, node.parent, 1
            while parent is not None and parent.type != _BLOCK:
                if steps == LIMIT:
                    self.deep = True
                    break
                child, parent, steps = parent, parent.parent, steps + 1
            else:
                self.parent_calls += steps
                return (parent, child) if parent is not None else (None, None)
            self.parent_calls += steps
        i = self.locate(node)
        if i is None:
            child, parent = node, node.parent
            while parent is not None and parent.type != _BLOCK:
                child, parent = parent, parent.parent
            return (parent, child) if parent is not None else (None, None)
        j = self._levels[i - 1][4] if i > 0 else -1
        return (self._levels[j][0], self._levels[j + 1][0]) if j >= 0 else (None, None)

    def error_above(self, node: ts.Node) -> bool:
        """Is there an ERROR node above `node`?"""
        if not self.deep:
            parent, steps = node.parent, 1
            while parent is not None and parent.type != _ERROR:
                if steps == LIMIT:
                    self.deep = True
                    break
                parent, steps = parent.parent, steps + 1
            else:
                self.parent_calls += steps
                return parent is not None
            self.parent_calls += steps
        i = self.locate(node)
        if i is None:
            parent = node.parent
            while parent is not None:
                if parent.type == _ERROR:
                    return True
                parent = parent.parent
            return False
        return i > 0 and self._levels[i - 1][5] >= 0

    def ifs_between(self, node: ts.Node, top: ts.Node) -> list[tuple[ts.Node, ts.Node]]:
        """(if_statement, its child that holds `node`) for each if_statement above `node`
        and below `top`, nearest first; all of them up to the root when `top` is not above
        `node`. When deep, it costs the if statements found and `top`'s depth, not `node`'s."""
        out = []
        if not self.deep:
            child, parent, steps = node, node.parent, 1
            while parent is not None and parent != top:
                if steps == LIMIT:
                    self.deep = True
                    break
                if parent.type == _IF:
                    out.append((parent, child))
                child, parent, steps = parent, parent.parent, steps + 1
            else:
                self.parent_calls += steps
                return out
            self.parent_calls += steps
            out = []
        i = self.locate(node)
        if i is None:
            child, parent = node, node.parent
            while parent is not None and parent != top:
                if parent.type == _IF:
                    out.append((parent, child))
                child, parent = parent, parent.parent
            return out
        levels = self._levels
        stop = next((k for k in range(i) if levels[k][0] == top), -1)
        j = levels[i - 1][6] if i > 0 else -1
        while j > stop:
            out.append((levels[j][0], levels[j + 1][0]))
            j = levels[j - 1][6] if j > 0 else -1
        return out

    def position(self, block: ts.Node, child: ts.Node) -> int | None:
        """The index of `child` among `block`'s named children, comments not counted
        (one pass over each block's children, however many are asked about)."""
        index = self._positions.get(block)
        if index is None:
            index = {}
            for k, c in enumerate(c for c in block.named_children if c.type != "comment"):
                index.setdefault(c, k)
            self._positions[block] = index
        return index.get(child)


def deep_at(root: ts.Node, byte: int) -> bool:
    """Is the tree LIMIT levels deep at `byte`? (A fresh cursor goes down toward it, LIMIT
    levels at most.)"""
    cursor = root.walk()
    for _ in range(LIMIT):
        if cursor.goto_first_child_for_byte(byte) is None:
            return False
    return True


def ancestry(fragment) -> Ancestry:
    """The Ancestry of a Fragment's tree (translator.frontend.Fragment), made on first use
    and kept on the fragment."""
    held = fragment.__dict__.get("_ancestry")
    if held is None or held[0] is not fragment.tree:
        held = (fragment.tree, Ancestry(fragment.tree.root_node))
        fragment.__dict__["_ancestry"] = held
    return held[1]
