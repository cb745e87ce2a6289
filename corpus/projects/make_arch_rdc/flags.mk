# The compile flags of the project's nvcc commands (included by the Makefile).
NVCCFLAGS := -O3 -std=c++17 --expt-relaxed-constexpr -lineinfo
