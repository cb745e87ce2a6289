app: main.cu
	hipcc --diag-suppress=550 -o $@ $<
