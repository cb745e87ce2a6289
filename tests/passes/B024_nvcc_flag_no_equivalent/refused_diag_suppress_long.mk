app: main.cu
	nvcc --diag-suppress=550 -o $@ $<
