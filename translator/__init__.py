"""cu2hip: CUDA to HIP source translator."""

__version__ = "0.1.0"
