app: main.cu
	hipcc -keep-dir tmp -o $@ $<
