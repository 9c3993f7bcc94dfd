#include "common/format.h"

#include <QLocale>

#include <cmath>

namespace kscope::fmt {

QString micros(double ns)
{
    if (!std::isfinite(ns))
        return QStringLiteral("–");
    const double us = ns / 1000.0;
    const bool whole = std::fmod(ns, 1000.0) == 0.0;
    return QLocale::c().toString(us, 'f', whole ? 0 : 3) + QStringLiteral(" µs");
}

QString duration(double ns)
{
    if (!std::isfinite(ns))
        return QStringLiteral("–");
    const double a = std::abs(ns);
    if (a >= 1e9)
        return QString::number(ns / 1e9, 'f', 3) + QStringLiteral(" s");
    if (a >= 1e6)
        return QString::number(ns / 1e6, 'f', 2) + QStringLiteral(" ms");
    if (a >= 1e3)
        return QString::number(ns / 1e3, 'f', 1) + QStringLiteral(" µs");
    return QString::number(ns, 'f', 0) + QStringLiteral(" ns");
}

QString compact(double ns)
{
    if (!std::isfinite(ns))
        return QStringLiteral("–");
    const double a = std::abs(ns);
    const auto digits = [](double v) { return v >= 100 ? 1 : v >= 10 ? 2 : 3; };
    if (a >= 1e9)
        return QString::number(ns / 1e9, 'f', digits(a / 1e9)) + QStringLiteral(" s");
    if (a >= 1e6)
        return QString::number(ns / 1e6, 'f', digits(a / 1e6)) + QStringLiteral(" ms");
    if (a >= 1e3)
        return QString::number(ns / 1e3, 'f', digits(a / 1e3)) + QStringLiteral(" µs");
    return QString::number(ns, 'f', 0) + QStringLiteral(" ns");
}

QString percent(double value, int decimals)
{
    if (!std::isfinite(value))
        return QStringLiteral("–");
    return QString::number(value, 'f', decimals) + QLatin1Char('%');
}

QString bytes(uint64_t bytes)
{
    return QLocale::c().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeSIFormat);
}

QString elided(const QString& text, int maxChars)
{
    if (text.size() <= maxChars || maxChars < 5)
        return text;
    const int head = (maxChars - 1) * 2 / 3;
    const int tail = maxChars - 1 - head;
    return text.left(head) + QChar(0x2026) + text.right(tail);
}

} // namespace kscope::fmt

namespace kscope::fmt {

QString count(qint64 n, const char* singular, const char* plural)
{
    return QStringLiteral("%1 %2").arg(QLocale::c().toString(n), QString::fromUtf8(n == 1 ? singular : plural));
}

QString wrappedTooltip(const QString& text)
{
    // Rich text wraps; a zero-width space after separators gives kernel names places to break.
    QString html = text.toHtmlEscaped();
    for (const QString& separator : {QStringLiteral("::"), QStringLiteral(","), QStringLiteral("_"),
                                     QStringLiteral("&lt;"), QStringLiteral("(")})
        html.replace(separator, separator + QChar(0x200B));
    return QStringLiteral("<p style='white-space:pre-wrap'>") + html + QStringLiteral("</p>");
}

} // namespace kscope::fmt
