#include "plots/timelinewidget.h"

#include "common/filewriting.h"
#include "common/format.h"
#include "plots/palette.h"

#include <QContextMenuEvent>
#include <QFileDialog>
#include <QKeyEvent>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace kscope {

namespace {

constexpr int kLabelWidth = 170;
constexpr int kOverviewHeight = 14;
constexpr int kAxisHeight = 30;  // step numbers above, times below
constexpr int kRowHeight = 16;
constexpr int kHeaderHeight = 18;
constexpr qint64 kMinWindowNs = 50;
constexpr int kDragThreshold = 4;  // pixels before a press is a drag, not a click

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

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent), m_scroll(new QScrollBar(Qt::Vertical, this))
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(300, 120);
    setAttribute(Qt::WA_OpaquePaintEvent);
    connect(m_scroll, &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    m_message = tr("No run loaded");
}

void TimelineWidget::setData(std::shared_ptr<const Run> slice, std::shared_ptr<const TimelineIndex> index)
{
    const bool sameRun = m_run && slice && m_run->folder == slice->folder && m_originNs == slice->minTsNs;
    m_run = std::move(slice);
    m_index = std::move(index);
    m_types = m_run ? std::make_unique<KernelTypeCache>(m_run->strings) : nullptr;
    m_message = !m_index || m_index->rows.empty() ? tr("No event to draw in what is shown") : QString();
    m_originNs = m_run ? m_run->minTsNs : 0;
    m_selected.reset();  // rows of another table: the view sets it again
    m_selectedRow = -1;
    m_runFromNs = m_index ? m_index->beginNs - m_originNs : 0;
    m_runToNs = m_index ? std::max(m_index->endNs - m_originNs, m_runFromNs + kMinWindowNs) : 1;
    layoutLines();
    // A step chosen or the mode toggled on the same run keeps the window where it still fits.
    if (!sameRun || m_toNs <= m_runFromNs || m_fromNs >= m_runToNs)
        showWholeRun();
    else
        setWindow(m_fromNs, m_toNs);
    update();
}

void TimelineWidget::clear(const QString& message)
{
    m_run.reset();
    m_index.reset();
    m_types.reset();
    m_lines.clear();
    m_message = message;
    m_itemsDrawn = 0;
    updateScrollBar();
    update();
}

void TimelineWidget::setSelectedEvent(std::optional<EventRef> event)
{
    m_selected = event;
    m_selectedRow = -1;
    if (m_selected && m_index)
        for (size_t r = 0; r < m_index->rows.size() && m_selectedRow < 0; ++r) {
            const TimelineRow& row = m_index->rows[r];
            if (row.rank == m_selected->rank && std::find(row.events.begin(), row.events.end(), m_selected->event) != row.events.end())
                m_selectedRow = int(r);
        }
    update();
}

void TimelineWidget::setTimeRange(qint64 fromNs, qint64 toNs)
{
    m_rangeFromNs = fromNs;
    m_rangeToNs = toNs;
    update();
}

void TimelineWidget::setWindow(qint64 fromNs, qint64 toNs)
{
    const qint64 runLength = m_runToNs - m_runFromNs;
    qint64 length = std::clamp<qint64>(toNs - fromNs, kMinWindowNs, std::max<qint64>(runLength, kMinWindowNs));
    fromNs = std::clamp<qint64>(fromNs, m_runFromNs, std::max(m_runFromNs, m_runToNs - length));
    if (fromNs == m_fromNs && fromNs + length == m_toNs)
        return;
    m_fromNs = fromNs;
    m_toNs = fromNs + length;
    update();
    emit windowChanged();
}

void TimelineWidget::showWholeRun()
{
    const qint64 margin = (m_runToNs - m_runFromNs) / 100;
    m_fromNs = m_runFromNs - margin;  // the whole run with a little air; setWindow would clamp it
    m_toNs = m_runToNs + margin;
    update();
    emit windowChanged();
}

void TimelineWidget::showSpan(qint64 fromNs, qint64 toNs)
{
    const qint64 length = std::max<qint64>(toNs - fromNs, kMinWindowNs);
    setWindow(fromNs - length / 8, toNs + length / 8);
}

void TimelineWidget::setCpuThreadsShown(RankIndex rank, bool shown)
{
    if (shown)
        m_cpuShown.insert(rank.value);
    else
        m_cpuShown.remove(rank.value);
    layoutLines();
    update();
}

QImage TimelineWidget::toImage(QSize minimum) const
{
    // Painted straight into the image at its size: the same drawing as on screen, without
    // resizing the widget in its dock.
    auto* self = const_cast<TimelineWidget*>(this);
    const QSize canvas = size().expandedTo(minimum);
    QImage image(canvas, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter p(&image);
    self->m_imageSize = canvas;
    self->paintCanvas(p);
    self->m_imageSize = QSize();
    return image;
}

bool TimelineWidget::exportPng(const QString& path, QString* error) const
{
    return writePngFile(toImage(QSize(1400, 700)), path, error);
}

void TimelineWidget::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    QAction* save = menu.addAction(tr("Export as PNG…"));
    QAction* whole = menu.addAction(tr("Show the whole run (Home)"));
    QAction* chosen = menu.exec(event->globalPos());
    if (chosen == whole)
        showWholeRun();
    if (chosen != save)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Timeline"), QStringLiteral("timeline.png"), tr("PNG image (*.png)"));
    QString error;
    if (!path.isEmpty() && !exportPng(path, &error))
        QMessageBox::warning(this, tr("Export Timeline"), error);
}

