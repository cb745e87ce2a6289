app: main.cu
	nvcc -lib -o $@ $<
