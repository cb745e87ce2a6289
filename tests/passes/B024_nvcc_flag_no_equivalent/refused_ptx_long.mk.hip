app: main.cu
	hipcc --ptx -o $@ $<
