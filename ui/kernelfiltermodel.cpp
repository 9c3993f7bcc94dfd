#include "kernelfiltermodel.h"

#include "modelroles.h"

namespace kscope {

KernelFilterModel::KernelFilterModel(QObject* parent) : QSortFilterProxyModel(parent)
{
    setSortRole(kSortRole);
    setFilterRole(Qt::ToolTipRole);  // the full name: elided text would hide matches
    setFilterKeyColumn(0);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void KernelFilterModel::setRankFilter(int rank)
{
    if (rank == m_rank)
        return;
    m_rank = rank;
    invalidateFilter();
}

bool KernelFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (m_rank >= 0) {
        const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
        if (index.data(kRankRole).toInt() != m_rank)
            return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace kscope
