#include "jsonwrite.h"

#include <cstdio>

namespace kscope {

namespace {

void appendHex(std::string& out, unsigned value)
{
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\u%04x", value & 0xffffu);
    out += buf;
}

// An ASCII character as JSON writes it inside a string: \" \\ \n \r \t \b \f, other control
// characters as \u00XX.
void appendAscii(std::string& out, unsigned char c)
{
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\r': out += "\\r"; break;
    case '\t': out += "\\t"; break;
    case '\b': out += "\\b"; break;
    case '\f': out += "\\f"; break;
    default:
        if (c < 0x20)
            appendHex(out, c);
        else
            out += static_cast<char>(c);
    }
}

} // namespace

void appendJsonString(std::string& out, std::string_view text)
{
    out += '"';
    for (const char c : text) {
        if (static_cast<unsigned char>(c) < 0x80)
            appendAscii(out, static_cast<unsigned char>(c));
        else
            out += c;
    }
    out += '"';
}

void appendPythonJsonString(std::string& out, std::string_view s)
{
    out += '"';
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            appendAscii(out, c);
            ++i;
            continue;
        }
        // A UTF-8 sequence; a malformed byte is written as its Latin-1 code point.
        const size_t length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
        unsigned code = length == 4 ? (c & 0x07u) : length == 3 ? (c & 0x0fu) : length == 2 ? (c & 0x1fu) : c;
        bool valid = length > 1 && i + length <= s.size();
        for (size_t k = 1; valid && k < length; ++k) {
            const auto next = static_cast<unsigned char>(s[i + k]);
            valid = (next & 0xc0u) == 0x80u;
            code = (code << 6) | (next & 0x3fu);
        }
        if (!valid) {
            appendHex(out, c);
            ++i;
            continue;
        }
        if (code >= 0x10000) {
            code -= 0x10000;
            appendHex(out, 0xd800u + (code >> 10));
            appendHex(out, 0xdc00u + (code & 0x3ffu));
        } else {
            appendHex(out, code);
        }
        i += length;
    }
    out += '"';
}

std::string jsonString(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    appendJsonString(out, text);
    return out;
}

} // namespace kscope
