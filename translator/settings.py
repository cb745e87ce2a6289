"""The effective settings of a run: flags over the configuration file over the defaults,
and where each of the ones that change the output came from."""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from translator.catalog import check_selectors
from translator.config import Config, ConfigError, config_in, load, load_config
from translator.versions import NEWEST_KNOWN_RELEASE, parse_version, version_at_least, version_str
from translator.options import Options
from translator.compilers import DEFAULT_TIMEOUT, installed_hip_version


class UsageError(Exception):
    pass


@dataclass(frozen=True)
class Settings:
    options: Options
    target_source: str          # where --rocm-version's value came from
    config: Config
    output: Path | None
    output_from_config: bool
    jobs: int
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    strict: bool
    only_translated: bool
    patterns_root: tuple = (None, None)   # the folders include and exclude are relative to
    gitignore: bool = True              # leave out what .gitignore files ignore (--no-ignore: False)
    compile_timeout: float = DEFAULT_TIMEOUT     # cu2hip report: seconds per compile
    # Each file's options from its nearest configuration (None: --config, one for all).
    nearest: Nearest | None = None

    def describe_target(self) -> str:
        if self.options.target == "cuda":
            return "CUDA (--target cuda: optimizing passes only, no renaming)"
        return f"ROCm {version_str(self.options.rocm_version)} ({self.target_source})"


def _flag_or(args, name: str, config_value, default=None):
    value = getattr(args, name, None)
    if value not in (None, [], ()):
        return value
    return config_value if config_value not in (None, ()) else default


def _selectors(raw) -> tuple[str, ...]:
    """`--select H01,P` given once or more: the ids and prefixes, in order."""
    return tuple(part.strip() for item in raw or () for part in item.split(",") if part.strip())


def resolve(args) -> Settings:
    """Settings for parsed command-line `args` (any subcommand that translates)."""
    explicit = Path(args.config) if getattr(args, "config", None) else None
    looked: dict[Path, Path | None] = {}        # each folder's own configuration file, found once
    try:
        config = load([Path(p) for p in args.paths], explicit, looked)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    options, source = _options(args, config)
    jobs = _flag_or(args, "jobs", config.jobs, os.cpu_count() or 1)
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    flag_output = getattr(args, "output", None)
    output = Path(flag_output) if flag_output else config.output
    # Patterns given on the command line are relative to the current folder, those of the
    # configuration to its folder (as Ruff's).
    roots = tuple(Path.cwd() if getattr(args, name, None) or config.root is None else config.root
                  for name in ("include", "exclude"))
    return Settings(options, source, config, output, not flag_output and config.output is not None, jobs,
                    tuple(_flag_or(args, "include", config.include, ())),
                    tuple(_flag_or(args, "exclude", config.exclude, ())),
                    bool(_flag_or(args, "strict", config.strict)),
                    bool(_flag_or(args, "only_translated", config.only_translated)),
                    roots,
                    not getattr(args, "no_ignore", False),
                    _compile_timeout(_flag_or(args, "compile_timeout", config.compile_timeout, DEFAULT_TIMEOUT)),
                    Nearest(args, config, looked) if explicit is None else None)


class Nearest:
    """Each file's translation options from its nearest configuration (as Ruff's): the
    file found walking up from the file's folder, the flags over it. The run's own
    configuration (the first input's) answers for files that find the same file."""

    def __init__(self, args, config: Config, looked: dict[Path, Path | None] | None = None):
        self.args, self.config = args, config
        self.by_folder: dict[Path, Path | None] = {}
        # What config_in said of the folders the run's own configuration was looked for in.
        self.looked = dict(looked or {})
        self.by_file: dict[Path | None, tuple] = {config.path: None}

    def __call__(self, path: Path):
        """The Options for `path`, or None where the run's own apply."""
        found = self._nearest(Path(os.path.abspath(path)).parent)
        if found not in self.by_file:
            try:
                config = load_config(found) if found is not None else Config()
            except ConfigError as exc:
                raise UsageError(str(exc)) from None
            self.by_file[found] = _options(self.args, config)[0]
        return self.by_file[found]

    def _nearest(self, folder: Path) -> Path | None:
        """find_config([folder]), each folder of a run looked at once (a tree's folders
        share their parents)."""
        if folder not in self.by_folder:
            found = self.looked[folder] if folder in self.looked else config_in(folder)
            if found is None and folder.parent != folder:
                found = self._nearest(folder.parent)
            self.by_folder[folder] = found
        return self.by_folder[folder]

    def files(self) -> list[Path]:
        """The configuration files used beyond the run's own."""
        return [p for p in self.by_file if p is not None and p != self.config.path]


