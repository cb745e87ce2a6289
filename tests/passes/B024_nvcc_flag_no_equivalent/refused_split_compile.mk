app: main.cu
	nvcc -split-compile 0 -o $@ $<
