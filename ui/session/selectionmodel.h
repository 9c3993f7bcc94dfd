#pragma once

#ifndef Q_MOC_RUN  // moc cannot parse <compare>'s concepts; it needs no more than the name RankIndex
#include "model/ids.h"
#endif

#include <QList>
#include <QObject>
#include <QString>

#include <optional>

namespace kscope {

// A span of trace time in nanoseconds since the run's earliest event; empty = the whole run.
struct TimeRange {
    qint64 beginNs = 0;
    qint64 endNs = 0;
    bool isEmpty() const { return endNs <= beginNs; }
    bool operator==(const TimeRange&) const = default;
};

// The drill-down state every view follows: selected rank(s), kernel, operator, event, step and
// time range. The run session owns it; views write it on clicks and redraw on its signals, so no view
// writes another view's options to point it somewhere. Ranks are selected by identity (their
// position in the shown run), not by the number a file claims: two files may claim one.
class SelectionModel : public QObject {
    Q_OBJECT
public:
    explicit SelectionModel(QObject* parent = nullptr);

    QList<RankIndex> ranks() const { return m_ranks; }
    // The one clicked last; none when no rank is selected.
    std::optional<RankIndex> rank() const
    {
        return m_ranks.isEmpty() ? std::nullopt : std::optional<RankIndex>(m_ranks.front());
    }
    quint32 kernel() const { return m_kernel; }  // run-wide StringId value, 0 = none
    QString kernelName() const { return m_kernelName; }
    // The operator (cpu_op name) picked, by name: it means the same in both runs of a comparison
    // and after a mode toggle. Empty = none.
    QString op() const { return m_op; }
    // The event picked (a row of an event table, a critical-path segment), as a row of the shown
    // run's whole table: the same event whichever step is shown (RankTrace::rowOfRunEvent finds it
    // in a slice). None = no event.
    std::optional<EventRef> event() const { return m_event; }
    int step() const { return m_step; }  // -1 = every step
    TimeRange timeRange() const { return m_timeRange; }

    void setRanks(const QList<RankIndex>& ranks);
    void setRank(RankIndex rank) { setRanks({rank}); }
    // A click on a rank: alone it selects that rank; additive (Ctrl) adds or removes it, so several
    // ranks can be compared (the kernels table shows them all; single-rank views the newest).
    void clickRank(RankIndex rank, bool additive);
    void setKernel(quint32 kernel, const QString& name);
    void setOp(const QString& name);
    void setEvent(std::optional<EventRef> event);
    void setStep(int step);
    void setTimeRange(const TimeRange& range);
    void clear();  // a new run: nothing of the old one is valid

signals:
    void ranksChanged();
    void kernelChanged();
    void opChanged();
    void eventChanged();
    void stepChanged();
    void timeRangeChanged();

private:
    QList<RankIndex> m_ranks;
    quint32 m_kernel = 0;
    QString m_kernelName;
    QString m_op;
    std::optional<EventRef> m_event;
    int m_step = -1;
    TimeRange m_timeRange;
};

} // namespace kscope
