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

void KernelFilterModel::setRankFilter(const QList<int>& ranks)
{
    if (ranks == m_ranks)
        return;
    m_ranks = ranks;
    invalidateFilter();
}

bool KernelFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!m_ranks.isEmpty()) {
        const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
        if (!m_ranks.contains(index.data(kRankRole).toInt()))
            return false;
    }
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

} // namespace kscope
