LDLIBS = -lamdhip64 -lamdhip64 -lamdhip64 -lhipblas -lhipblaslt -lhiprand -lhipfft -lhipsparse -lhipsolver -lamdhip64
app: main.o
	g++ -o $@ $^ -L/usr/local/cuda/lib64 -lamdhip64 -lpthread
