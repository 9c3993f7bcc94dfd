#pragma once

// Storage for event columns: large blocks come straight from mmap with transparent huge pages
// requested. Event columns are tens to hundreds of MB per rank; with 4 KiB pages the kernel's
// page faults cost more than parsing (measured: a 270 MB rank loads in 1.9 s with them, 1.1 s
// with 2 MiB pages), and page-table pressure slows every later scan.

#include <cstddef>
#include <new>
#include <vector>

namespace kscope {

void* allocateLarge(size_t bytes);
void freeLarge(void* p, size_t bytes);
inline constexpr size_t kLargeAllocationBytes = 1u << 20;

template <typename T>
struct ColumnAllocator {
    using value_type = T;
    ColumnAllocator() noexcept = default;
    template <typename U>
    ColumnAllocator(const ColumnAllocator<U>&) noexcept {}

    T* allocate(size_t n)
    {
        const size_t bytes = n * sizeof(T);
        if (bytes >= kLargeAllocationBytes)
            return static_cast<T*>(allocateLarge(bytes));
        return static_cast<T*>(::operator new(bytes));
    }
    void deallocate(T* p, size_t n) noexcept
    {
        const size_t bytes = n * sizeof(T);
        if (bytes >= kLargeAllocationBytes)
            freeLarge(p, bytes);
        else
            ::operator delete(p);
    }
    template <typename U>
    bool operator==(const ColumnAllocator<U>&) const noexcept { return true; }
};

template <typename T>
using Column = std::vector<T, ColumnAllocator<T>>;

} // namespace kscope
