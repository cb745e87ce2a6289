"""What the commands that translate share: the batch (workers, cache, order), the
progress line and atomic writes."""

from __future__ import annotations

import dataclasses
import errno
import os
import shutil
import stat
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from translator import diagnostics as dg
from translator.cache import Cache, default_dir, options_key, whole_catalog
from translator.inputs import UNREADABLE, folders_known, read_regular
from translator.memory import Every, give_back
from translator.output.positions import path_text
from translator.result import Result
from translator.workspace import Job, Workspace, launch_index, launch_indexes, local_headers  # noqa: F401

# Below this many files a pool costs more than it saves.
_POOL_MIN_FILES = 3


class Batch:
    """Translates a workspace's jobs, `workers` at a time, in job order (so output does not
    depend on the worker count), answering from the cache where it can.

    Its phases (the launch facts, the translation) run in the run's one pool (`RunPool`:
    the one the workspace's walk started, which read and scanned the files there; else one
    started here where there is enough work). The options (with the run's local headers
    and launch index, the largest part of what a worker needs) go to each worker once, at
    the phase's first task; a task carries a job and its bytes. Each worker looks its files up in the cache and writes their entries itself,
    so that neither the keys nor the entries wait on the parent.

    `nearest(path)` (translator.settings.Nearest) gives a file's own options where its
    nearest configuration is not the run's (None: the run's); each variant goes to the
    workers once, a task carries its number."""

    def __init__(self, workspace: Workspace, options, workers: int, use_cache: bool = True, nearest=None,
                 mirror: Mirror | None = None):
        # Qualifier macros defined in one header and used in another (HOST_DEVICE ...).
        folder = default_dir() if use_cache else None
        self.workers = workers
        # Every local header looked for, found or not, wherever it is (a run's record
        # holds their states: translator.runcache).
        self.headers_probed: set[str] = set()
        # One pool for the run's phases: the one the walk started (it read and scanned
        # the files there), else one started now where there is enough work.
        self.pool, workspace.pool = workspace.pool or start_pool(workers, len(workspace.jobs)), None
        try:
            with folders_known():       # each folder's real path found once (translator.inputs)
                if self.pool is not None:
                    workspace.scan_project(self.pool)
                headers = local_headers(workspace, self.headers_probed)
                index, templates = launch_indexes(workspace, Cache(folder) if folder else None, headers,
                                                  self._facts_mapper())
        except BaseException:
            self.close()
            raise
        shared = dict(qualifier_macros=workspace.qualifier_macros, tree_names=workspace.declared_names,
                      local_headers=headers, launch_index=index, template_index=templates)
        self.options = dataclasses.replace(options, **shared)
        if len(workspace.jobs) >= _POOL_MIN_FILES:
            give_back()     # the index's parses are done: their freed pages go back before translating
                            # (a few files' are a few pages: not worth loading ctypes for)
        self.variants, self.which = [self.options], [0] * len(workspace.jobs)
        if nearest is not None:
            number: dict[int, int] = {}
            for k, job in enumerate(workspace.jobs):
                own = nearest(job.source)
                if own is not None:
                    if id(own) not in number:
                        number[id(own)] = len(self.variants)
                        self.variants.append(dataclasses.replace(own, **shared))
                    self.which[k] = number[id(own)]
        self.workspace, self.folder, self.mirror = workspace, folder, mirror
        self.hits = 0

    def _facts_mapper(self):
        """How the launch index gets each file's launch facts: in the run's pool where it
        has one (the index must be whole before any file is translated)."""
        def mapper(facts, tasks: list) -> list:
            if self.pool is None or not tasks:
                return [facts(task) for task in tasks]
            return list(self.pool.map(facts, tasks, chunksize=_chunk(len(tasks), self.workers)))
        return mapper

    def close(self) -> None:
        """Stop the run's pool (its last phase done, or the run failed)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None

    def results(self):
        """(job, Result) pairs in job order."""
        for job, result, _ in self.written():
            yield job, result

    def written(self):
        """(job, Result, what `mirror` wrote of it: Mirror.write's answer) in job order."""
        jobs = self.workspace.jobs
        inputs = [self.workspace.read(job) for job in jobs]
        for job, (result, hit, wrote) in zip(jobs, self._stream(jobs, inputs, self._whole_catalog)):
            self.hits += hit
            yield job, result, wrote

    def _whole_catalog(self) -> None:
        """The statistics of the results read the rule catalog (a cached run: from its
        snapshot; else every pass is imported): made whole once the workers have the
        translation's tasks, while they translate."""
        whole_catalog(Cache(self.folder) if self.folder is not None else None)

    def _stream(self, jobs: list[Job], inputs: list, meanwhile=None):
        """(Result, from the cache) of each job, in order, from a pool of workers where
        there is enough work; `meanwhile()` is called once the work is under way."""
        if self.pool is None:
            if meanwhile is not None:
                meanwhile()
            work = _Work(self.variants, self.folder, self.mirror)
            for job, data, which in zip(jobs, inputs, self.which):
                yield work(job, data, which)
            return
        try:
            results = self.pool.map(_Work(self.variants, self.folder, self.mirror, sent=True), jobs, inputs,
                                    self.which, chunksize=_chunk(len(jobs), self.workers))
            if meanwhile is not None:
                meanwhile()
            for data, (result, hit, wrote) in zip(inputs, results):
                if result.input is None:
                    result.input = data     # the worker's copy of the input, not sent back
                yield result, hit, wrote
        finally:
            self.close()


def start_pool(workers: int, jobs: int) -> RunPool | None:
    """The run's pool for `jobs` files with `workers` workers, or None where a pool costs
    more than it saves (one worker, or fewer files than `_POOL_MIN_FILES`)."""
    if workers == 1 or jobs < _POOL_MIN_FILES:
        return None
    return RunPool(min(workers, jobs))


class RunPool:
    """The worker processes of a run, started once (`start_pool`, when the walk has found
    the files) and used by each of its phases in turn: the files' scans
    (translator.filescan), their launch facts, their translation. A phase's work (the
    options, the launch index: megabytes) is pickled once, into a file of the pool's
    folder, and each worker loads it when the phase's first task reaches it; a task
    carries its arguments alone. A ProcessPoolExecutor: imported here, a run of one
    file starts no pool."""

    def __init__(self, workers: int):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        context = multiprocessing.get_context()
        # A forkserver's workers are its children, not ours: it ends with us, and they with it.
        parent = None if context.get_start_method() == "forkserver" else os.getpid()
        self.workers = workers
        self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_start_worker,
                                             initargs=(parent,))
        self._folder: str | None = None
        self._phases = 0

    def map(self, work, *tasks, chunksize: int = 0):
        """`work(*task)` of each task (one item of each of `tasks`), in order. A plain
        function goes by its name; any other `work` is sent to each worker once."""
        import types
        chunksize = chunksize or _chunk(len(tasks[0]), self.workers)
        if isinstance(work, types.FunctionType):
            return self._executor.map(work, *tasks, chunksize=chunksize)
        import itertools
        import pickle
        if self._folder is None:
            import atexit
            import tempfile
            self._folder = tempfile.mkdtemp(prefix="cu2hip-pool-")
            atexit.register(shutil.rmtree, self._folder, True)      # a run that ends before `close`
        self._phases += 1
        path = os.path.join(self._folder, str(self._phases))
        with open(path, "wb") as handle:
            pickle.dump(work, handle, pickle.HIGHEST_PROTOCOL)
        return self._executor.map(_phase_task, itertools.repeat(path), *tasks, chunksize=chunksize)

    def submit(self, function, *args):
        """A Future of `function(*args)` in a worker (a plain function: it goes by its name)."""
        return self._executor.submit(function, *args)

    def close(self) -> None:
        """Stop the workers (the tasks not started are cancelled) and remove the folder."""
        self._executor.shutdown(wait=True, cancel_futures=True)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


