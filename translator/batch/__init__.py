"""`cu2hip batch`: many repositories, each translated as `cu2hip translate` would, on a Dask
cluster (an embedded LocalCluster by default). `manifest` reads the list, `work` is one
repository's task (no Dask), `cluster` runs the tasks on Dask, `summary` writes the results."""
