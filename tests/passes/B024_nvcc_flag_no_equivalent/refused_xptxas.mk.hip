app: main.cu
	hipcc -Xptxas -O3 -o $@ $<
