#pragma once

#ifndef Q_MOC_RUN  // moc cannot parse <compare>'s concepts (model/ids.h); it needs none of these
#include "analysis/resulttable.h"
#include "model/trace.h"
#endif

#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace kscope {

// The events of one rank that a filter selected (analysis/operators/eventquery.h), as a virtual table:
// each visible cell is made when the view asks for it, so millions of rows cost four bytes each.
// Rows stay in time order (the event table's); sorting them would touch every row.
class EventTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::shared_ptr<const Run> run, RankIndex rank, std::shared_ptr<const std::vector<EventIndex>> rows);
    void clear() { setRows(nullptr, {}, nullptr); }
    size_t size() const { return m_rows ? m_rows->size() : 0; }
    EventIndex eventAt(int row) const { return m_rows ? (*m_rows)[size_t(row)] : kNoEvent; }
    const RankTrace* rank() const { return m_rank; }
    // The first `limit` rows as a result table (every column), for CSV export.
    Table firstRows(size_t limit) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    const std::vector<Cell>& cellsOf(int row) const;

    std::shared_ptr<const Run> m_run;
    const RankTrace* m_rank = nullptr;
    std::shared_ptr<const std::vector<EventIndex>> m_rows;
    std::vector<int> m_columns;  // shown columns of eventColumns()
    mutable int m_cachedRow = -1;  // a view asks for every column of a row in turn
    mutable std::vector<Cell> m_cached;
};

// One line naming an event of the run for the status bar: "ncclKernel_AllReduce… (kernel) on
// rank 3, stream 7: 1.234 ms from 56.789 ms". Empty when the run has no such event.
QString eventSummary(const Run& run, EventRef event);

} // namespace kscope
