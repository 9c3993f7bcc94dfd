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
    case LineKind::Counter: return QStringLiteral("    ") + fmt::qstr((*m_counters)[size_t(line.row)].label);
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
    // Kineto names threads "thread 123 (python)" already; a bare tid gets the word.
    const QString named = thread.startsWith(QLatin1String("thread")) ? thread : tr("thread %1").arg(thread);
    return row.depth == 0 ? QStringLiteral("      ") + named : tr("      %1 · %2").arg(named).arg(row.depth);
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

namespace {

QString counterValue(const CounterTrack& track, double value)
{
    switch (track.kind) {
    case CounterKind::QueueLength: return QString::number(qint64(value));
    case CounterKind::MemcpyBandwidth: return QStringLiteral("%1 GB/s").arg(QString::number(value, 'g', 3));
    case CounterKind::AllocatedMemory: return fmt::bytes(uint64_t(std::max(0.0, value)));
    }
    return {};
}

} // namespace

QString TimelineWidget::tooltipAt(QPoint point) const
{
    const Line* line = lineAt(point.y());
    if (line && line->kind == LineKind::Counter && point.x() >= kLabelWidth && m_counters) {
        const CounterTrack& track = (*m_counters)[size_t(line->row)];
        const qint64 at = nsAt(point.x()) + m_originNs + shiftOf(line->rank);
        const auto it = std::upper_bound(track.tsNs.begin(), track.tsNs.end(), at);
        if (it == track.tsNs.begin())
            return tr("<b>%1</b><br>nothing recorded yet").arg(fmt::qstr(track.label).toHtmlEscaped());
        const size_t i = size_t(it - track.tsNs.begin()) - 1;
        return tr("<b>%1</b><br>%2 from %3 (max %4)")
            .arg(fmt::qstr(track.label).toHtmlEscaped(), counterValue(track, track.value[i]),
                 fmt::micros(double(track.tsNs[i] - m_originNs)), counterValue(track, track.maxValue));
    }
    const std::optional<Hit> hit = hitAt(point);
    if (!hit)
        return {};
    QString text = tooltipOf(*hit);
    if (hit->item.isEvent() && m_hoverNote)
        if (const QString note = m_hoverNote(EventRef{hit->line->rank, hit->item.longest}); !note.isEmpty())
            text += QStringLiteral("<br>") + note;
    return text;
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
        // The launch delay as the Kernel launches view counts it: from the call's end to the start.
        text += tr("<br>launched by %1 at %2, launch delay %3")
                    .arg(fmt::qstr(m_run->str(t.name[launch])).toHtmlEscaped(), fmt::micros(double(t.tsNs[launch] - m_originNs)),
                         fmt::duration(double(std::max<int64_t>(0, t.tsNs[e] - t.endNs(launch)))));
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
            const double x0 = xOfEvent(RankIndex{0}, step.startNs), x1 = xOfEvent(RankIndex{0}, step.endNs);
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
    if (line.kind == LineKind::Counter)
        return paintCounter(p, line, y);
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
    const qint64 shift = m_originNs + shiftOf(row.rank);
    const std::vector<TimelineItem> items = timelineItems(*m_run, row, m_fromNs + shift, m_toNs + shift, nsPerPixel());
    m_itemsDrawn += items.size();
    const EventTable& t = m_run->at(row.rank).events;
    p.setClipRect(QRect(kLabelWidth, y, rows.width() - kLabelWidth, line.height));
    for (const TimelineItem& item : items) {
        const double x0 = std::max<double>(xOf(item.startNs - shift), kLabelWidth - 1);
        const double x1 = std::min<double>(xOf(item.endNs - shift), rows.width() + 1);
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
        const qint64 markShift = shiftOf(mark.rank);
        const double x0 = xOf(mark.startNs - markShift), wait = xOf(mark.waitEndNs - markShift), x1 = xOf(mark.endNs - markShift);
        if (wait > x0)  // waiting for the last rank: hatched red
            p.fillRect(QRectF(x0, y + 1, wait - x0, line.height - 2), QBrush(QColor(200, 30, 30, 150), Qt::BDiagPattern));
        p.setPen(QPen(QColor(170, 20, 20), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0 - 1, y, std::max(2.0, x1 - x0 + 2), line.height - 1));
    }
    for (size_t k = 0; k < m_path.size(); ++k) {
        if (m_pathRows[k] != line.row)
            continue;
        const double x0 = xOf(m_path[k].startNs - shiftOf(m_path[k].rank)), x1 = xOf(m_path[k].endNs - shiftOf(m_path[k].rank));
        if (x1 - x0 < 4) {  // too narrow to outline: a tick
            p.fillRect(QRectF(x0, y + 1, std::max(1.0, x1 - x0), line.height - 2), QColor(230, 110, 0, 200));
            continue;
        }
        p.fillRect(QRectF(x0, y + 1, x1 - x0, line.height - 2), QColor(255, 140, 0, 90));
        p.setPen(QPen(QColor(230, 110, 0), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0, y + 1, x1 - x0, line.height - 3));
    }
    if (m_selected && line.row == m_selectedRow) {
        const EventIndex e = m_selected->event;
        const double x0 = xOf(t.tsNs[e] - shift), x1 = xOf(t.endNs(e) - shift);
        p.setPen(QPen(QColor(10, 10, 10), 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x0 - 1, y, std::max(2.0, x1 - x0 + 2), line.height - 1));
    }
    p.setClipping(false);
}

