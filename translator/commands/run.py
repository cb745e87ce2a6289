"""What the commands that translate share: the batch (workers, cache, order), the
progress line and atomic writes."""

from __future__ import annotations

import dataclasses
import errno
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from translator import diagnostics as dg
from translator import phases
from translator.cache import Cache, default_dir, options_key, whole_catalog
from translator.inputs import UNREADABLE, folders_known, read_regular
from translator.memory import Every, give_back
from translator.output.positions import path_text
from translator.result import Result
from translator.workspace import Job, Workspace, launch_index, local_headers

# Below this many files a pool costs more than it saves.
_POOL_MIN_FILES = 3


class Batch:
    """Translates a workspace's jobs, `workers` at a time, in job order (so output does not
    depend on the worker count), answering from the cache where it can.

    The options (with the run's local headers and launch index, the largest part of what
    a worker needs) go to each worker once, when it starts; a task carries a job and its
    bytes. Each worker looks its files up in the cache and writes their entries itself,
    so that neither the keys nor the entries wait on the parent.

    `nearest(path)` (translator.settings.Nearest) gives a file's own options where its
    nearest configuration is not the run's (None: the run's); each variant goes to the
    workers once, a task carries its number."""

    def __init__(self, workspace: Workspace, options, workers: int, use_cache: bool = True, nearest=None,
                 mirror: Mirror | None = None, pool: Pool | None = None):
        # Qualifier macros defined in one header and used in another (HOST_DEVICE ...).
        folder = default_dir() if use_cache else None
        # One pool for both phases (the launch facts, then the translation), `pool` where
        # the command started it before walking the tree; none for a few files.
        if len(workspace.jobs) < _POOL_MIN_FILES or workers == 1:
            if pool is not None:
                pool.close()
            pool = None
        elif pool is None:
            pool = Pool(min(workers, len(workspace.jobs)))
        else:
            pool.shrink(len(workspace.jobs))
        self.pool = pool
        # The statistics of the results read the catalog (a cached run: from its snapshot;
        # with a pool, from its first worker's, which imported the passes meanwhile).
        with phases.Phase("catalog"):
            whole_catalog(Cache(folder) if folder is not None else None, pool.catalog() if pool is not None else None)
        # Every local header looked for, found or not, wherever it is (a run's record
        # holds their states: translator.runcache).
        self.headers_probed: set[str] = set()
        with folders_known():       # each folder's real path found once (translator.inputs)
            with phases.Phase("local headers"):
                headers = local_headers(workspace, self.headers_probed)
            with phases.Phase("launch index"):
                index = launch_index(workspace, Cache(folder) if folder else None, headers, self._facts_mapper())
        shared = dict(qualifier_macros=workspace.qualifier_macros, tree_names=workspace.declared_names,
                      local_headers=headers, launch_index=index)
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
        self.workspace, self.workers, self.folder, self.mirror = workspace, workers, folder, mirror
        self.hits = 0

    def _facts_mapper(self):
        """How the launch index gets each file's launch facts: in the pool where there is
        one and enough work (the index must be whole before any file is translated)."""
        def mapper(facts, tasks: list) -> list:
            if self.pool is None or len(tasks) < _POOL_MIN_FILES:
                return [facts(task) for task in tasks]
            return list(self.pool.map("facts worker", facts, [(task,) for task in tasks],
                                      [len(data) for _, data, _ in tasks]))
        return mapper

    def results(self):
        """(job, Result) pairs in job order."""
        for job, result, _ in self.written():
            yield job, result

    def written(self):
        """(job, Result, what `mirror` wrote of it: Mirror.write's answer) in job order."""
        jobs = self.workspace.jobs
        inputs = [self.workspace.read(job) for job in jobs]
        for job, (result, hit, wrote) in zip(jobs, self._stream(jobs, inputs)):
            self.hits += hit
            yield job, result, wrote

    def _stream(self, jobs: list[Job], inputs: list):
        """(Result, from the cache) of each job, in order, from a pool of workers where
        there is enough work."""
        work = _Work(self.variants, self.folder, self.mirror)
        if self.pool is None:
            for job, data, which in zip(jobs, inputs, self.which):
                yield work(job, data, which)
            return
        try:
            weights = [len(data) if isinstance(data, bytes) else 0 for data in inputs]
            yield from self.pool.map("translation worker", work, list(zip(jobs, inputs, self.which)), weights)
        finally:
            self.pool.close()


