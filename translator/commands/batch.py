"""`cu2hip batch MANIFEST`: translate many repositories, each as `cu2hip translate` would,
on an embedded Dask LocalCluster or a running Dask cluster; write one summary (JSON and
Markdown). The manifest's format: translator.batch.manifest."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from translator.batch import manifest as manifest_
from translator.batch import summary
from translator.commands.run import write_atomic
from translator.output.positions import one_line, path_text
from translator.settings import UsageError

SUMMARY_NAMES = ("cu2hip-batch.json", "cu2hip-batch.md")


def run(args) -> int:
    try:
        manifest = manifest_.load(Path(args.manifest), args.output, tuple(args.translate_options))
    except manifest_.ManifestError as exc:
        raise UsageError(str(exc)) from None
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.workers is not None and args.scheduler:
        raise UsageError("--workers sizes the embedded cluster: a running cluster (--scheduler) has its own")
    json_path = Path(args.summary_json) if args.summary_json else manifest.output / SUMMARY_NAMES[0]
    md_path = Path(args.summary_markdown) if args.summary_markdown else manifest.output / SUMMARY_NAMES[1]
    for repo in manifest.repositories:
        for path in (json_path, md_path):
            if path.absolute() == repo.output or repo.output in path.absolute().parents:
                raise UsageError(f"the summary {path} would be written inside the output of {repo.name}")

    from translator.batch.cluster import DaskMissing, Run
    progress = _Progress(sys.stderr, [r.name for r in manifest.repositories], args.quiet)
    start = time.monotonic()
    try:
        results = Run(manifest, scheduler=args.scheduler, workers=args.workers, on_change=progress.show).run()
    except DaskMissing as exc:
        raise UsageError(str(exc)) from None
    seconds = time.monotonic() - start
    progress.close(results)
    from translator import __version__
    for path, text in ((json_path, summary.to_json(results, seconds, __version__)),
                       (md_path, summary.to_markdown(results, seconds))):
        try:
            write_atomic(path, text.encode())
            os.chmod(path, 0o666 & ~_umask())
        except OSError as exc:
            print(f"cu2hip batch: error: cannot write the summary {path_text(str(path))}: "
                  f"{one_line(str(exc.strerror or exc))}", file=sys.stderr)
            return 1
    t = summary.totals(results, seconds)
    if not args.quiet:
        print(f"cu2hip batch: {t['repositories']} repositories ({t['failed']} failed, {t['unchanged']} unchanged), "
              f"{t['files']} files, {t['edits']} edits, {t['errors']} errors, {t['cached']} cached, "
              f"{seconds:.1f} s; summary in {path_text(str(json_path))} and {path_text(str(md_path))}", file=sys.stderr)
    if t["failed"]:
        return 1
    return 1 if args.strict and t["errors"] else 0


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class _Progress:
    """On a terminal: a line per repository and a total, redrawn as they change; otherwise
    a line as each repository ends."""

    def __init__(self, stream, names: list[str], quiet: bool):
        self.stream, self.names, self.quiet = stream, names, quiet
        self.tty = not quiet and stream.isatty()
        self.start = time.monotonic()
        self.drawn = 0
        self.ended: set[str] = set()

    def show(self, states: dict) -> None:
        if self.quiet:
            return
        if not self.tty:
            for name in self.names:
                if states[name] in ("ok", "unchanged", "failed") and name not in self.ended:
                    self.ended.add(name)
                    print(f"cu2hip batch: {one_line(name)}: {states[name]}", file=self.stream)
            return
        done = sum(s in ("ok", "unchanged", "failed") for s in states.values())
        lines = [f"  {states[n]:<9} {one_line(n)}" for n in self.names]
        lines.append(f"cu2hip batch: {done}/{len(self.names)} repositories, "
                     f"{sum(s == 'running' for s in states.values())} running, "
                     f"{sum(s == 'failed' for s in states.values())} failed, {time.monotonic() - self.start:.0f} s")
        up = f"\x1b[{self.drawn}F" if self.drawn else ""
        self.stream.write(up + "".join(f"\x1b[2K{line}\n" for line in lines))
        self.stream.flush()
        self.drawn = len(lines)

    def close(self, results: list[dict]) -> None:
        if self.quiet:
            return
        for r in results:
            if r["status"] != "ok":
                # One line: the error may quote a repository's file name or a tool's output,
                # which must not start a line (a `::error` workflow command) of its own.
                print(f"cu2hip batch: error: {one_line(r['name'])}: {one_line(r['error'])}", file=self.stream)
