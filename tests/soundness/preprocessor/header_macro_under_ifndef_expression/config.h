#pragma once
#ifndef BLOCK
#define BLOCK 256
#endif