def _chunk(jobs: int, workers: int) -> int:
    """Tasks per message: few enough messages that sending them costs little, enough
    chunks (8 a worker) that a worker done early takes more while the others finish."""
    return max(1, min(16, jobs // (8 * workers)))


@dataclass(frozen=True)
class Mirror:
    """How a run into an output folder writes each translation (`translate -o DIR`): in
    the process that translated it, a worker of the pool where there is one, so that the
    writes do not wait on the parent. The parent prints what each wrote, in job order."""
    root: Path | None           # the output folder: no link below it is followed
    only_translated: bool       # --only-translated: a plain file that did not change is not written

    def write(self, job: Job, result: Result) -> tuple[list[Path], tuple[Path, str] | None] | None:
        """(the paths rewritten, in order; the path that could not be written and why, or
        None), or None where the job writes nothing (no destination, not translated, or a
        plain file --only-translated leaves out)."""
        from translator.workspace import CUDA_SUFFIXES
        if job.destination is None or (result.skipped and result.errors):
            return None
        if not (result.changed or job.source.suffix in CUDA_SUFFIXES or job.included or not self.only_translated):
            return None
        rewritten = []
        where = job.destination
        try:
            # Every path the file was reached by (translated once).
            for where in (job.destination, *job.also):
                if write_if_different(where, result.output, job.source, self.root):
                    rewritten.append(where)
        except OSError as exc:
            return rewritten, (where, f"{exc.strerror or exc}")
        return rewritten, None


class _Work:
    """What a process translates with: the run's options (their variants, by number),
    cache (None: no cache) and output folder (`mirror`, None: the parent writes, or nothing
    is written)."""

    def __init__(self, variants: list, folder: Path | None, mirror: Mirror | None = None, sent: bool = False):
        """`sent`: the results go back to the parent, which has each input: a Result's
        `input` (the task's own bytes) goes back as None, for the parent to put back."""
        self.variants, self.mirror, self.sent = variants, mirror, sent
        self.cache = Cache(folder) if folder is not None else None
        # Each variant's key part once, here (the options hold the launch index: megabytes).
        self.options_keys = [options_key(v) for v in variants] if folder is not None else []
        self.trim = Every()     # the parses' freed pages back to the system now and then

    def __call__(self, job: Job, data, which: int = 0) -> tuple[Result, bool, tuple | None]:
        """(the Result, from the cache, what `mirror` wrote of it)."""
        self.trim.tick()
        result, hit = self._result(job, data, self.variants[which], which)
        wrote = self.mirror.write(job, result) if self.mirror is not None else None
        if self.sent and isinstance(data, bytes) and result.input is data:
            result.input = None
        return result, hit, wrote

    def _result(self, job: Job, data, options, which: int) -> tuple[Result, bool]:
        if self.cache is None or not isinstance(data, bytes):
            return translate_one(job, data, options), False
        key = self.cache.key(job.display, data, self.options_keys[which])
        found = self.cache.get(key, data)
        if found is not None:
            return found, True
        result = translate_one(job, data, options)
        self.cache.put(key, result)
        return result, False


_PHASE: tuple = (None, None)     # a worker's phase: (the file of its work, the work)


def _start_worker(parent: int | None) -> None:
    _end_with_parent(parent)
    import threading
    # The translation's modules (every pass, the IR, the front end) are imported by a
    # thread of the worker's own while its first phases (the scans, the launch facts)
    # keep the parent busy merging: the translation's first task finds them loaded.
    threading.Thread(target=_import_translation, name="cu2hip-imports", daemon=True).start()


def _import_translation() -> None:
    from translator import catalog
    import translator.pipeline  # noqa: F401
    catalog.catalog()


def _phase_task(path: str, *task):
    """A task of a phase whose work is in the file `path` (loaded at the phase's first task)."""
    global _PHASE
    if _PHASE[0] != path:
        import pickle
        _PHASE = (None, None)       # the last phase's work freed before the next is loaded
        with open(path, "rb") as handle:
            _PHASE = (path, pickle.load(handle))
    return _PHASE[1](*task)


def varied(nearest, change):
    """`nearest` with `change(options)` applied to each file's own options (None stays None)."""
    if nearest is None:
        return None
    memo: dict[int, tuple] = {}       # by the options' identity (each kept, so it stays unique)

    def own(path):
        options = nearest(path)
        if options is None:
            return None
        if id(options) not in memo:
            memo[id(options)] = (options, change(options))
        return memo[id(options)][1]
    return own


def _end_with_parent(parent: int | None) -> None:
    """A worker's initializer: the worker ends when the process that started it does (a
    killed command leaves no worker behind, translating on or blocked on its queue), by
    the parent death signal (Linux), else by a thread that watches the parent."""
    import threading        # here, as signal and tempfile: a run answered from the cache starts no worker
    start = os.getppid()
    if not _parent_death_signal():
        threading.Thread(target=_watch_parent, args=(start,), name="cu2hip-parent", daemon=True).start()
    if (parent is not None and start != parent) or os.getppid() != start:
        os._exit(1)     # the parent died before the signal was set


def _parent_death_signal() -> bool:
    """Ask Linux to kill this process when its parent ends (prctl PR_SET_PDEATHSIG)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        import signal
        return ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(start: int, interval: float = 0.2) -> None:
    while os.getppid() == start:
        time.sleep(interval)
    os._exit(1)


def translate_one(job: Job, data, options) -> Result:
    if isinstance(data, OSError):
        result = Result(job.display, b"", b"", skipped=True)
        result.diagnostics = [dg.Diagnostic(job.display, 1, 1, UNREADABLE.severity,
                                            f"cannot read: {data.strerror}", UNREADABLE.id)]
        return result
    from translator.pipeline import translate     # here: a run answered from the cache imports none of it
    with folders_known():       # its local headers' real paths (translator.ir.macros), found once a file
        return translate(job.display, data, options)


class Progress:
    """`[done/total] rate, time left, path` on one terminal line, cleared before anything
    else is printed; silent when stderr is not a terminal."""

    def __init__(self, stream, total: int, clock=time.monotonic):
        self.stream, self.total, self.width, self.done = stream, total, 0, 0
        self.clock = clock
        self.started = clock()

    @classmethod
    def on(cls, stream, total: int, quiet: bool):
        return cls(stream, total) if stream.isatty() and not quiet and total > 1 else _Silent()

    def show(self, path: str) -> None:
        self.done += 1
        elapsed = max(self.clock() - self.started, 1e-6)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate
        columns = shutil.get_terminal_size((80, 20)).columns
        line = f"[{self.done}/{self.total}] {rate:.0f} files/s, {left:.0f} s left  {path_text(path)}"[:max(columns - 1, 10)]
        self.stream.write("\r" + line + " " * max(self.width - len(line), 0))
        self.stream.flush()
        self.width = len(line)

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


class _Silent:
    def show(self, path: str) -> None:
        pass

    def clear(self) -> None:
        pass


_MADE_FOLDERS: set[Path] = set()


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)


def _folder_below(root: Path, parts: tuple[str, ...], path: Path) -> int:
    """A descriptor of the folder root/parts..., each part opened (made where missing)
    without following a link: a link below the output folder (a stale mirror of a link
    that is now a folder, or one planted there) is refused, even one swapped in while the
    run writes. `root` itself is the user's choice and may be a link."""
    if root not in _MADE_FOLDERS:
        os.makedirs(root, exist_ok=True)
        _MADE_FOLDERS.add(root)
    fd = os.open(root, _DIR_FLAGS)
    try:
        for depth, part in enumerate(parts, 1):
            for attempt in (0, 1):
                try:
                    below = os.open(part, _DIR_FLAGS | os.O_NOFOLLOW, dir_fd=fd)
                    break
                except FileNotFoundError:
                    if attempt:
                        raise
                    try:
                        os.mkdir(part, dir_fd=fd)
                    except FileExistsError:
                        pass
                except OSError as exc:
                    here = os.path.join(root, *parts[:depth])
                    if exc.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(here):
                        raise OSError(errno.ELOOP, f"{here} is a symbolic link inside the output folder: not "
                                      "followed (remove it)", str(path)) from None
                    raise
            os.close(fd)
            fd = below
    except BaseException:
        os.close(fd)
        raise
    return fd


def _parts_below(root: Path | None, path: Path) -> tuple[str, ...] | None:
    if root is None:
        return None
    try:
        rel = Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
    except ValueError:
        return None
    return rel.parts if rel.parts else None


def write_atomic(path: Path, data, like: Path | None = None, durable: bool = False, root: Path | None = None) -> None:
    """Write `data` (bytes, or a binary file to stream) through a temporary file in the same
    folder and an atomic rename, keeping the original's permission bits. `durable` (for a
    user's own file, --in-place) also flushes it to disk before the rename. With `root` (the
    output folder, `path` below it) no link below `root` is followed (`_folder_below`)."""
    parts = _parts_below(root, path)
    if parts is not None:
        _write_below(root, parts, path, data, like)
        return
    if path.parent not in _MADE_FOLDERS:
        path.parent.mkdir(parents=True, exist_ok=True)
        _MADE_FOLDERS.add(path.parent)
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode)):
        # As root, a rename would replace the device node itself (`-o /dev/sda.hip` left alone,
        # `/dev/null` made a file). A FIFO in an output place is replaced, never read.
        raise OSError(errno.EINVAL, "a device or socket, not a regular file", str(path))
    import tempfile
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".cu2hip-tmp", dir=path.parent)
    try:
        _fill(fd, data, like, durable)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _fill(fd: int, data, like: Path | None, durable: bool) -> None:
    """Write `data` (bytes or a binary file) to the new temporary file `fd` and close it,
    with `like`'s permission bits; `durable`: flushed to disk first."""
    with os.fdopen(fd, "wb") as handle:
        if isinstance(data, bytes):
            handle.write(data)
        else:
            shutil.copyfileobj(data, handle)
        if like is not None:
            try:
                os.fchmod(handle.fileno(), like.stat().st_mode & 0o7777)
            except OSError:
                pass
        if durable:
            handle.flush()
            os.fsync(handle.fileno())


