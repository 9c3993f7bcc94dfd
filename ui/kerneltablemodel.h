#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <memory>

namespace kscope {

struct Run;
struct KernelBreakdown;

// The kernels table of the kernel breakdown: name, type, rank, count, sum, mean, min, max,
// stddev. Names become QString once, when a result arrives.
class KernelTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Type, Rank, Count, Sum, Mean, Min, Max, Stddev, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setResult(std::shared_ptr<const Run> run, std::shared_ptr<const KernelBreakdown> result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const Run> m_run;
    std::shared_ptr<const KernelBreakdown> m_result;
    QStringList m_names;       // full kernel names: tooltips, sorting, search
    QStringList m_shortNames;  // HTA's shortened names: what the cell shows
    QStringList m_types;
};

} // namespace kscope
