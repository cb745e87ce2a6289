#!/usr/bin/env python3
"""Generate docs/rules.md and the README's code list from the rule catalog, and the
README's table of HIPIFY's options from translator/hipify_compat.py.

Usage: python scripts/gen_rules_doc.py [--check]

The README's lists stand between the lines `<!-- rules:start -->` and `<!-- rules:end -->`,
and `<!-- hipify-options:start -->` and `<!-- hipify-options:end -->`.
With --check nothing is written; the exit status is 1 when regenerating would change a
file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))   # this working tree's catalog, not an installed copy

from translator.catalog import catalog  # noqa: E402
from translator import hipify_compat  # noqa: E402
from translator.commands.rules import markdown_page, readme_table  # noqa: E402


def _fill(text: str, name: str, content: str) -> str:
    start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->\n"
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return head + start + content + end + tail


def generated() -> dict[Path, str]:
    """Each generated file and the text it must have."""
    rules = catalog()
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    readme = _fill(_fill(readme, "rules", readme_table(rules)), "hipify-options", hipify_compat.readme_table())
    return {REPO_ROOT / "docs" / "rules.md": markdown_page(rules), REPO_ROOT / "README.md": readme}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file is stale")
    args = parser.parse_args()
    stale = [path for path, text in generated().items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"stale: {path.relative_to(REPO_ROOT)}")
        return 1 if stale else 0
    for path, text in generated().items():
        if path in stale:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
