// The timeline's drawing: rows, axis, overview strip, and the texts of labels and tooltips
// (timelinewidget.cpp has its state and hands).

#include "plots/timelinewidget.h"

#include "common/format.h"
#include "plots/palette.h"

#include <QPainter>
#include <QScrollBar>

#include <algorithm>
#include <cmath>

namespace kscope {

namespace {

QColor cpuColour(std::string_view name)
{
    // A stable colour per name, muted so GPU work stands out.
    const size_t hash = std::hash<std::string_view>{}(name);
    return palette::series(int(hash % 8)).lighter(135);
}

// Tick spacing on the time axis: 1, 2 or 5 times a power of ten nanoseconds, at least minNs.
qint64 tickStep(double minNs)
{
    qint64 step = 1;
    while (true) {
        for (qint64 m : {1, 2, 5})
            if (double(step * m) >= minNs)
                return step * m;
        if (step > qint64(1e15))
            return step;
        step *= 10;
    }
}

QString tickLabel(qint64 ns, qint64 step)
{
    const auto label = [&](double unit, const char* suffix) {
        // As many decimals as the step needs in this unit.
        int decimals = 0;
        for (double s = double(step) / unit; decimals < 6 && std::fabs(s - std::round(s)) > 1e-9; s *= 10)
            ++decimals;
        return QString::number(double(ns) / unit, 'f', decimals) + QString::fromUtf8(suffix);
    };
    if (step >= 1000000000)
        return label(1e9, " s");
    if (step >= 1000000)
        return label(1e6, " ms");
    if (step >= 1000)
        return label(1e3, " µs");
    return label(1, " ns");
}

} // namespace

QString TimelineWidget::labelOf(const Line& line) const
{
    const QString rankName = fmt::qstr(m_run->rankName(line.rank));
    switch (line.kind) {
    case LineKind::RankHeader:
        return (m_foldedRanks.contains(line.rank.value) ? QStringLiteral("▸ ") : QStringLiteral("▾ ")) + tr("Rank %1").arg(rankName);
    case LineKind::CpuHeader:
        return (m_cpuShown.contains(line.rank.value) ? QStringLiteral("  ▾ ") : QStringLiteral("  ▸ ")) + tr("CPU threads");
    case LineKind::Row: break;
    }
    const TimelineRow& row = m_index->rows[size_t(line.row)];
    switch (row.kind) {
    case TimelineRowKind::GpuStream: return tr("    stream %1").arg(row.stream);
    case TimelineRowKind::GpuAnnotation:
        return row.stream >= 0 ? tr("    annotations %1").arg(row.stream) : tr("    GPU annotations");
    case TimelineRowKind::CpuThread: break;
    }
    const ThreadKey& key = m_run->at(row.rank).threads[row.thread];
    const QString thread = key.threadName ? fmt::qstr(m_run->str(key.threadName))
                           : key.tidName  ? fmt::qstr(m_run->str(key.tidName))
                                          : QString::number(key.tid);
    return row.depth == 0 ? tr("      thread %1").arg(thread) : tr("      %1 · %2").arg(thread).arg(row.depth);
}

QColor TimelineWidget::colourOf(const TimelineRow& row, const TimelineItem& item) const
{
    const EventTable& t = m_run->at(row.rank).events;
    const StringId name = t.name[item.longest];
    QColor colour;
    switch (row.kind) {
    case TimelineRowKind::GpuStream:
        colour = palette::kernelType(m_types->typeOf(name));
        break;
    case TimelineRowKind::GpuAnnotation:
        colour = palette::series(5).lighter(140);
        break;
    case TimelineRowKind::CpuThread:
        colour = cpuColour(m_run->str(name));
        break;
    }
    if (!item.isEvent()) {
        // A summary of narrow events: paler where they cover less of it.
        const double density = item.endNs > item.startNs ? double(item.busyNs) / double(item.endNs - item.startNs) : 1.0;
        colour.setAlphaF(0.35 + 0.65 * std::clamp(density, 0.0, 1.0));
    }
    return colour;
}

QString TimelineWidget::tooltipOf(const Hit& hit) const
{
    const TimelineRow& row = m_index->rows[size_t(hit.line->row)];
    const EventTable& t = m_run->at(row.rank).events;
    const TimelineItem& item = hit.item;
    const EventIndex e = item.longest;
    const QString name = fmt::elided(fmt::qstr(m_run->str(t.name[e])), 90).toHtmlEscaped();
    if (!item.isEvent())
        return tr("<b>%1 events</b> from %2, %3 busy of %4<br>longest: %5 (%6)")
            .arg(item.count)
            .arg(fmt::duration(double(item.startNs - m_originNs)), fmt::duration(double(item.busyNs)),
                 fmt::duration(double(item.endNs - item.startNs)), name, fmt::duration(double(t.durNs[e])));
    QString text = tr("<b>%1</b><br>start %2, duration %3").arg(name, fmt::micros(double(t.tsNs[e] - m_originNs)), fmt::micros(double(t.durNs[e])));
    if (row.kind != TimelineRowKind::CpuThread)
        text += tr("<br>stream %1").arg(t.stream[e]);
    if (t.correlation[e] >= 0)
        text += tr(", correlation %1").arg(t.correlation[e]);
    if (t.step[e] >= 0)
        text += tr("<br>ProfilerStep #%1").arg(t.step[e]);
    if (const EventIndex launch = t.link[e]; launch != kNoEvent && row.kind == TimelineRowKind::GpuStream)
        text += tr("<br>launched by %1, %2 before it started")
                    .arg(fmt::qstr(m_run->str(t.name[launch])).toHtmlEscaped(), fmt::duration(double(t.tsNs[e] - t.tsNs[launch])));
    return text;
}

void TimelineWidget::paintOverview(QPainter& p)
{
    const QRect strip(kLabelWidth, 1, rowsRect().width() - kLabelWidth, kOverviewHeight - 3);
    p.fillRect(strip, QColor(235, 236, 240));
    const double runLength = std::max<double>(1.0, double(m_runToNs - m_runFromNs));
    const double x0 = strip.left() + double(m_fromNs - m_runFromNs) / runLength * strip.width();
    const double x1 = strip.left() + double(m_toNs - m_runFromNs) / runLength * strip.width();
    p.fillRect(QRectF(std::max<double>(x0, strip.left()), strip.top(), std::max(2.0, std::min<double>(x1, strip.right()) - x0), strip.height()),
               palette::selectionBand());
    p.setPen(palette::selectionOutline());
    p.drawRect(QRectF(std::max<double>(x0, strip.left()), strip.top(), std::max(2.0, std::min<double>(x1, strip.right()) - x0), strip.height()));
}

void TimelineWidget::paintAxis(QPainter& p)
{
    const QRect axis(kLabelWidth, kOverviewHeight, rowsRect().width() - kLabelWidth, kAxisHeight);
    p.fillRect(QRect(0, kOverviewHeight, rowsRect().width(), kAxisHeight), palette().window());
    // ProfilerStep bands of the first rank, numbered where they fit.
    if (!m_run->ranks.empty())
        for (const ProfilerStep& step : m_run->ranks.front().steps) {
            const double x0 = xOf(step.startNs - m_originNs), x1 = xOf(step.endNs - m_originNs);
            if (x1 < axis.left() || x0 > axis.right())
                continue;
            const QRectF band(std::max<double>(x0, axis.left()), axis.top(), std::min<double>(x1, axis.right()) - std::max<double>(x0, axis.left()), axis.height());
            p.fillRect(band, step.number % 2 ? QColor(226, 232, 244) : QColor(238, 241, 248));
            if (band.width() > 50) {
                p.setPen(QColor(90, 100, 130));
                p.drawText(band.adjusted(3, 0, -3, -15), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("#%1").arg(step.number));
            }
        }
    const qint64 step = tickStep(nsPerPixel() * 90);
    p.setPen(QColor(60, 60, 70));
    for (qint64 t = (m_fromNs / step) * step; t <= m_toNs; t += step) {
        const double x = xOf(t);
        if (x < axis.left())
            continue;
        p.drawLine(QPointF(x, axis.bottom() - 5), QPointF(x, axis.bottom()));
        p.drawText(QRectF(x + 3, axis.top() + 14, 100, axis.height() - 14), Qt::AlignLeft | Qt::AlignVCenter, tickLabel(t, step));
    }
    p.drawLine(axis.bottomLeft(), axis.bottomRight());
}

void TimelineWidget::paintLine(QPainter& p, const Line& line, int y)
{
    const QRect rows = rowsRect();
    if (line.kind != LineKind::Row) {
        p.fillRect(QRect(0, y, rows.width(), line.height), line.kind == LineKind::RankHeader ? QColor(222, 226, 234) : QColor(236, 238, 242));
        p.setPen(QColor(30, 30, 40));
        QFont bold = font();
        bold.setBold(line.kind == LineKind::RankHeader);
        p.setFont(bold);
        p.drawText(QRect(4, y, rows.width() - 8, line.height), Qt::AlignLeft | Qt::AlignVCenter, labelOf(line));
        p.setFont(font());
        return;
    }
    const TimelineRow& row = m_index->rows[size_t(line.row)];
    p.setPen(QColor(70, 70, 80));
    p.drawText(QRect(4, y, kLabelWidth - 8, line.height), Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(labelOf(line), Qt::ElideRight, kLabelWidth - 8));
    const std::vector<TimelineItem> items = timelineItems(*m_run, row, m_fromNs + m_originNs, m_toNs + m_originNs, nsPerPixel());
    m_itemsDrawn += items.size();
    const EventTable& t = m_run->at(row.rank).events;
    p.setClipRect(QRect(kLabelWidth, y, rows.width() - kLabelWidth, line.height));
    for (const TimelineItem& item : items) {
        const double x0 = std::max<double>(xOf(item.startNs - m_originNs), kLabelWidth - 1);
        const double x1 = std::min<double>(xOf(item.endNs - m_originNs), rows.width() + 1);
        const QRectF box(x0, y + 1, std::max(1.0, x1 - x0), line.height - 2);
        p.fillRect(box, colourOf(row, item));
        if (item.isEvent() && box.width() > 28) {
            p.setPen(QColor(20, 20, 25));
            p.drawText(box.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                       fontMetrics().elidedText(fmt::qstr(m_run->str(t.name[item.longest])), Qt::ElideRight, int(box.width()) - 5));
        }
    }
    for (size_t k = 0; k < m_marks.size(); ++k) {
        if (m_markRows[k] != line.row)
            continue;
        const CollectiveMark& mark = m_marks[k];
        const double x0 = xOf(mark.startNs), wait = xOf(mark.waitEndNs), x1 = xOf(mark.endNs);
        if (wait > x0)  // waiting for the last rank: hatched red
            p.fillRect(QRectF(x0, y + 1, wait - x0, line.height - 2), QBrush(QColor(200, 30, 30, 150), Qt::BDiagPattern));
        p.setPen(QPen(QColor(170, 20, 20), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0 - 1, y, std::max(2.0, x1 - x0 + 2), line.height - 1));
    }
    if (m_selected && line.row == m_selectedRow) {
        const EventIndex e = m_selected->event;
        const double x0 = xOf(t.tsNs[e] - m_originNs), x1 = xOf(t.endNs(e) - m_originNs);
        p.setPen(QPen(QColor(10, 10, 10), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0 - 1, y, std::max(2.0, x1 - x0 + 2), line.height - 1));
    }
    p.setClipping(false);
}

void TimelineWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    paintCanvas(p);
}

