"""Launch sites: `kernel<<<grid, block[, shared[, stream]]>>>(args)`."""

from __future__ import annotations

import re

from translator.frontend import Fragment, ParsedFile
from translator.ir.model import LaunchSite
from translator.ir.nodes import enclosing_function, expr, owned_hits, parent_of, statement_of, text

_LAUNCH = re.compile(rb"<<<")


def find_launches(parsed: ParsedFile, frag: Fragment) -> list[LaunchSite]:
    """The launches the fragment answers for: each `<<<` token confirmed as the start of
    a kernel_call_syntax that is a call expression's, with at least grid and block. The
    kernel's name is split from its template arguments, if any."""
    out = []
    for _, token in owned_hits(parsed, frag, _LAUNCH):
        config = parent_of(frag, token)
        node = parent_of(frag, config) if config is not None and config.type == "kernel_call_syntax" else None
        if node is None or node.type != "call_expression":
            continue
        kernel, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        conf = [c for c in config.named_children if c.type != "comment"]
        if kernel is None or args is None or len(conf) < 2:
            continue
        name_text, targs = text(parsed, frag, kernel), None
        template = kernel
        while template is not None and template.type == "qualified_identifier":
            template = template.child_by_field_name("name")
        if template is not None and template.type == "template_function":
            arguments = template.child_by_field_name("arguments")
            targs = text(parsed, frag, arguments)
            name_text = parsed.data[frag.span(kernel)[0]:frag.span(arguments)[0]].decode("utf-8", "replace")
        statement, index = statement_of(node, frag)
        out.append(LaunchSite(
            kernel=name_text, kernel_expr=expr(parsed, frag, kernel), template_args=targs,
            grid=expr(parsed, frag, conf[0]), block=expr(parsed, frag, conf[1]),
            shared_mem=expr(parsed, frag, conf[2]) if len(conf) > 2 else None,
            stream=expr(parsed, frag, conf[3]) if len(conf) > 3 else None,
            args=tuple(expr(parsed, frag, a) for a in args.named_children if a.type != "comment"),
            span=frag.span(node), config_span=frag.span(config),
            function=enclosing_function(parsed, frag, node),
            statement=frag.span(statement) if statement is not None else None,
            statement_index=index, in_macro=frag.in_macro, clean=frag.clean(node)))
    return out