def start_pool(paths: list[str], workers: int) -> Pool | None:
    """A pool for a run over `paths` with `workers` workers, started before the run walks
    them (its workers import the passes meanwhile), or None where the run will not need
    one: one worker, or fewer files named than a pool is worth and no folder."""
    if workers == 1 or (len(paths) < _POOL_MIN_FILES and not any(os.path.isdir(p) for p in paths)):
        return None
    with phases.Phase(f"pool start ({workers} workers)"):
        return Pool(workers)


def _chunk(jobs: int, workers: int) -> int:
    """Tasks per message: few enough messages that sending them costs little, enough
    chunks (8 a worker) that a worker done early takes more while the others finish."""
    return max(1, min(16, jobs // (8 * workers)))


def _heaviest_first(weights: list[int], workers: int) -> list[range]:
    """The tasks' chunks (`_chunk` tasks each, consecutive), heaviest first (by the sum of
    their tasks' weights, the bytes of their files; ties in task order), so that the
    largest files are not what the last workers wait on."""
    size = _chunk(len(weights), workers)
    chunks = [range(start, min(start + size, len(weights))) for start in range(0, len(weights), size)]
    return sorted(chunks, key=lambda chunk: -sum(weights[k] for k in chunk))


# Below this many usable cores the parent imports the passes before it forks the workers.
_OVERLAP_MIN_CPUS = 4


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class WorkerFailed(RuntimeError):
    """A worker of the pool ended before it answered (killed, out of memory)."""


class Pool:
    """`size` worker processes for a whole run (fork where the platform has it), started
    once: before the run has walked its tree where the command starts it
    (`start_pool`), so that each imports the passes while the parent reads the inputs,
    and the first sends back the rule catalog it built (`catalog`). Each phase (the
    launch facts, then the translation: `map`) sends its work to every worker once, then
    its tasks in chunks, one chunk at a time per worker, the heaviest chunks first (a
    large file does not come last); the results come back in task order."""

    def __init__(self, size: int):
        import multiprocessing      # here: a run of one file starts no pool, and imports none of it
        context = multiprocessing.get_context()
        if context.get_start_method() == "fork" and _usable_cpus() < _OVERLAP_MIN_CPUS:
            # Too few cores for the workers' imports to overlap the parent's walk: imported
            # once, here, and shared by the forks (not once a worker, competing for them).
            from translator import catalog
            catalog.catalog()
        # A forkserver's workers are its children, not ours: it ends with us, and they with it.
        parent = None if context.get_start_method() == "forkserver" else os.getpid()
        self.workers: list = []      # (process, the parent's end of its pipe)
        self._catalog = None
        self._busy: dict = {}        # the connections of the workers with a chunk to answer
        for number in range(size):
            mine, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, parent, number == 0), daemon=True,
                                      name=f"cu2hip-worker-{number}")
            process.start()
            theirs.close()
            self.workers.append((process, mine))

    def catalog(self):
        """The rule catalog's snapshot (translator.catalog.snapshot) the first worker made,
        or None where it could not (translator.cache.whole_catalog then imports the passes)."""
        if self._catalog is None:
            import pickle
            try:
                self._catalog = pickle.loads(self.workers[0][1].recv_bytes())
            except (EOFError, OSError):
                raise WorkerFailed("a worker of the pool ended before it started") from None
        return self._catalog

    def shrink(self, size: int) -> None:
        """Keep `size` workers at most (a run of fewer files than workers)."""
        self.catalog()      # the first worker's first message, read before any task
        while len(self.workers) > max(size, 1):
            process, connection = self.workers.pop()
            _stop(process, connection)

    def map(self, what: str, work, tasks: list[tuple], weights: list[int]):
        """`work(*task)` of each task, in order (`what` names the work in the phases'
        times); `weights` order the chunks, heaviest first."""
        import pickle
        self.catalog()
        message = b"W" + pickle.dumps((what if phases.ON else None, work), pickle.HIGHEST_PROTOCOL)
        for _, connection in self.workers:
            connection.send_bytes(message)
        del message
        chunks = _heaviest_first(weights, len(self.workers))
        chunks.reverse()            # popped from the end
        out: dict[int, object] = {}
        busy = self._busy           # connection -> the chunk it is working on
        busy.clear()
        from multiprocessing.connection import wait

        def feed(connection) -> None:
            if chunks:
                chunk = chunks.pop()
                connection.send_bytes(b"T" + pickle.dumps([tasks[k] for k in chunk], pickle.HIGHEST_PROTOCOL))
                busy[connection] = chunk

        for _, connection in self.workers:
            feed(connection)
        wanted = 0
        while wanted < len(tasks):
            # Every worker that is done gets its next chunk before a result is handed on.
            for connection in wait(list(busy), 0 if wanted in out else None):
                try:
                    answer = connection.recv_bytes()
                except (EOFError, OSError):
                    raise WorkerFailed("a worker of the pool ended unexpectedly (killed, or out of memory)") from None
                chunk = busy.pop(connection)
                done, results = pickle.loads(answer)
                if not done:
                    raise results
                out.update(zip(chunk, results))
                feed(connection)
            while wanted in out:
                yield out.pop(wanted)
                wanted += 1

    def close(self) -> None:
        """Stop the workers: an idle one ends at once, one still working (its answer no
        longer wanted: an error, ^C) is killed."""
        for process, connection in self.workers:
            if connection in self._busy:
                process.kill()
            else:
                try:
                    connection.send_bytes(b"S")
                except OSError:
                    pass
        deadline = time.monotonic() + 2
        while self.workers:
            process, connection = self.workers.pop()
            _stop(process, connection, max(deadline - time.monotonic(), 0))
        self._busy.clear()


