"""User rules: a team's own renames, header maps and call rewrites, in a small language
(grammar: `grammars/cu2hip-rules.lark`), applied by the `user-rules` pass after hipify.

    # a rename of any identifier (function, macro, type, enumerator)
    rename CUDA_CHECK -> HIP_CHECK
    # a header map (the include keeps its <> or "")
    header "mylib_cuda.h" -> "mylib_hip.h"
    # a call rewrite: reorder, drop, repeat parameters, add literal arguments
    call cudaOldCopy(dst, src, n) -> hipNewCopy(src, dst, n, 0)
    # a variadic tail
    call LAUNCH(k, g, b, args...) -> hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, args...)
    # an id and a reason, on any statement
    [U120] rename checkCudaErrors -> HIP_CHECK  because "our error macro"

`load_rules(paths)` reads the files of a run into a `RuleSet` of frozen dataclasses
(`Rename`, `HeaderMap`, `CallRewrite`), each with its id, reason and `Location`; a bad
file raises `RulesError`, whose `str()` is `PATH:LINE:COL: error: MESSAGE`. `declare`
puts them in the rule catalog: a driver calls both before checking `--select` and
before starting workers, so that the catalog knows the user ids; the pass does the same
in each process (each file parsed once per process while its mtime stays the same).
"""

from translator.rules.declare import declare, forget
from translator.rules.load import load_rules, parse_rules, read_rules
from translator.rules.model import (CallRewrite, HeaderMap, Location, Param, Rename, RuleSet, RulesError, Spread,
                                    Text, UserRule)

__all__ = ["CallRewrite", "HeaderMap", "Location", "Param", "Rename", "RuleSet", "RulesError", "Spread", "Text",
           "UserRule", "declare", "forget", "load_rules", "parse_rules", "read_rules"]
