#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>

namespace kscope {

// A growable byte buffer that is never zero-filled: std::vector<char>::resize clears every new
// byte, which costs a memset of the whole window for each of a thousand small rank files.
class ByteBuffer {
public:
    char* data() { return m_data.get(); }
    const char* data() const { return m_data.get(); }
    size_t size() const { return m_size; }
    char& operator[](size_t i) { return m_data[i]; }
    char operator[](size_t i) const { return m_data[i]; }

    // At least `bytes` long afterwards; the first `keep` bytes survive a reallocation.
    void ensure(size_t bytes, size_t keep)
    {
        if (bytes <= m_size)
            return;
        const size_t size = std::max(bytes, m_size + m_size / 2);
        std::unique_ptr<char[]> grown(new char[size]);
        if (keep)
            std::memcpy(grown.get(), m_data.get(), std::min(keep, m_size));
        m_data = std::move(grown);
        m_size = size;
    }

private:
    std::unique_ptr<char[]> m_data;
    size_t m_size = 0;
};

} // namespace kscope
