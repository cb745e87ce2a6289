# cu2hip-options: --roc --miopen
LDLIBS = -lcublas -lcurand -lcusparse -lcusolver -lcudnn