def _stop(process, connection, wait: float = 2) -> None:
    """End a worker that was told to stop (or killed): joined, else killed after `wait` s."""
    try:
        connection.send_bytes(b"S")
    except OSError:
        pass
    process.join(wait)
    if process.is_alive():
        process.kill()
        process.join()
    connection.close()


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

    def __init__(self, variants: list, folder: Path | None, mirror: Mirror | None = None):
        self.variants, self.mirror = variants, mirror
        self.cache = Cache(folder) if folder is not None else None
        # Each variant's key part once, here (the options hold the launch index: megabytes).
        self.options_keys = [options_key(v) for v in variants] if folder is not None else []
        self.trim = Every()     # the parses' freed pages back to the system now and then

    def __call__(self, job: Job, data, which: int = 0) -> tuple[Result, bool, tuple | None]:
        """(the Result, from the cache, what `mirror` wrote of it)."""
        self.trim.tick()
        result, hit = self._result(job, data, self.variants[which], which)
        return result, hit, self.mirror.write(job, result) if self.mirror is not None else None

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


def _serve(connection, parent: int | None, first: bool) -> None:
    """A worker of the pool: the passes imported (the first worker sends the rule catalog
    back), then each message: `W` the work of a phase, `T` a chunk of its tasks (answered
    with (True, their results) or (False, the exception)), `S` the end."""
    import pickle
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # the command answers ^C, and ends its workers
    _end_with_parent(parent)
    from translator import catalog
    from translator.rules.declare import user_ids
    snapshot = None
    try:
        snapshot = catalog.snapshot(leave_out=user_ids())
    finally:
        if first:
            connection.send_bytes(pickle.dumps(snapshot, pickle.HIGHEST_PROTOCOL))
    work = clock = None
    while True:
        try:
            message = connection.recv_bytes()
        except (EOFError, OSError):
            return
        kind, body = message[:1], memoryview(message)[1:]
        if kind == b"S":
            return
        if kind == b"W":
            what, work = pickle.loads(body)
            clock = phases.WorkerClock(what) if what is not None else None
            continue
        tasks = pickle.loads(body)
        del message, body
        try:
            answer = (True, [clock.task(work, *task) if clock is not None else work(*task) for task in tasks])
            data = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:        # noqa: BLE001  handed to the parent, which raises it
            try:
                data = pickle.dumps((False, exc), pickle.HIGHEST_PROTOCOL)
            except Exception:           # noqa: BLE001
                data = pickle.dumps((False, RuntimeError(f"{type(exc).__name__}: {exc}")), pickle.HIGHEST_PROTOCOL)
        connection.send_bytes(data)


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
