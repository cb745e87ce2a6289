app: main.cu
	hipcc -dlink -o $@ $<