void TimelineWidget::paintCanvas(QPainter& p)
{
    const QRect canvas(QPoint(0, 0), m_imageSize.isValid() ? m_imageSize : size());
    p.setFont(font());
    p.fillRect(canvas, palette().base());
    m_itemsDrawn = 0;
    if (!m_run || !m_index || !m_message.isEmpty()) {
        p.setPen(QColor(110, 110, 120));
        p.drawText(canvas, Qt::AlignCenter, m_message);
        return;
    }
    const QRect rows = rowsRect();
    p.setClipRect(rows);
    const int scrolled = m_scroll->value();
    for (const Line& line : m_lines) {
        const int y = rows.top() + line.y - scrolled;
        if (y + line.height < rows.top() || y > rows.bottom())
            continue;
        paintLine(p, line, y);
        p.setClipRect(rows);
    }
    // The session's time range, over every row.
    if (m_rangeToNs > m_rangeFromNs) {
        const double x0 = std::max<double>(xOf(m_rangeFromNs), kLabelWidth), x1 = std::min<double>(xOf(m_rangeToNs), rows.right());
        if (x1 > x0) {
            QColor band = palette::selectionBand();
            band.setAlpha(70);
            p.fillRect(QRectF(x0, rows.top(), x1 - x0, rows.height()), band);
        }
    }
    p.setClipping(false);
    p.setPen(QColor(200, 200, 208));
    p.drawLine(kLabelWidth - 1, rows.top(), kLabelWidth - 1, rows.bottom());
    paintOverview(p);
    paintAxis(p);
}

} // namespace kscope
