"""Review output: renderings of translation results for people and tools.

Annotated unified diffs (`diff`), a JSON report (`jsonfmt`), SARIF 2.1.0 for code
scanning (`sarif`) and a pull-request comment (`markdown`). They read results by duck
typing only (FileResult, Fix, Edit, Diagnostic and Rule attributes), so they depend on
nothing else in the package.
"""

import importlib

__all__ = ["annotated_diff", "to_json", "to_markdown", "to_sarif"]
_HOME = {"annotated_diff": "diff", "to_json": "jsonfmt", "to_markdown": "markdown", "to_sarif": "sarif"}


def __getattr__(name: str):
    # Each rendering is imported where it is first used: every command imports
    # translator.output.positions, and a cached run renders nothing (13 ms).
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
