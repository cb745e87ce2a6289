#ifndef CONFIG_H
#define CONFIG_H
#ifdef USE_WIDE_BLOCKS
#define BLOCK 512
#else
#define BLOCK 256
#endif
#endif
