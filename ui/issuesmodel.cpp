#include "issuesmodel.h"

#include "format.h"
#include "modelroles.h"

#include "model/trace.h"

#include <QColor>
#include <QLocale>

namespace kscope {

namespace {
QString fileName(const std::filesystem::path& path) { return fmt::qstr(path.filename().string()); }
QString fullPath(const std::filesystem::path& path) { return fmt::qstr(path.string()); }
} // namespace

void IssuesModel::setRun(const std::shared_ptr<const Run>& run)
{
    beginResetModel();
    m_rows.clear();
    m_errors = m_badEventRanks = m_warnings = 0;
    if (run) {
        for (const LoadError& e : run->errors) {
            m_rows.push_back({e.partial ? Level::Partial : Level::Error, fileName(e.file), fullPath(e.file),
                              e.rank, qint64(e.byteOffset),
                              fmt::qstr(toString(e.kind)) + QStringLiteral(": ") + fmt::qstr(e.message), -1});
            ++m_errors;
        }
        for (const RankTrace& rank : run->ranks) {
            if (!rank.badEvents.empty())
                ++m_badEventRanks;
            for (const BadEventCounter& c : rank.badEvents) {
                QString reason = fmt::qstr(toString(c.kind));
                if (!c.samples.empty())
                    reason += QStringLiteral(", e.g. ") + fmt::elided(fmt::qstr(c.samples.front().excerpt), 80);
                m_rows.push_back({Level::BadEvents, fileName(rank.file), fullPath(rank.file), rank.rank,
                                  c.samples.empty() ? -1 : qint64(c.samples.front().byteOffset), reason,
                                  qint64(c.count)});
            }
        }
        for (const LoadWarning& w : run->warnings) {
            m_rows.push_back({Level::Warning, fileName(w.file), fullPath(w.file), w.rank, -1, fmt::qstr(w.message), -1});
            ++m_warnings;
        }
        for (const auto& skipped : run->skippedFiles)
            m_rows.push_back({Level::Skipped, fileName(skipped), fullPath(skipped), -1, -1,
                              tr("not a trace file (*.json, *.json.gz)"), -1});
    }
    endResetModel();
}

QString IssuesModel::summary() const
{
    QStringList parts;
    if (m_errors)
        parts << tr("%n file(s) could not be read fully", nullptr, m_errors);
    if (m_badEventRanks)
        parts << tr("%n rank(s) had bad events", nullptr, m_badEventRanks);
    if (m_warnings)
        parts << tr("%n warning(s)", nullptr, m_warnings);
    if (parts.isEmpty())
        return {};
    return parts.join(QStringLiteral("; ")) + tr(" — see Import issues");
}

int IssuesModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(m_rows.size()); }
int IssuesModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant IssuesModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[index.row()];
    static const char* const kSeverity[] = {"error", "partial", "bad events", "warning", "skipped"};
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case Severity: return tr(kSeverity[static_cast<int>(row.level)]);
        case File: return row.file;
        case Rank: return row.rank >= 0 ? QVariant(row.rank) : QVariant(QStringLiteral("–"));
        case Offset: return row.offset >= 0 ? QVariant(QLocale::c().toString(row.offset)) : QVariant(QString());
        case Reason: return row.reason;
        case Skipped: return row.skipped >= 0 ? QVariant(QLocale::c().toString(row.skipped)) : QVariant(QString());
        default: return {};
        }
    case Qt::ToolTipRole:
        return column == File ? row.path : column == Reason ? row.reason : QVariant();
    case kSortRole:
        switch (column) {
        case Severity: return static_cast<int>(row.level);
        case File: return row.file;
        case Rank: return row.rank;
        case Offset: return row.offset;
        case Reason: return row.reason;
        case Skipped: return row.skipped;
        default: return {};
        }
    case kRankRole:
        return row.rank;
    case Qt::ForegroundRole:
        return column == Severity && (row.level == Level::Error) ? QVariant(QColor(190, 30, 30)) : QVariant();
    default:
        return {};
    }
}

QVariant IssuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char* const kNames[] = {"Severity", "File", "Rank", "Reason", "Offset", "Skipped"};
    return tr(kNames[section]);
}

} // namespace kscope
