#pragma once

#include "panel.h"

class QLabel;
class QTableView;

namespace kscope {

struct RunSummary;
struct TemporalBreakdown;
class TemporalTableModel;

// What was loaded (ranks, devices, steps, span, events, streams) and the temporal breakdown
// as a table; clicking a row selects its rank.
class OverviewPanel : public Panel {
    Q_OBJECT
public:
    explicit OverviewPanel(SelectionModel* selection, QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run) override;
    QList<TableExport> tables() const override;
    TemporalTableModel* temporalModel() const { return m_model; }

private:
    void showSummary(const RunSummary* summary);

    QLabel* m_summary;
    QTableView* m_table;
    TemporalTableModel* m_model;
    JobSlot m_summaryJob;
    JobSlot m_temporalJob;
    std::shared_ptr<const TemporalBreakdown> m_temporal;
};

} // namespace kscope