void TimelineWidget::setCpuThreadsShownEverywhere(bool shown)
{
    m_cpuShown.clear();
    if (shown && m_run)
        for (size_t r = 0; r < m_run->ranks.size(); ++r)
            m_cpuShown.insert(static_cast<quint32>(r));
    layoutLines();
    update();
}

void TimelineWidget::layoutLines()
{
    m_lines.clear();
    if (!m_run || !m_index)
        return updateScrollBar();
    int y = 0;
    const auto add = [&](LineKind kind, RankIndex rank, int row, int height) {
        m_lines.push_back({kind, rank, row, y, height});
        y += height;
    };
    const std::vector<TimelineRow>& rows = m_index->rows;
    for (size_t r = 0; r < rows.size();) {
        const RankIndex rank = rows[r].rank;
        size_t end = r;
        while (end < rows.size() && rows[end].rank == rank)
            ++end;
        add(LineKind::RankHeader, rank, -1, kHeaderHeight);
        if (!m_foldedRanks.contains(rank.value)) {
            bool cpuHeader = false;
            for (size_t k = r; k < end; ++k) {
                if (rows[k].kind == TimelineRowKind::CpuThread) {
                    if (!cpuHeader) {
                        add(LineKind::CpuHeader, rank, -1, kHeaderHeight);
                        cpuHeader = true;
                    }
                    if (!m_cpuShown.contains(rank.value))
                        continue;
                }
                add(LineKind::Row, rank, int(k), kRowHeight);
            }
        }
        r = end;
    }
    updateScrollBar();
}

QRect TimelineWidget::rowsRect() const
{
    const int top = kOverviewHeight + kAxisHeight;
    const QSize canvas = m_imageSize.isValid() ? m_imageSize : size();
    const int scrollBar = m_imageSize.isValid() ? 0 : m_scroll->width();  // a picture has none
    return QRect(0, top, canvas.width() - scrollBar, std::max(0, canvas.height() - top));
}

void TimelineWidget::updateScrollBar()
{
    const int content = m_lines.empty() ? 0 : m_lines.back().y + m_lines.back().height;
    const QRect area = rowsRect();
    m_scroll->setGeometry(width() - m_scroll->sizeHint().width(), area.top(), m_scroll->sizeHint().width(), area.height());
    m_scroll->setRange(0, std::max(0, content - area.height()));
    m_scroll->setPageStep(std::max(1, area.height()));
    m_scroll->setSingleStep(kRowHeight);
}

void TimelineWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    updateScrollBar();
}

double TimelineWidget::nsPerPixel() const
{
    const int plotWidth = std::max(1, rowsRect().width() - kLabelWidth);
    return double(m_toNs - m_fromNs) / plotWidth;
}

double TimelineWidget::xOf(qint64 relNs) const
{
    return kLabelWidth + double(relNs - m_fromNs) / nsPerPixel();
}

qint64 TimelineWidget::nsAt(double x) const
{
    return m_fromNs + qint64(std::llround((x - kLabelWidth) * nsPerPixel()));
}

const TimelineWidget::Line* TimelineWidget::lineAt(int y) const
{
    const int content = y - rowsRect().top() + m_scroll->value();
    for (const Line& line : m_lines)
        if (content >= line.y && content < line.y + line.height)
            return &line;
    return nullptr;
}

std::optional<TimelineWidget::Hit> TimelineWidget::hitAt(QPoint point) const
{
    const Line* line = lineAt(point.y());
    if (!line || line->kind != LineKind::Row || point.x() < kLabelWidth || !m_run)
        return std::nullopt;
    const TimelineRow& row = m_index->rows[size_t(line->row)];
    // What is drawn within two pixels of the cursor; the nearest wins.
    const qint64 at = nsAt(point.x()) + m_originNs;
    const auto slack = qint64(std::ceil(2 * nsPerPixel()));
    std::optional<Hit> best;
    qint64 bestDistance = 0;
    for (const TimelineItem& item : timelineItems(*m_run, row, at - slack, at + slack + 1, nsPerPixel())) {
        const qint64 distance = at < item.startNs ? item.startNs - at : at > item.endNs ? at - item.endNs : 0;
        if (!best || distance < bestDistance) {
            best = Hit{line, item};
            bestDistance = distance;
        }
    }
    return best;
}

std::optional<EventRef> TimelineWidget::eventAt(QPoint point) const
{
    const std::optional<Hit> hit = hitAt(point);
    if (!hit)
        return std::nullopt;
    return EventRef{hit->line->rank, hit->item.longest};
}

