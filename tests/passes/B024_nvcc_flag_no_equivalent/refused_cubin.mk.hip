app: main.cu
	hipcc -cubin -o $@ $<
