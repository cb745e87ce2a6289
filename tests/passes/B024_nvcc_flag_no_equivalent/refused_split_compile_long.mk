app: main.cu
	nvcc --split-compile=4 -o $@ $<
