app: main.cu
	nvcc --maxrregcount 64 -o $@ $<
