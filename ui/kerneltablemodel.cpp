#include "kerneltablemodel.h"

#include "format.h"
#include "modelroles.h"

#include "analysis/kernelbreakdown.h"
#include "analysis/kerneltype.h"

namespace kscope {

void KernelTableModel::setResult(std::shared_ptr<const Run> run, std::shared_ptr<const KernelBreakdown> result)
{
    beginResetModel();
    m_run = std::move(run);
    m_result = std::move(result);
    m_names.clear();
    m_shortNames.clear();
    m_types.clear();
    if (m_run && m_result) {
        for (const KernelStatsRow& row : m_result->kernels) {
            m_names.push_back(fmt::qstr(rowName(*m_run, row)));
            m_shortNames.push_back(fmt::qstr(shortenKernelName(rowName(*m_run, row))));
            m_types.push_back(fmt::qstr(toString(row.type)));
        }
    }
    endResetModel();
}

int KernelTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_names.size());
}

int KernelTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant KernelTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const KernelStatsRow& row = m_result->kernels[static_cast<size_t>(index.row())];
    const int column = index.column();
    const double times[] = {double(row.sumNs), row.meanNs, double(row.minNs), double(row.maxNs), row.stddevNs};
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Name: return fmt::elided(m_shortNames[index.row()], 60);
        case Type: return m_types[index.row()];
        case Rank: return row.rank;
        case Count: return qint64(row.count);
        default: return fmt::compact(times[column - Sum]);
        }
    case Qt::ToolTipRole:
        return column == Name ? m_names[index.row()] : column >= Sum ? fmt::micros(times[column - Sum]) : QVariant();
    case kSortRole:
        switch (column) {
        case Name: return m_names[index.row()];
        case Type: return m_types[index.row()];
        case Rank: return row.rank;
        case Count: return qint64(row.count);
        default: return times[column - Sum];
        }
    case kIdRole:
        return row.name.value;
    case kRankRole:
        return row.rank;
    case Qt::TextAlignmentRole:
        return column <= Type ? QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter)
                              : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant KernelTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char* const kNames[] = {"Kernel", "Type", "Rank", "Count", "Sum", "Mean", "Min", "Max", "Stddev"};
    return tr(kNames[section]);
}

} // namespace kscope
