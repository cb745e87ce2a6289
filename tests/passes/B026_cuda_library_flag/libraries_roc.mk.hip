# cu2hip-options: --roc --miopen
LDLIBS = -lrocblas -lrocrand -lrocsparse -lrocsolver -lMIOpen
