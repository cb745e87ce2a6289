#define ROW_WIDTH blockDim.x
