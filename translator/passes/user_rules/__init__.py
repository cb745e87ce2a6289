"""The user's rules (translator.rules): renames, header maps and call rewrites that a
team writes for its own wrappers, applied after hipify, with the ids the rules give.

What it does:
    Loads the rules files of `Options.rules` (each parsed once per process while its
    mtime stays the same) and declares one catalog rule per user rule (severity note,
    an edit, not safe). `rename a -> b`: every identifier token `a` in code, `#if`
    branches and `#define` bodies, member names included (not strings, comments or
    `#include` paths). `header "x.h" -> "y.h"`: every `#include` of `x.h`, its `<>` or
    `""` kept. `call f(p, q) -> g(q, p, 0)`: every call `f(...)` with as many arguments
    as the rule takes (or at least the fixed ones, with a variadic tail), rebuilt from
    its arguments' own bytes (translator.passes.user_rules.calls). Each edit's reason
    names the rules file and line.
Legal when:
    Renames and header maps: always (token swaps). Call rewrites: the call parses
    cleanly (Fragment.clean) and its argument count matches; otherwise the call is
    left with a warning under the rule's id.
Precedence:
    User rules override built-in ones: where a user rename or header map edits a token
    that hipify also renames or maps, hipify's fix is dropped (and so are its
    diagnostics about that token: H010 `no HIP equivalent` no longer holds). A call
    rewrite overrides the fixes of its function name; fixes on arguments that stay in
    place stay, those on arguments that move are folded into its edit. A call rewrite
    wins over a user rename of the same name for the calls it matches. (--ignore or a
    suppression comment that turns the user rule off brings the built-in fix back.)
Not handled:
    Qualified or template calls (`ns::f(...)`, `f<T>(...)`), uses of `f` that are not
    calls (`&f`), uses of a macro the front end blanks as a qualifier macro. A rule
    whose result another rule or hipify rewrites again (`rename x -> cudaMalloc`): the
    rules loader refuses chains between user rules, not into hipify's names. A
    template whose literal text is not C++ makes output that does not parse (P003).
Example:
    rename CUDA_CHECK -> HIP_CHECK
    CUDA_CHECK(cudaMalloc(&p, n));  ->  HIP_CHECK(hipMalloc(&p, n));
Safety:
    semantic: the user vouches for the rule's meaning.
"""

from __future__ import annotations

from translator.passes import Context, register_pass
from translator.passes.user_rules import calls, names
from translator.passes.user_rules.sites import fragments
from translator.rules import declare, load_rules


# Its rules are the user's: declared when it loads the rules files, not at import.
# A user's rule says what a name becomes: its fix wins over a built-in pass's at the same place.
@register_pass("user-rules", rules=(), requires=("tree",), after=("hipify",), targets=("hip", "cuda"), precedence=10)
def run(ctx: Context) -> None:
    if not ctx.options.rules:
        return
    rules = load_rules(ctx.options.rules)
    declared = declare(rules)
    frags = fragments(ctx.parsed, rules.words) if rules.words else []
    names.rename(ctx, rules, declared, frags)
    names.map_headers(ctx, rules, declared)
    calls.rewrite_calls(ctx, rules, declared, frags)
