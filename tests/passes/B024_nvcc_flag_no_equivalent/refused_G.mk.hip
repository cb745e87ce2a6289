app: main.cu
	hipcc -G -o $@ $<
