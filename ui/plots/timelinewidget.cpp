#include "plots/timelinewidget.h"

#include "common/filewriting.h"

#include <QContextMenuEvent>
#include <QDir>
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
    m_selected.reset();  // rows of another table: the view sets them again
    m_selectedRow = -1;
    m_marks.clear();
    m_markRows.clear();
    m_path.clear();
    m_pathRows.clear();
    if (m_run && m_shifts.size() != m_run->ranks.size())
        m_shifts.clear();
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
    m_lineOfRow.clear();
    m_headerLines.clear();
    m_message = message;
    m_itemsDrawn = 0;
    updateScrollBar();
    update();
}

int TimelineWidget::rowHolding(EventRef event) const
{
    if (!m_index || !m_run || !m_run->has(event.rank) || event.event < 0)
        return -1;
    const EventTable& t = m_run->at(event.rank).events;
    for (size_t r = 0; r < m_index->rows.size(); ++r) {
        const TimelineRow& row = m_index->rows[r];
        if (row.rank != event.rank)
            continue;
        // A row is by start: look where the event's start is, then along the ties.
        auto it = std::lower_bound(row.events.begin(), row.events.end(), t.tsNs[event.event],
                                   [&t](EventIndex e, qint64 ts) { return t.tsNs[e] < ts; });
        for (; it != row.events.end() && t.tsNs[*it] == t.tsNs[event.event]; ++it)
            if (*it == event.event)
                return int(r);
    }
    return -1;
}

void TimelineWidget::setSelectedEvent(std::optional<EventRef> event)
{
    m_selected = event;
    m_selectedRow = event ? rowHolding(*event) : -1;
    update();
}

void TimelineWidget::setCollectiveMarks(std::vector<CollectiveMark> marks)
{
    m_marks = std::move(marks);
    m_markRows.clear();
    for (const CollectiveMark& mark : m_marks)
        m_markRows.push_back(rowHolding(EventRef{mark.rank, mark.kernel}));
    update();
}

void TimelineWidget::setPathMarks(std::vector<PathMark> marks)
{
    m_path = std::move(marks);
    m_pathRows.clear();
    for (const PathMark& mark : m_path)
        m_pathRows.push_back(mark.event == kNoEvent ? -1 : rowHolding(EventRef{mark.rank, mark.event}));
    update();
}

void TimelineWidget::setCounterTracks(std::shared_ptr<const std::vector<CounterTrack>> tracks)
{
    m_counters = std::move(tracks);
    layoutLines();
    update();
}

void TimelineWidget::setRowFilter(const TimelineRowFilter& filter)
{
    m_filter = filter;
    layoutLines();
    update();
}

void TimelineWidget::setRankShifts(std::vector<qint64> shifts)
{
    m_shifts = std::move(shifts);
    update();
}

qint64 TimelineWidget::shiftOf(RankIndex rank) const
{
    return rank.value < m_shifts.size() ? m_shifts[rank.value] : 0;
}

void TimelineWidget::showEvent(EventRef event)
{
    if (!m_run || !m_run->has(event.rank) || event.event < 0 || size_t(event.event) >= m_run->at(event.rank).events.size())
        return;
    const EventTable& t = m_run->at(event.rank).events;
    const qint64 shift = m_originNs + shiftOf(event.rank);
    showSpan(t.tsNs[event.event] - shift, t.endNs(event.event) - shift);
}

