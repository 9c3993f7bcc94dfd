#pragma once

#include <QSortFilterProxyModel>

namespace kscope {

// Search box (name contains, case-insensitive) and rank filter over the kernels table; sorts
// on raw values (kSortRole).
class KernelFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit KernelFilterModel(QObject* parent = nullptr);

    void setRankFilter(int rank);  // -1 = every rank
    int rankFilter() const { return m_rank; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    int m_rank = -1;
};

} // namespace kscope
