#pragma once

#include <QAbstractTableModel>
#include <QVector>

#include <memory>

namespace kscope {

struct Run;

// Import problems of a run: unusable files (with byte offset and reason), bad events per kind
// and rank, warnings (guessed or duplicate ranks) and skipped files.
class IssuesModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Severity, File, Rank, Reason, Offset, Skipped, ColumnCount };
    enum class Level { Error, Partial, BadEvents, Warning, Skipped };

    using QAbstractTableModel::QAbstractTableModel;

    void setRun(const std::shared_ptr<const Run>& run);
    int errorCount() const { return m_errors; }
    QString summary() const;  // one line for the banner; empty without issues

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Row {
        Level level;
        QString file;
        QString path;
        int rank = -1;
        qint64 offset = -1;
        QString reason;
        qint64 skipped = -1;  // events left out
    };
    QVector<Row> m_rows;
    int m_errors = 0;
    int m_badEventRanks = 0;
    int m_warnings = 0;
};

} // namespace kscope
