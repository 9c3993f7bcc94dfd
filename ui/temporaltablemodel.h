#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace kscope {

struct TemporalBreakdown;

// The temporal breakdown as a table: one row per rank (Overview panel).
class TemporalTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setResult(std::shared_ptr<const TemporalBreakdown> result);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::shared_ptr<const TemporalBreakdown> m_result;
};

} // namespace kscope
