#pragma once

#include <QAbstractTableModel>
#include <QStringList>

#include <memory>

namespace kscope {

struct Run;
struct KernelDistributions;

// "Most imbalanced kernels": the distribution analysis's kernels, largest median spread across
// ranks first (its order), to pick the kernel the box plot shows.
class ImbalanceModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Name, Spread, Total, Ranks, ColumnCount };

    using QAbstractTableModel::QAbstractTableModel;

    void setResult(std::shared_ptr<const Run> run, std::shared_ptr<const KernelDistributions> result);
    int rowOfKernel(quint32 kernel) const;  // -1 when not listed

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const KernelDistributions> m_result;
    QStringList m_names;       // full kernel names: tooltips, sorting, search
    QStringList m_shortNames;  // HTA's shortened names: what the cell shows
};

} // namespace kscope
