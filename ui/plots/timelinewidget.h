#pragma once

#ifndef Q_MOC_RUN  // moc cannot parse <compare>'s concepts (model/ids.h); it needs none of these
#include "analysis/core/kerneltype.h"
#include "analysis/timeline/timelineindex.h"
#include "analysis/timeline/timelinetracks.h"
#include "model/trace.h"
#endif

#include <QSet>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QScrollBar;

namespace kscope {

// The timeline's canvas: every rank of a run (or step slice) on one time axis, a header per rank
// (click folds it), its GPU streams and annotation lanes, and its CPU threads by call depth
// (folded under a "CPU threads" line until opened). It draws what the timeline index returns for
// the visible window, so a frame costs a few rectangles per pixel column whatever the zoom.
//
// Hands: wheel zooms at the cursor (Shift+wheel scrolls the rows), drag pans, Shift+drag selects a
// time range, Ctrl+drag zooms to the range dragged out, a click selects the event under the
// cursor, a double click zooms to it, W/S zoom, A/D pan, Z zooms to the selected span, Home shows
// the whole run; a click in the overview strip centres the window there.
// Times on the axis and in signals are nanoseconds since the run's earliest event; with ranks
// aligned (setRankShifts) each rank is drawn shifted, and a span dragged out on a rank's row is
// read on that rank's clock.
class TimelineWidget : public QWidget {
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget* parent = nullptr);

    void setData(std::shared_ptr<const Run> slice, std::shared_ptr<const TimelineIndex> index);
    void clear(const QString& message);
    QString message() const { return m_message; }

    // The session's selection, drawn: an event (a row of the slice's table) and a time range.
    void setSelectedEvent(std::optional<EventRef> event);
    void setTimeRange(qint64 fromNs, qint64 toNs);  // empty: none
    // One rank's part in the collective instance of the selected kernel, drawn on every rank: its
    // kernel outlined, its wait for the last rank shaded. Times since the run's earliest event.
    struct CollectiveMark {
        RankIndex rank;
        EventIndex kernel = kNoEvent;
        qint64 startNs = 0;
        qint64 waitEndNs = 0;
        qint64 endNs = 0;
    };
    void setCollectiveMarks(std::vector<CollectiveMark> marks);
    size_t collectiveMarkCount() const { return m_marks.size(); }
    // A chain drawn over the rows (the critical path): each segment's event outlined, consecutive
    // segments joined, in order. Times since the run's earliest event.
    struct PathMark {
        RankIndex rank;
        EventIndex event = kNoEvent;  // kNoEvent: a hop between events (drawn as the join only)
        qint64 startNs = 0;
        qint64 endNs = 0;
    };
    void setPathMarks(std::vector<PathMark> marks);
    size_t pathMarkCount() const { return m_path.size(); }
    // Counter tracks drawn under their rank's streams (empty: none).
    void setCounterTracks(std::shared_ptr<const std::vector<CounterTrack>> tracks);
    // Rows shown (ranks and streams); a rank filtered out is not drawn at all.
    void setRowFilter(const TimelineRowFilter& filter);
    // Per rank (run order), nanoseconds subtracted from its events when drawn (empty: none).
    void setRankShifts(std::vector<qint64> shifts);
    qint64 shiftOf(RankIndex rank) const;
    // More for an event's tooltip (a collective's group, Seq, bytes and wait), HTML.
    void setHoverNote(std::function<QString(EventRef)> note) { m_hoverNote = std::move(note); }
    QString tooltipAt(QPoint point) const;
    // Zooms to an event, shifted as its rank is drawn.
    void showEvent(EventRef event);
    // Scrolls the rows so that the rank's header is at the top, unless it is already in view.
    void revealRank(RankIndex rank);
    // Whether the launch -> kernel arrow of the selected event is drawn (it has a partner on screen).
    bool flowArrowDrawn() const { return m_flowDrawn; }

    // The visible window; setWindow keeps it inside the run and at least a few ns wide.
    qint64 windowFromNs() const { return m_fromNs; }
    qint64 windowToNs() const { return m_toNs; }
    void setWindow(qint64 fromNs, qint64 toNs);
    void showWholeRun();
    // Zooms so the span fills most of the width (drill-downs land here).
    void showSpan(qint64 fromNs, qint64 toNs);

