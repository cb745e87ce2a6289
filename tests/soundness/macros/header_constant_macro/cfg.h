#define ROW_WIDTH 100
