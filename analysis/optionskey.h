#pragma once

// The canonical text of an analysis's options: every field of the options struct, in order,
// found without naming them (an aggregate's fields through structured bindings), so a cache keyed
// by it cannot serve one option's result for another: a field added to the struct is in the key
// by construction. Qt-free: the GUI's result cache and, later, the findings engine key by it.
//
// Fields may be arithmetic, enums, strings, paths, std::optional, std::vector, or aggregates of
// these (recursively); a struct of more than kMaxOptionFields fields fails to compile.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace kscope {

namespace options_key_detail {

inline constexpr size_t kMaxOptionFields = 16;

// Converts to anything a field could be (for counting an aggregate's fields).
struct AnyField {
    template <typename T>
    operator T() const;
};

template <typename T, typename... Fields>
concept BraceConstructible = requires { T{std::declval<Fields>()...}; };

template <typename T, size_t... I>
constexpr bool constructibleFrom(std::index_sequence<I...>)
{
    return BraceConstructible<T, decltype((void)I, AnyField{})...>;
}

// The number of fields of an aggregate: the most initializers it takes.
template <typename T, size_t N = kMaxOptionFields>
constexpr size_t fieldCount()
{
    if constexpr (N == 0)
        return 0;
    else if constexpr (constructibleFrom<T>(std::make_index_sequence<N>{}))
        return N;
    else
        return fieldCount<T, N - 1>();
}

template <typename T>
struct IsVector : std::false_type {};
template <typename T, typename A>
struct IsVector<std::vector<T, A>> : std::true_type {};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <typename T>
void append(std::string& out, const T& value);

// Calls fn on every field of an aggregate, in declaration order (mutable fields of a mutable one).
template <typename T, typename Fn>
void forEachField(T& v, Fn&& fn)
{
    constexpr size_t n = fieldCount<std::remove_const_t<T>>();
    static_assert(n > 0 || std::is_empty_v<std::remove_const_t<T>>, "options must be an aggregate");
    static_assert(n < kMaxOptionFields, "options struct with too many fields for optionsKey()");
    // clang-format off
    if constexpr (n == 1) { auto& [a] = v; fn(a); }
    else if constexpr (n == 2) { auto& [a, b] = v; fn(a); fn(b); }
    else if constexpr (n == 3) { auto& [a, b, c] = v; fn(a); fn(b); fn(c); }
    else if constexpr (n == 4) { auto& [a, b, c, d] = v; fn(a); fn(b); fn(c); fn(d); }
    else if constexpr (n == 5) { auto& [a, b, c, d, e] = v; fn(a); fn(b); fn(c); fn(d); fn(e); }
    else if constexpr (n == 6) { auto& [a, b, c, d, e, f] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); }
    else if constexpr (n == 7) { auto& [a, b, c, d, e, f, g] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); }
    else if constexpr (n == 8) { auto& [a, b, c, d, e, f, g, h] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); fn(h); }
    else if constexpr (n == 9) { auto& [a, b, c, d, e, f, g, h, i] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); fn(h); fn(i); }
    else if constexpr (n == 10) { auto& [a, b, c, d, e, f, g, h, i, j] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); fn(h); fn(i); fn(j); }
    else if constexpr (n == 11) { auto& [a, b, c, d, e, f, g, h, i, j, k] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); fn(h); fn(i); fn(j); fn(k); }
    else if constexpr (n == 12) { auto& [a, b, c, d, e, f, g, h, i, j, k, l] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); fn(h); fn(i); fn(j); fn(k); fn(l); }
    else if constexpr (n == 13) { auto& [a, b, c, d, e, f, g, h, i, j, k, l, m] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); fn(h); fn(i); fn(j); fn(k); fn(l); fn(m); }
    else if constexpr (n == 14) { auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, o] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); fn(h); fn(i); fn(j); fn(k); fn(l); fn(m); fn(o); }
    else if constexpr (n == 15) { auto& [a, b, c, d, e, f, g, h, i, j, k, l, m, o, p] = v; fn(a); fn(b); fn(c); fn(d); fn(e); fn(f); fn(g); fn(h); fn(i); fn(j); fn(k); fn(l); fn(m); fn(o); fn(p); }
    // clang-format on
}

inline void appendText(std::string& out, std::string_view text)
{
    // Length-prefixed: no text can forge a field boundary.
    out += std::to_string(text.size());
    out += ':';
    out += text;
}

template <typename T>
void append(std::string& out, const T& value)
{
    using V = std::remove_cvref_t<T>;
    if constexpr (std::is_same_v<V, bool>) {
        out += value ? 'T' : 'F';
    } else if constexpr (std::is_enum_v<V>) {
        out += 'e' + std::to_string(static_cast<std::underlying_type_t<V>>(value));
    } else if constexpr (std::is_floating_point_v<V>) {
        out += 'd' + std::to_string(std::bit_cast<uint64_t>(static_cast<double>(value)));  // exact, -0 != 0
    } else if constexpr (std::is_integral_v<V>) {
        out += 'i' + std::to_string(value);
    } else if constexpr (std::is_convertible_v<const V&, std::string_view>) {
        out += 's';
        appendText(out, std::string_view(value));
    } else if constexpr (std::is_same_v<V, std::filesystem::path>) {
        out += 'p';
        appendText(out, value.native());
    } else if constexpr (IsOptional<V>::value) {
        if (!value) {
            out += 'n';
        } else {
            out += 'o';
            append(out, *value);
        }
    } else if constexpr (IsVector<V>::value) {
        out += 'v' + std::to_string(value.size()) + '[';
        for (const auto& item : value)
            append(out, item);
        out += ']';
    } else {
        static_assert(std::is_aggregate_v<V>, "an option field optionsKey() cannot spell");
        out += '{';
        forEachField(value, [&out](const auto& field) {
            append(out, field);
            out += ',';
        });
        out += '}';
    }
}

} // namespace options_key_detail

// "{T,i3,d4629700416936869888,v1[i0],}" for {true, 3, 30.0, {0}}: equal exactly when every field is.
template <typename Options>
std::string optionsKey(const Options& options)
{
    std::string out;
    options_key_detail::append(out, options);
    return out;
}

} // namespace kscope
