app: main.cu
	hipcc -lib -o $@ $<
