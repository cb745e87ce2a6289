app: main.cu
	nvcc -dlink -o $@ $<