    // The timeline as drawn, at least `minimum` large (drawn at that size for the picture).
    QImage toImage(QSize minimum) const;
    // Rows laid out now (rank headers, "CPU threads" lines and event rows), for tests.
    int lineCount() const { return int(m_lines.size()); }
    void setCpuThreadsShown(RankIndex rank, bool shown);
    void setCpuThreadsShownEverywhere(bool shown);
    // The right-click menu's "Export as PNG…", without the dialog.
    bool exportPng(const QString& path, QString* error = nullptr) const;
    // Items drawn in the last frame.
    size_t itemsDrawn() const { return m_itemsDrawn; }
    // The event drawn at a point, if any (for tests and the tooltip).
    std::optional<EventRef> eventAt(QPoint point) const;
    QPoint pointOf(EventRef event) const;  // the middle of an event's rectangle, if on screen

signals:
    void eventClicked(quint32 rank, qint32 row);
    void rangeSelected(qint64 fromNs, qint64 toNs);
    void windowChanged();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    static constexpr int kLabelWidth = 170;
    static constexpr int kOverviewHeight = 14;
    static constexpr int kAxisHeight = 30;  // step numbers above, times below
    static constexpr int kRowHeight = 16;
    static constexpr int kHeaderHeight = 18;
    static constexpr qint64 kMinWindowNs = 50;
    static constexpr int kDragThreshold = 4;  // pixels before a press is a drag, not a click

    static constexpr int kCounterHeight = 26;
    enum class LineKind { RankHeader, CpuHeader, Row, Counter };
    struct Line {
        LineKind kind;
        RankIndex rank;
        int row = -1;  // index into TimelineIndex::rows for LineKind::Row, into the tracks for Counter
        int y = 0;     // top, in content coordinates (before scrolling)
        int height = 0;
    };
    struct Hit {
        const Line* line = nullptr;
        TimelineItem item;
    };

    void layoutLines();
    // The middle of the line drawing an index row, in widget coordinates: the row itself, else the
    // folded header it sits under; nullopt where its rank is filtered out.
    std::optional<int> centreYOfRow(RankIndex rank, int indexRow) const;
    int screenY(const Line& line) const;
    int rowHolding(EventRef event) const;  // the index row drawing an event, -1 if none
    void updateScrollBar();
    QRect rowsRect() const;
    double xOf(qint64 relNs) const;
    qint64 nsAt(double x) const;
    double nsPerPixel() const;
    const Line* lineAt(int y) const;
    std::optional<Hit> hitAt(QPoint point) const;
    QString labelOf(const Line& line) const;
    QColor colourOf(const TimelineRow& row, const TimelineItem& item) const;
    QString tooltipOf(const Hit& hit) const;
    void zoomAround(double x, double factor);
    void panBy(double pixels);
    void paintCanvas(QPainter& p);  // everything but the scroll bar, on screen or into a picture
    void paintAxis(QPainter& p);
    void paintOverview(QPainter& p);
    void paintLine(QPainter& p, const Line& line, int y);
    void paintCounter(QPainter& p, const Line& line, int y);
    void paintPath(QPainter& p);
    void paintFlowArrow(QPainter& p);
    double xOfEvent(RankIndex rank, qint64 absNs) const { return xOf(absNs - m_originNs - shiftOf(rank)); }

    std::shared_ptr<const Run> m_run;
    std::shared_ptr<const TimelineIndex> m_index;
    mutable std::unique_ptr<KernelTypeCache> m_types;
    QString m_message;
    std::vector<Line> m_lines;
    QSet<quint32> m_foldedRanks;
    QSet<quint32> m_cpuShown;
    QScrollBar* m_scroll;
    qint64 m_originNs = 0;  // the run's earliest event (absolute)
    qint64 m_runFromNs = 0;  // the index's extent, relative
    qint64 m_runToNs = 1;
    qint64 m_fromNs = 0;
    qint64 m_toNs = 1;
    std::vector<CollectiveMark> m_marks;
    std::vector<PathMark> m_path;
    std::vector<int> m_pathRows;  // the index row of each path mark's event (-1: none)
    std::shared_ptr<const std::vector<CounterTrack>> m_counters;
    TimelineRowFilter m_filter;
    std::vector<qint64> m_shifts;
    std::vector<int> m_lineOfRow;  // index row -> line drawing it (-1: folded or filtered out)
    std::vector<std::pair<int, int>> m_headerLines;  // per rank: its header line, its "CPU threads" line (-1: none)
    std::function<QString(EventRef)> m_hoverNote;
    bool m_flowDrawn = false;
    bool m_zoomingToBox = false;
    std::vector<int> m_markRows;  // the index row of each mark's kernel
    std::optional<EventRef> m_selected;
    int m_selectedRow = -1;  // the index row holding it
    qint64 m_rangeFromNs = 0;
    qint64 m_rangeToNs = 0;
    // A press: where, and whether it became a pan or a range selection.
    QPoint m_pressAt;
    qint64 m_pressFromNs = 0;
    bool m_pressed = false;
    bool m_dragged = false;
    bool m_selectingRange = false;
    qint64 m_sessionRangeFromNs = 0;  // the session's span when a box zoom began
    qint64 m_sessionRangeToNs = 0;
    size_t m_itemsDrawn = 0;
    QSize m_imageSize;  // while painting a picture: its size instead of the widget's
};

} // namespace kscope
