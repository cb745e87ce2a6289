"""The effective settings of a run: flags over the configuration file over the defaults,
and where each of the ones that change the output came from."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from translator.catalog import check_selectors
from translator.config import Config, ConfigError, load
from translator.mapping import (NEWEST_KNOWN_RELEASE, load_tables, newest_in_tables, parse_version,
                                version_at_least, version_str)
from translator.passes import Options, all_passes
from translator.rules import RulesError, declare, load_rules
from translator.toolchain import installed_hip_version


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
    try:
        config = load([Path(p) for p in args.paths], Path(args.config) if getattr(args, "config", None) else None)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    version, source = _rocm_version(args, config)
    rules = tuple(str(Path(p).absolute()) for p in getattr(args, "rules", None) or ()) or \
        tuple(str(p) for p in config.rules)
    try:
        declare(load_rules(rules))          # user rule ids join the catalog before selectors are checked
    except RulesError as exc:
        raise UsageError(str(exc)) from None
    select = _selectors(getattr(args, "select", None)) or config.select
    ignore = _selectors(getattr(args, "ignore", None)) or config.ignore
    try:
        check_selectors(select, "--select")
        check_selectors(ignore, "--ignore")
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    only = getattr(args, "only", None)
    if only is not None and only not in all_passes():
        raise UsageError(f"--only: no pass {only!r} (passes: {', '.join(sorted(all_passes()))})")
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
                    not getattr(args, "no_ignore", False))


def _offload_arch(raw: str | None) -> tuple[str, ...]:
    """`--offload-arch gfx90a,gfx942`: the AMD targets, each checked."""
    if raw is None:
        return ()
    targets = tuple(t.strip() for t in raw.split(",") if t.strip())
    bad = [t for t in targets if not re.fullmatch(r"gfx[0-9a-f]+(:[a-z0-9+-]+)*", t)]
    if bad or not targets:
        raise UsageError(f"--offload-arch: not AMD targets: {raw!r} (want e.g. gfx90a or gfx90a,gfx942)")
    return targets


def _pass_options(args, config: Config) -> dict:
    """The passes' declared options (translator.passes.PassOption): the flag, else the
    configuration, else the declared default; each checked as declared."""
    from translator.passes import pass_options
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
        return _parse(config.rocm_version, "rocm-version"), f"from {config.path}"
    installed = installed_hip_version()
    if installed is not None:
        if not version_at_least(NEWEST_KNOWN_RELEASE, installed):
            return NEWEST_KNOWN_RELEASE, (f"the installed hipcc is {version_str(installed)}, newer than any release "
                                          f"cu2hip knows")
        return installed, "the installed hipcc's"
    # No ROCm here (a CUDA machine): modern HIP, not the oldest packaged one.
    return newest_in_tables(load_tables()), "the newest the tables know: no hipcc found"


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
