#pragma once

#include <QSortFilterProxyModel>

namespace kscope {

// Search box (name contains, case-insensitive) and rank filter over the kernels table; sorts
// on raw values (kSortRole).
class KernelFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit KernelFilterModel(QObject* parent = nullptr);

    void setRankFilter(const QList<int>& ranks);  // empty = every rank
    QList<int> rankFilter() const { return m_ranks; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QList<int> m_ranks;
};

} // namespace kscope