void TimelineWidget::paintCounter(QPainter& p, const Line& line, int y)
{
    const QRect rows = rowsRect();
    const CounterTrack& track = (*m_counters)[size_t(line.row)];
    p.fillRect(QRect(0, y, rows.width(), line.height), QColor(248, 248, 250));
    p.setPen(QColor(70, 70, 80));
    p.drawText(QRect(4, y, kLabelWidth - 8, line.height), Qt::AlignLeft | Qt::AlignVCenter,
               fontMetrics().elidedText(labelOf(line), Qt::ElideRight, kLabelWidth - 8));
    const int plotWidth = rows.width() - kLabelWidth;
    if (plotWidth <= 0 || track.maxValue <= 0)
        return;
    const qint64 shift = m_originNs + shiftOf(line.rank);
    const std::vector<CounterColumn> columns = counterColumns(track, m_fromNs + shift, m_toNs + shift, plotWidth);
    m_itemsDrawn += columns.size();
    const QColor colour = track.kind == CounterKind::QueueLength      ? palette::series(0)
                          : track.kind == CounterKind::MemcpyBandwidth ? palette::series(2)
                                                                       : palette::series(3);
    const double height = line.height - 4;
    const double bottom = y + line.height - 2;
    // A column per pixel: filled up to the lowest value held there, a darker stroke to the highest;
    // batched into one polygon and one set of lines (a fill per column costs a 1,000-rank frame).
    QPolygonF area;
    QVector<QLineF> strokes;
    strokes.reserve(plotWidth);
    const auto close = [&] {
        if (area.size() > 1) {
            area << QPointF(area.back().x(), bottom) << QPointF(area.front().x(), bottom);
            QColor fill = colour;
            fill.setAlpha(110);
            p.setPen(Qt::NoPen);
            p.setBrush(fill);
            p.drawPolygon(area);
        }
        area.clear();
    };
    for (int c = 0; c < plotWidth; ++c) {
        const CounterColumn& column = columns[size_t(c)];
        if (!column.hasValue) {
            close();
            continue;
        }
        const double low = bottom - height * column.low / track.maxValue, high = bottom - height * column.high / track.maxValue;
        const double x = kLabelWidth + c;
        area << QPointF(x, low) << QPointF(x + 1, low);
        strokes.append(QLineF(x + 0.5, high, x + 0.5, std::max(high + 1, low)));
    }
    close();
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(colour, 1));
    p.drawLines(strokes);
    p.setPen(QColor(110, 110, 120));
    p.drawText(QRect(kLabelWidth + 4, y, plotWidth - 8, 12), Qt::AlignRight | Qt::AlignTop, counterValue(track, track.maxValue));
}

