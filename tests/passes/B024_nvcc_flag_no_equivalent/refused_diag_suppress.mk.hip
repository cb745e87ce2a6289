app: main.cu
	hipcc -diag-suppress 177 -o $@ $<