def _write_below(root: Path, parts: tuple[str, ...], path: Path, data, like: Path | None) -> None:
    folder = _folder_below(root, parts[:-1], path)
    name = parts[-1]
    try:
        try:
            mode = os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and (stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode) or
                                 stat.S_ISDIR(mode)):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        tmp = f".{name}.{os.urandom(6).hex()}.cu2hip-tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder)
        try:
            _fill(fd, data, like, durable=False)
            # A link at the name itself is replaced, never followed.
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=folder)
            except OSError:
                pass
            raise
    finally:
        os.close(folder)


def link_below(root: Path | None, path: Path, target: str) -> None:
    """Make the link `path` -> `target` below the output folder `root` (replacing what is
    at `path`), following no link on the way."""
    parts = _parts_below(root, path)
    if parts is None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or path.exists():
            path.unlink()
        os.symlink(target, path)
        return
    folder = _folder_below(root, parts[:-1], path)
    try:
        try:
            os.unlink(parts[-1], dir_fd=folder)
        except FileNotFoundError:
            pass
        os.symlink(target, parts[-1], dir_fd=folder)
    finally:
        os.close(folder)


def write_if_different(path: Path, data: bytes, like: Path, root: Path | None = None) -> bool:
    """Write unless the file already holds exactly `data` (its time stamp is then kept);
    below the output folder `root`, through no link (run.write_atomic)."""
    try:
        if not path.is_symlink() and path.stat().st_size == len(data) and read_regular(path) == data \
                and (root is None or not linked_between(root, path)):
            return False
    except OSError:
        pass
    write_atomic(path, data, like=like, root=root)
    return True


def linked_between(root: Path, path: Path) -> bool:
    """Is a folder between the output folder `root` and `path` a link?"""
    folder = path.parent
    while folder != root and root in folder.parents:
        if folder.is_symlink():
            return True
        folder = folder.parent
    return False