void TimelineWidget::revealRank(RankIndex rank)
{
    for (const Line& line : m_lines)
        if (line.kind == LineKind::RankHeader && line.rank == rank) {
            const int top = m_scroll->value(), bottom = top + rowsRect().height();
            if (line.y < top || line.y + kHeaderHeight > bottom)
                m_scroll->setValue(line.y);
            return;
        }
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
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Timeline"), exportSuggestion(QStringLiteral("timeline.png")),
                                                      tr("PNG image (*.png)"));
    if (path.isEmpty())
        return;
    rememberExport(path);
    QString error;
    if (!exportPng(path, &error))
        QMessageBox::warning(this, tr("Export Timeline"), error);
    else
        QToolTip::showText(event->globalPos(), tr("Wrote %1").arg(QDir::toNativeSeparators(path)), this);
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
    m_lineOfRow.clear();
    m_headerLines.clear();
    if (!m_run || !m_index)
        return updateScrollBar();
    int y = 0;
    const auto add = [&](LineKind kind, RankIndex rank, int row, int height) {
        m_lines.push_back({kind, rank, row, y, height});
        y += height;
    };
    const std::vector<TimelineRow>& rows = m_index->rows;
    m_lineOfRow.assign(rows.size(), -1);
    m_headerLines.assign(m_run->ranks.size(), {-1, -1});
    // Counter tracks by rank (they are sorted by rank).
    size_t counter = 0;
    const size_t counters = m_counters ? m_counters->size() : 0;
    for (size_t r = 0; r < rows.size();) {
        const RankIndex rank = rows[r].rank;
        size_t end = r;
        while (end < rows.size() && rows[end].rank == rank)
            ++end;
        while (counter < counters && (*m_counters)[counter].rank < rank)
            ++counter;
        if (!m_filter.keepsRank(*m_run, rank)) {
            r = end;
            continue;
        }
        m_headerLines[rank.value].first = int(m_lines.size());
        add(LineKind::RankHeader, rank, -1, kHeaderHeight);
        if (!m_foldedRanks.contains(rank.value)) {
            bool cpuHeader = false;
            for (size_t k = r; k < end; ++k) {
                if (!m_filter.keeps(*m_run, rows[k]))
                    continue;
                if (rows[k].kind == TimelineRowKind::CpuThread) {
                    if (!cpuHeader) {
                        // The counters sit between the GPU rows and the CPU threads.
                        for (; counter < counters && (*m_counters)[counter].rank == rank; ++counter)
                            add(LineKind::Counter, rank, int(counter), kCounterHeight);
                        m_headerLines[rank.value].second = int(m_lines.size());
                        add(LineKind::CpuHeader, rank, -1, kHeaderHeight);
                        cpuHeader = true;
                    }
                    if (!m_cpuShown.contains(rank.value))
                        continue;
                }
                m_lineOfRow[k] = int(m_lines.size());
                add(LineKind::Row, rank, int(k), kRowHeight);
            }
            for (; counter < counters && (*m_counters)[counter].rank == rank; ++counter)
                add(LineKind::Counter, rank, int(counter), kCounterHeight);
        }
        r = end;
    }
    updateScrollBar();
}

int TimelineWidget::screenY(const Line& line) const
{
    return rowsRect().top() + line.y - m_scroll->value();
}

std::optional<int> TimelineWidget::centreYOfRow(RankIndex rank, int indexRow) const
{
    if (indexRow >= 0 && size_t(indexRow) < m_lineOfRow.size() && m_lineOfRow[size_t(indexRow)] >= 0) {
        const Line& line = m_lines[size_t(m_lineOfRow[size_t(indexRow)])];
        return screenY(line) + line.height / 2;
    }
    // Folded: the CPU threads' line for a thread, else the rank's header.
    if (rank.value >= m_headerLines.size())
        return std::nullopt;
    const bool cpu = indexRow >= 0 && m_index && m_index->rows[size_t(indexRow)].kind == TimelineRowKind::CpuThread;
    const auto [rankHeader, cpuHeader] = m_headerLines[rank.value];
    const int at = cpu && cpuHeader >= 0 ? cpuHeader : rankHeader;
    if (at < 0)
        return std::nullopt;
    const Line& header = m_lines[size_t(at)];
    return screenY(header) + header.height / 2;
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
    const qint64 at = nsAt(point.x()) + m_originNs + shiftOf(line->rank);
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
        const double x0 = xOfEvent(event.rank, t.tsNs[event.event]), x1 = xOfEvent(event.rank, t.endNs(event.event));
        return QPoint(int((x0 + x1) / 2), rowsRect().top() + line.y - m_scroll->value() + line.height / 2);
    }
    return {};
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
    case Qt::Key_Z:
        if (m_rangeToNs > m_rangeFromNs)
            showSpan(m_rangeFromNs, m_rangeToNs);
        break;
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
    m_selectingRange = event->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier);
    m_zoomingToBox = event->modifiers() & Qt::ControlModifier;
    m_sessionRangeFromNs = m_rangeFromNs;
    m_sessionRangeToNs = m_rangeToNs;
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
    if (const QString tip = tooltipAt(at); !tip.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), tip, this);
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
        if (m_zoomingToBox) {
            // Ctrl+drag: the window becomes the box; the session's span stays as it was.
            const qint64 from = m_rangeFromNs, to = m_rangeToNs;
            m_rangeFromNs = m_sessionRangeFromNs;
            m_rangeToNs = m_sessionRangeToNs;
            if (to > from)
                setWindow(from, to);
            update();
        } else if (m_selectingRange && m_rangeToNs > m_rangeFromNs) {
            // Read on the clock of the rank it was dragged over (ranks may be drawn shifted).
            const Line* over = lineAt(m_pressAt.y());
            const qint64 shift = over ? shiftOf(over->rank) : 0;
            emit rangeSelected(m_rangeFromNs + shift, m_rangeToNs + shift);
        }
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
    const qint64 shift = m_originNs + shiftOf(hit->line->rank);
    showSpan(hit->item.startNs - shift, hit->item.endNs - shift);
}

} // namespace kscope
