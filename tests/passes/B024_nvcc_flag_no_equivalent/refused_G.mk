app: main.cu
	nvcc -G -o $@ $<
