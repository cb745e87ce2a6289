LDLIBS = -lcudart -lcudart_static -lcuda -lcublas -lcublasLt -lcurand -lcufft -lcusparse -lcusolver -lnvrtc
app: main.o
	g++ -o $@ $^ -L/usr/local/cuda/lib64 -lcudart -lpthread
