"""The batch on Dask's `distributed`: one task per repository, on an embedded LocalCluster
sized to the machine or on a running cluster (`--scheduler ADDRESS`).

A task that raises (a repository that fails) is retried once (`retries=1`); a task whose worker dies is given to
another worker once (the scheduler's `allowed-failures`, set to 1 for the embedded
cluster; a running cluster keeps its own setting), and then reported as failed. Each
repository is translated with as many files at a time as its worker's share of its
machine's cores (the cores over the tasks its host's workers run at once).

Only this module imports Dask, and only when a batch runs.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from translator.batch.manifest import Manifest, Repository
from translator.batch.summary import status
from translator.batch.work import RepositoryError, translate_repository

RETRIES = 1


class DaskMissing(RuntimeError):
    pass


def _distributed():
    try:
        import dask
        import distributed
    except ImportError:
        raise DaskMissing("`cu2hip batch` needs Dask's distributed: pip install 'cu2hip[batch]'") from None
    return dask, distributed


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _task(task: dict, threads_by_host: dict[str, int]) -> dict:
    """The repository, translated with this worker's share of its machine's cores (the
    cores over the task threads of every worker on the host)."""
    from distributed import get_worker
    from distributed.comm import get_address_host
    worker = get_worker()
    threads = threads_by_host.get(get_address_host(worker.address), worker.state.nthreads)
    return translate_repository(task, max(1, cores() // max(1, threads)))


def threads_by_host(client) -> dict[str, int]:
    """How many tasks each host of the cluster runs at once."""
    out: dict[str, int] = {}
    for info in client.scheduler_info(n_workers=-1)["workers"].values():
        out[info["host"]] = out.get(info["host"], 0) + info["nthreads"]
    return out


def failed(task: dict, error: str) -> dict:
    return {"name": task["name"], "source": task["git"] or task["path"], "ref": task["ref"], "commit": None,
            "output": task["output"], "status": "failed", "error": error}


class Run:
    """Runs a manifest's repositories; `on_change(states)` is called as they move on
    (`states`: name -> queued, running, ok, unchanged, failed)."""

    def __init__(self, manifest: Manifest, scheduler: str | None = None, workers: int | None = None,
                 on_change: Callable[[dict], None] | None = None, client=None):
        self.manifest, self.scheduler, self.workers = manifest, scheduler, workers
        self.on_change, self.client = on_change or (lambda states: None), client

    def run(self) -> list[dict]:
        dask, distributed = _distributed()
        if self.client is not None:
            return self._run(self.client, distributed)
        if self.scheduler is not None:
            with distributed.Client(self.scheduler) as client:
                return self._run(client, distributed)
        workers = self.workers or max(1, min(len(self.manifest.repositories), cores()))
        with dask.config.set({"distributed.scheduler.allowed-failures": RETRIES,
                              "distributed.worker.daemon": False}):
            with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                          dashboard_address=None) as cluster, \
                    distributed.Client(cluster) as client:
                return self._run(client, distributed)

    def _run(self, client, distributed) -> list[dict]:
        repos = self.manifest.repositories
        hosts = threads_by_host(client)
        futures = {client.submit(_task, repo.as_task(), hosts, key=_key(i, repo), retries=RETRIES, pure=False): repo
                   for i, repo in enumerate(repos)}
        results: dict[str, dict] = {}
        states = {repo.name: "queued" for repo in repos}
        self.on_change(dict(states))
        pending = set(futures)
        while pending:
            try:
                distributed.wait(pending, timeout=0.5, return_when="FIRST_COMPLETED")
            except TimeoutError:
                pass
            done = {future for future in pending if future.done()}
            pending -= done
            for future in done:
                repo = futures[future]
                results[repo.name] = self._result(future, repo)
                states[repo.name] = status(results[repo.name])
            running = {key for keys in client.processing().values() for key in keys}
            for future in pending:
                if future.key in running:
                    states[futures[future].name] = "running"
            self.on_change(dict(states))
        return [results[repo.name] for repo in repos]

    @staticmethod
    def _result(future, repo: Repository) -> dict:
        try:
            return future.result()
        except RepositoryError as exc:
            return failed(repo.as_task(), f"{exc} (tried twice)")
        except Exception as exc:     # the task raised twice, or its worker died twice (KilledWorker)
            name = type(exc).__name__
            why = "its worker died, twice" if name == "KilledWorker" else f"{name}: {exc}"
            return failed(repo.as_task(), f"{why} (tried twice)")


def _key(i: int, repo: Repository) -> str:
    return f"cu2hip-batch-{i}-{repo.name}-{time.time_ns()}"
