#include "temporaltablemodel.h"

#include "format.h"
#include "modelroles.h"

#include "analysis/temporalbreakdown.h"

namespace kscope {

namespace {
enum Column { Rank, Span, Idle, Compute, NonCompute, IdlePct, ComputePct, NonComputePct, ColumnCount };
}

void TemporalTableModel::setResult(std::shared_ptr<const TemporalBreakdown> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int TemporalTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->rows.size());
}

int TemporalTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TemporalTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TemporalBreakdownRow& row = m_result->rows[static_cast<size_t>(index.row())];
    const int64_t times[] = {row.spanNs, row.idleNs, row.computeNs, row.nonComputeNs};
    const double pcts[] = {row.idlePctg, row.computePctg, row.nonComputePctg};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        if (column == Rank)
            return row.rank;
        if (column <= NonCompute)
            return fmt::compact(double(times[column - Span]));
        return fmt::percent(pcts[column - IdlePct]);
    case Qt::ToolTipRole:
        if (column >= Span && column <= NonCompute)
            return fmt::micros(double(times[column - Span]));
        return {};
    case kSortRole:
        if (column == Rank)
            return row.rank;
        if (column <= NonCompute)
            return qint64(times[column - Span]);
        return pcts[column - IdlePct];
    case kIdRole:
    case kRankRole:
        return row.rank;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant TemporalTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char* const kNames[] = {"Rank", "Span", "Idle", "Compute", "Non-comp.",
                                         "Idle %", "Comp. %", "Non-comp. %"};
    return tr(kNames[section]);
}

} // namespace kscope
