#pragma once

#include "backgroundjob.h"
#include "analysis/resulttable.h"

#include <QList>
#include <QWidget>

#include <functional>
#include <memory>

class QAbstractItemView;

namespace kscope {

struct Run;
class ChartView;
class SelectionModel;

// A dock's content: shows one analysis of the current run and follows the shared selection.
// Analyses run on worker threads through JobSlots (stale results dropped); a panel only maps
// results onto its models and charts.
class Panel : public QWidget {
    Q_OBJECT
public:
    struct TableExport {
        QString name;  // file stem
        std::function<Table()> build;
    };

    Panel(const QString& title, SelectionModel* selection, QWidget* parent = nullptr);

    QString title() const { return m_title; }
    virtual void setRun(std::shared_ptr<const Run> run) = 0;
    bool isBusy() const;
    virtual QList<ChartView*> charts() const { return {}; }
    virtual QList<TableExport> tables() const { return {}; }

signals:
    void resultShown();  // a job's result reached the screen (tests wait on it)

protected:
    template <typename Compute, typename Apply>
    void startJob(JobSlot& slot, Compute compute, Apply apply)
    {
        runJob(this, slot, std::move(compute), [this, apply = std::move(apply)](auto result) mutable {
            apply(std::move(result));
            emit resultShown();
        });
    }
    void registerSlot(JobSlot* slot) { m_slots.push_back(slot); }
    void invalidateJobs();
    // Right-click on a table: Export as CSV with the CLI's columns.
    void addCsvMenu(QAbstractItemView* view, const QString& name, std::function<Table()> build);

    SelectionModel* m_selection;
    std::shared_ptr<const Run> m_run;

private:
    QString m_title;
    QList<JobSlot*> m_slots;
};

} // namespace kscope