QPoint TimelineWidget::pointOf(EventRef event) const
{
    if (!m_run || !m_run->has(event.rank))
        return {};
    const EventTable& t = m_run->at(event.rank).events;
    for (const Line& line : m_lines) {
        if (line.kind != LineKind::Row || line.rank != event.rank)
            continue;
        const std::vector<EventIndex>& events = m_index->rows[size_t(line.row)].events;
        if (std::find(events.begin(), events.end(), event.event) == events.end())
            continue;  // another row of the rank
        const double x0 = xOf(t.tsNs[event.event] - m_originNs), x1 = xOf(t.endNs(event.event) - m_originNs);
        return QPoint(int((x0 + x1) / 2), rowsRect().top() + line.y - m_scroll->value() + line.height / 2);
    }
    return {};
}

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

void TimelineWidget::zoomAround(double x, double factor)
{
    const qint64 at = nsAt(std::max<double>(x, kLabelWidth));
    const double left = double(at - m_fromNs) * factor, right = double(m_toNs - at) * factor;
    setWindow(at - qint64(left), at + qint64(right));
}

void TimelineWidget::panBy(double pixels)
{
    const auto shift = qint64(pixels * nsPerPixel());
    setWindow(m_fromNs + shift, m_toNs + shift);
}

void TimelineWidget::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (event->modifiers() & Qt::ShiftModifier)
        m_scroll->setValue(m_scroll->value() - int(steps * 3 * kRowHeight));
    else if (steps != 0)
        zoomAround(event->position().x(), std::pow(0.8, steps));
    event->accept();
}

void TimelineWidget::keyPressEvent(QKeyEvent* event)
{
    const double centre = kLabelWidth + (rowsRect().width() - kLabelWidth) / 2.0;
    const double width = rowsRect().width() - kLabelWidth;
    switch (event->key()) {
    case Qt::Key_W: zoomAround(centre, 0.7); break;
    case Qt::Key_S: zoomAround(centre, 1 / 0.7); break;
    case Qt::Key_A: panBy(-width / 8); break;
    case Qt::Key_D: panBy(width / 8); break;
    case Qt::Key_Home: showWholeRun(); break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    const QPoint at = event->position().toPoint();
    if (at.y() < kOverviewHeight && m_runToNs > m_runFromNs) {
        // The overview strip: centre the window where it was clicked.
        const double share = double(at.x() - kLabelWidth) / std::max(1, rowsRect().width() - kLabelWidth);
        const qint64 centre = m_runFromNs + qint64(share * double(m_runToNs - m_runFromNs));
        const qint64 half = (m_toNs - m_fromNs) / 2;
        setWindow(centre - half, centre + half);
        return;
    }
    m_pressed = true;
    m_dragged = false;
    m_pressAt = at;
    m_pressFromNs = m_fromNs;
    m_selectingRange = event->modifiers() & Qt::ShiftModifier;
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint at = event->position().toPoint();
    if (m_pressed) {
        if (!m_dragged && (at - m_pressAt).manhattanLength() >= kDragThreshold)
            m_dragged = true;
        if (m_dragged && !m_selectingRange) {
            const auto shift = qint64((m_pressAt.x() - at.x()) * nsPerPixel());
            setWindow(m_pressFromNs + shift, m_pressFromNs + shift + (m_toNs - m_fromNs));
        } else if (m_dragged) {
            m_rangeFromNs = std::min(nsAt(m_pressAt.x()), nsAt(at.x()));
            m_rangeToNs = std::max(nsAt(m_pressAt.x()), nsAt(at.x()));
            update();
        }
        return;
    }
    if (const std::optional<Hit> hit = hitAt(at))
        QToolTip::showText(event->globalPosition().toPoint(), tooltipOf(*hit), this);
    else
        QToolTip::hideText();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton || !m_pressed)
        return QWidget::mouseReleaseEvent(event);
    m_pressed = false;
    const QPoint at = event->position().toPoint();
    if (m_dragged) {
        if (m_selectingRange && m_rangeToNs > m_rangeFromNs)
            emit rangeSelected(m_rangeFromNs, m_rangeToNs);
        return;
    }
    const Line* line = lineAt(at.y());
    if (line && line->kind != LineKind::Row && at.x() < kLabelWidth + 40) {
        QSet<quint32>& folds = line->kind == LineKind::RankHeader ? m_foldedRanks : m_cpuShown;
        if (!folds.remove(line->rank.value))
            folds.insert(line->rank.value);
        layoutLines();
        update();
        return;
    }
    if (const std::optional<EventRef> picked = eventAt(at))
        emit eventClicked(picked->rank.value, picked->event);
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* event)
{
    const std::optional<Hit> hit = hitAt(event->position().toPoint());
    if (!hit)
        return QWidget::mouseDoubleClickEvent(event);
    showSpan(hit->item.startNs - m_originNs, hit->item.endNs - m_originNs);
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
