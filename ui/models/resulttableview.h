#pragma once

#ifndef Q_MOC_RUN  // moc cannot parse <compare>'s concepts (model/ids.h); it needs no table
#include "analysis/resulttable.h"
#endif

#include <QSortFilterProxyModel>
#include <QTableView>

#include <functional>
#include <memory>

namespace kscope {

class ResultTableModel;

// Sorting by raw values, a search over the full names and a filter on selected rank traces (by
// identity: two files claiming one rank number are told apart).
class ResultFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ResultFilterProxy(QObject* parent = nullptr);
    // Only rows about these rank traces (Table::rowRanks); empty = every row.
    void setRankFilter(const QList<RankIndex>& ranks);
    QList<RankIndex> rankFilter() const { return m_ranks; }
    // A filter on a row's cells (e.g. only added ops); empty = every row.
    void setRowFilter(std::function<bool(int sourceRow)> accepts);
    // A column of signed changes that sorts by size (|value|), so a large decrease ranks with a
    // large increase; -1 = none.
    void setMagnitudeColumn(int column) { m_magnitudeColumn = column; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QList<RankIndex> m_ranks;
    std::function<bool(int)> m_rowFilter;
    int m_magnitudeColumn = -1;
};

// A result table on screen: the generic model behind a sorting/filtering proxy, names given the
// spare width, and a context menu that exports the rows shown (or all rows) as CSV.
class ResultTableView : public QTableView {
    Q_OBJECT
public:
    ResultTableView(const QString& exportName, QWidget* parent = nullptr);

    ResultTableModel* resultModel() const { return m_model; }
    ResultFilterProxy* proxy() const { return m_proxy; }
    QString exportName() const { return m_exportName; }
    // The column whose short names exports carry beside the full ones (setNameColumn); empty
    // for other tables.
    QString shortNameColumn() const { return m_rankFirst ? m_wideColumn : QString(); }
    // What is shown, in the order shown: the filtered rows of the table.
    Table shownRows() const;
    bool isFiltered() const;
    // A column of kernel names: shortened for display (see ResultTableModel), and the wide column;
    // a kernel table shows its rank column first (one kernel repeats once per rank).
    void setNameColumn(const QString& column);
    // The column that gets the width the others leave, but never less than a readable share.
    void setWideColumn(const QString& column) { m_wideColumn = column; }
    // Filter changes that must not read as the user picking a row: the proxy moves the current
    // row when it hides it, which would otherwise pick whatever row it lands on.
    void setRankFilter(const QList<RankIndex>& ranks);
    void setSearchText(const QString& text);
    void setRowFilter(std::function<bool(int sourceRow)> accepts);
    void setTable(std::shared_ptr<const Table> table, QVector<quint32> rowIds = {});
    // Rows start sorted by the size of this column's change, largest first (until a header click
    // chooses another order), and the column is shown beside the wide column.
    void sortByChange(const QString& column) { m_changeColumn = column; }
    void fitColumns();

signals:
    // The user made this row current (click, keys, or setCurrentIndex), in source-model terms.
    void rowPicked(const QModelIndex& sourceIndex);
    void exported(const QString& path, int rows);
    void exportFailed(const QString& message);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void showContextMenu(const QPoint& pos);
    void exportCsv(bool shownOnly);

    QString m_exportName;
    QString m_wideColumn;
    int m_widestName = -1;  // pixels the widest name needs; -1 = not measured for this table
    QString m_changeColumn;
    bool m_rankFirst = false;
    bool m_updating = false;  // a filter or table change is moving the current row, not the user
    ResultTableModel* m_model;
    ResultFilterProxy* m_proxy;
};

} // namespace kscope
