#pragma once

#include <QString>

#include <cstdint>
#include <string_view>

namespace kscope::fmt {

// The one place engine strings become QString (UTF-8 in the trace).
inline QString qstr(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// Exact microseconds of a nanosecond count ("1,234.567 µs"), for tooltips and tables.
QString micros(double ns);
// A readable duration with a unit chosen by size ("12.3 ms"), for labels.
QString duration(double ns);
// Four significant digits with a unit, for dense table cells (exact value in the tooltip).
QString compact(double ns);
QString percent(double value, int decimals = 2);
// Decimal units (1 MB = 10^6 bytes), as the load progress counts them.
QString bytes(uint64_t bytes);
// Long kernel names elided in the middle: both the prefix and the template tail matter.
QString elided(const QString& text, int maxChars = 48);

} // namespace kscope::fmt

namespace kscope::fmt {

// "1 rank", "8 ranks": English plurals without a translator (tr's %n needs one).
QString count(qint64 n, const char* singular, const char* plural);
// Long names without spaces (kernels) as a tooltip that wraps at the screen's width.
QString wrappedTooltip(const QString& text);

} // namespace kscope::fmt
