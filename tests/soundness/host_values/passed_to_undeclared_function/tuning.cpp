#include "tuning.h"
#include <cstdlib>
void configure(int& threads)
{
    if (getenv("WIDE")) threads = 1024;
}
