#pragma once

#ifndef Q_MOC_RUN  // moc cannot parse <compare>'s concepts (model/ids.h); it needs no table
#include "analysis/resulttable.h"
#endif

#include <QAbstractTableModel>
#include <QHash>
#include <QStringList>
#include <QVector>

#include <functional>
#include <memory>

namespace kscope {

// Any result table of analysis/resulttables (what the CLI prints) as an item model. How a column
// reads follows from the unit its table declares (TableColumn::unit): microseconds as compact
// text with the exact value in the tooltip, percentages, fractions shown as percentages; "rank"
// gives the rank role. A name column shows HTA's short kernel names, told apart where they
// collide, with the full name in a wrapped tooltip and for sorting and search.
class ResultTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Extra roles for one cell (e.g. a colour for errors); return an invalid QVariant to pass.
    using CellStyle = std::function<QVariant(const Table& table, int row, int column, int role)>;

    using QAbstractTableModel::QAbstractTableModel;

    // rowIds: what each row selects (a kernel's StringId value); empty = the row's rank.
    void setTable(std::shared_ptr<const Table> table, QVector<quint32> rowIds = {});
    void clear() { setTable(nullptr); }
    const Table* table() const { return m_table.get(); }
    std::shared_ptr<const Table> sharedTable() const { return m_table; }
    void setNameColumn(const QString& column) { m_nameColumn = column; }
    void setHiddenColumns(const QStringList& columns) { m_hidden = columns; }
    void setCellStyle(CellStyle style) { m_style = std::move(style); }
    int columnOf(const QString& name) const;  // among the shown columns; -1 if absent
    int rowOfId(quint32 id) const;            // -1 if no row selects it
    // The given source rows (all when empty) as a table with every column, for CSV export.
    Table rowsAsTable(const QList<int>& rows) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    static QString headerText(const std::string& column);

private:
    QVariant displayText(const Cell& cell, Unit unit) const;

    std::shared_ptr<const Table> m_table;
    QVector<quint32> m_rowIds;
    QVector<int> m_shown;  // table column per model column
    QVector<Unit> m_units;  // per model column
    int m_rankColumn = -1;  // table column
    int m_nameTableColumn = -1;
    QStringList m_fullNames, m_shortNames;  // per distinct name
    QVector<int> m_nameOfRow;
    QString m_nameColumn;
    QStringList m_hidden;
    CellStyle m_style;
};

} // namespace kscope