def _options(args, config: Config) -> tuple[Options, str]:
    """The translation options for `args` over `config`, and where the target version came from."""
    version, source = _rocm_version(args, config)
    rules = tuple(str(Path(p).absolute()) for p in getattr(args, "rules", None) or ()) or \
        tuple(str(p) for p in config.rules)
    try:
        if not getattr(args, "rules", None):
            config.check_rules_files()
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    _declare_rules(rules)                   # user rule ids join the catalog before selectors are checked
    select = _selectors(getattr(args, "select", None)) or config.select
    ignore = _selectors(getattr(args, "ignore", None)) or config.ignore
    for values, name in ((select, "select"), (ignore, "ignore")):
        try:
            check_selectors(values, f"--{name}")
        except ValueError as exc:
            if _selectors(getattr(args, name, None)):
                raise UsageError(str(exc)) from None
            raise UsageError(str(config.error(name, f"'{name}': " + str(exc).removeprefix(f"--{name}: ")))) \
                from None
    only = getattr(args, "only", None)
    if only is not None and only not in _all_passes():
        raise UsageError(f"--only: no pass {only!r} (passes: {', '.join(sorted(_all_passes()))})")
    options = Options(
        target=_flag_or(args, "target", config.target, "hip"), rocm_version=version,
        roc=bool(_flag_or(args, "roc", config.roc)), miopen=bool(_flag_or(args, "miopen", config.miopen)),
        experimental=bool(_flag_or(args, "experimental", config.experimental)),
        use_hip_data_types=bool(getattr(args, "use_hip_data_types", False)),
        hip_kernel_execution_syntax=bool(_flag_or(args, "hip_kernel_execution_syntax",
                                                  config.hip_kernel_execution_syntax)),
        select=select, ignore=ignore, only=only, rules=rules,
        **_pass_options(args, config),
        offload_arch=_offload_arch(getattr(args, "offload_arch", None)) or config.offload_arch or ("gfx90a",))
    return options, source


def _declare_rules(rules: tuple[str, ...]) -> None:
    """The user rules of `rules` (files) in the catalog, and no others (translator.rules.declare).
    With none, translator.rules is not imported: a process that never imported it has
    declared none, so there is nothing to take back (a run answered from the cache
    imports no rule parser)."""
    if not rules:
        declared = sys.modules.get("translator.rules.declare")
        if declared is not None:
            declared.forget()
        return
    from translator.rules import RulesError, declare, load_rules
    try:
        declare(load_rules(rules))
    except RulesError as exc:
        raise UsageError(str(exc)) from None


def _all_passes() -> dict:
    """Every pass, by id (imported here: only --only needs them)."""
    from translator.passes import all_passes
    return all_passes()


def _offload_arch(raw: str | None) -> tuple[str, ...]:
    """`--offload-arch gfx90a,gfx942`: the AMD targets, each checked."""
    if raw is None:
        return ()
    targets = tuple(t.strip() for t in raw.split(",") if t.strip())
    bad = [t for t in targets if not re.fullmatch(r"gfx[0-9a-f]+(:[a-z0-9+-]+)*", t)]
    if bad or not targets:
        raise UsageError(f"--offload-arch: not AMD targets: {raw!r} (want e.g. gfx90a or gfx90a,gfx942)")
    return targets


def _compile_timeout(seconds: float) -> float:
    if not 0 < seconds < 1e9:
        raise UsageError(f"--compile-timeout must be a number of seconds > 0, not {seconds:g}")
    return float(seconds)


def _pass_options(args, config: Config) -> dict:
    """The passes' declared options (translator.passes.PassOption): the flag, else the
    configuration, else the declared default; each checked as declared."""
    from translator.options import pass_options
    out = {}
    for option in pass_options():
        value = _flag_or(args, option.field, config.passes.get(option.field), option.default)
        if not option.accepts(value):
            why = f" ({option.why})" if option.why else ""
            raise UsageError(f"--{option.name} must be {option.expected}{why}, not {value}")
        out[option.field] = value
    return out


def _rocm_version(args, config: Config):
    """The target HIP version and where it came from: the flag, the configuration, the
    installed hipcc, or the default."""
    flag = getattr(args, "rocm_version", None)
    if flag is not None:
        return _parse(flag, "--rocm-version"), "from --rocm-version"
    if config.rocm_version is not None:
        try:
            return _parse(config.rocm_version, "rocm-version"), f"from {config.path}"
        except UsageError as exc:
            message = "'rocm-version': " + str(exc).removeprefix("rocm-version: ")
            raise UsageError(str(config.error("rocm-version", message))) from None
    installed = installed_hip_version()
    if installed is not None:
        if not version_at_least(NEWEST_KNOWN_RELEASE, installed):
            return NEWEST_KNOWN_RELEASE, (f"the installed hipcc is {version_str(installed)}, newer than any release "
                                          f"cu2hip knows")
        return installed, "the installed hipcc's"
    # No ROCm here (a CUDA machine): modern HIP, not the oldest packaged one.
    from translator.mapping import newest_release
    return newest_release(), "the newest the tables know: no hipcc found"


def _parse(text: str, where: str):
    try:
        version = parse_version(text)
    except ValueError:
        raise UsageError(f"{where}: not a version: {text!r}") from None
    if version is None:
        raise UsageError(f"{where}: empty")
    if len(version) > 3 or version[0] < 1 or not version_at_least(NEWEST_KNOWN_RELEASE, version):
        raise UsageError(f"{where}: {text!r} is not a ROCm release cu2hip knows (1.0 to "
                         f"{version_str(NEWEST_KNOWN_RELEASE)})")
    return version
