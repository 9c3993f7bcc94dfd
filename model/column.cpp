#include "column.h"

#include <sys/mman.h>

namespace kscope {

namespace {
constexpr size_t kHugePage = 2u << 20;
size_t roundUp(size_t bytes)
{
    return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}
} // namespace

void* allocateLarge(size_t bytes)
{
    const size_t size = roundUp(bytes);
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, size, MADV_HUGEPAGE);  // a hint: without THP it is a no-op
#endif
    return p;
}

void freeLarge(void* p, size_t bytes)
{
    munmap(p, roundUp(bytes));
}

} // namespace kscope
