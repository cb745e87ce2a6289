"""Review output: renderings of translation results for people and tools.

Annotated unified diffs (`diff`), a JSON report (`jsonfmt`), SARIF 2.1.0 for code
scanning (`sarif`) and a pull-request comment (`markdown`). They read results by duck
typing only (FileResult, Fix, Edit, Diagnostic and Rule attributes), so they depend on
nothing else in the package.
"""

from translator.output.diff import annotated_diff
from translator.output.jsonfmt import to_json
from translator.output.markdown import to_markdown
from translator.output.sarif import to_sarif

__all__ = ["annotated_diff", "to_json", "to_markdown", "to_sarif"]