// The critical path: consecutive segments joined by a line, from one segment's end to the next
// one's start, across rows and ranks (a folded row joins at its header).
void TimelineWidget::paintPath(QPainter& p)
{
    if (m_path.empty())
        return;
    std::optional<QPointF> previous;
    bool hop = false;  // a segment without an event (a delay, a dependency, a cross-rank hop) since
    for (size_t k = 0; k < m_path.size(); ++k) {
        const PathMark& mark = m_path[k];
        if (mark.event == kNoEvent) {
            hop = true;  // drawn as the join, dashed
            continue;
        }
        const std::optional<int> y = centreYOfRow(mark.rank, m_pathRows[k]);
        if (!y) {
            previous.reset();
            continue;
        }
        const qint64 shift = shiftOf(mark.rank);
        const QPointF start(xOf(mark.startNs - shift), *y), end(xOf(mark.endNs - shift), *y);
        if (previous && (previous->y() != start.y() || std::fabs(previous->x() - start.x()) > 1)) {
            p.setPen(QPen(QColor(230, 110, 0, hop ? 230 : 150), hop ? 1.5 : 1, hop ? Qt::DashLine : Qt::SolidLine));
            p.drawLine(*previous, start);
        }
        previous = end;
        hop = false;
    }
}

// The selected event's launch -> GPU activity arrow (either end selected).
void TimelineWidget::paintFlowArrow(QPainter& p)
{
    m_flowDrawn = false;
    if (!m_selected || !m_run || !m_run->has(m_selected->rank))
        return;
    const EventTable& t = m_run->at(m_selected->rank).events;
    const EventIndex e = m_selected->event;
    if (e < 0 || size_t(e) >= t.size() || t.link[e] == kNoEvent)
        return;
    const bool selectedIsGpu = t.kind[e] == EventKind::Kernel || t.kind[e] == EventKind::Memcpy || t.kind[e] == EventKind::Memset;
    const EventIndex launch = selectedIsGpu ? t.link[e] : e, gpu = selectedIsGpu ? e : t.link[e];
    const RankIndex rank = m_selected->rank;
    const std::optional<int> from = centreYOfRow(rank, rowHolding(EventRef{rank, launch}));
    const std::optional<int> to = centreYOfRow(rank, rowHolding(EventRef{rank, gpu}));
    if (!from || !to)
        return;
    const QPointF a(xOfEvent(rank, t.tsNs[launch]), *from), b(xOfEvent(rank, t.tsNs[gpu]), *to);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(20, 90, 200), 1.5));
    p.drawLine(a, b);
    // The head, at the GPU activity's start.
    const double angle = std::atan2(b.y() - a.y(), b.x() - a.x());
    const QPointF left = b - QPointF(std::cos(angle - 0.45) * 8, std::sin(angle - 0.45) * 8);
    const QPointF right = b - QPointF(std::cos(angle + 0.45) * 8, std::sin(angle + 0.45) * 8);
    p.setBrush(QColor(20, 90, 200));
    p.drawPolygon(QPolygonF({b, left, right}));
    p.setBrush(Qt::NoBrush);
    p.setRenderHint(QPainter::Antialiasing, false);
    m_flowDrawn = true;
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
        // The session's time range, on each rank's own clock (ranks may be drawn shifted); the
        // span being dragged out is on the axis.
        if (m_rangeToNs > m_rangeFromNs) {
            const qint64 shift = m_pressed && m_dragged ? 0 : shiftOf(line.rank);
            const double x0 = std::max<double>(xOf(m_rangeFromNs - shift), kLabelWidth);
            const double x1 = std::min<double>(xOf(m_rangeToNs - shift), rows.right());
            if (x1 > x0) {
                QColor band = palette::selectionBand();
                band.setAlpha(70);
                p.fillRect(QRectF(x0, y, x1 - x0, line.height), band);
            }
        }
    }
    p.setClipRect(QRect(kLabelWidth, rows.top(), rows.width() - kLabelWidth, rows.height()));
    paintPath(p);
    paintFlowArrow(p);
    p.setClipping(false);
    p.setPen(QColor(200, 200, 208));
    p.drawLine(kLabelWidth - 1, rows.top(), kLabelWidth - 1, rows.bottom());
    paintOverview(p);
    paintAxis(p);
}

} // namespace kscope
