app: main.cu
	nvcc -diag-suppress 177 -o $@ $<
