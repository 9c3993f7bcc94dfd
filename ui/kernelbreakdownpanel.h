#pragma once

#include "panel.h"

class QCheckBox;
class QLineEdit;
class QTableView;

namespace kscope {

struct KernelBreakdown;
class KernelFilterModel;
class KernelTableModel;

// Kernel-type shares as horizontal bars, and the kernels table (top kernels per rank and type)
// with a search box; it follows the selected rank, and a click on a row selects the kernel.
class KernelBreakdownPanel : public Panel {
    Q_OBJECT
public:
    explicit KernelBreakdownPanel(SelectionModel* selection, QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run) override;
    QList<ChartView*> charts() const override;
    QList<TableExport> tables() const override;
    QTableView* table() const { return m_table; }
    KernelFilterModel* filterModel() const { return m_filter; }
    KernelTableModel* tableModel() const { return m_model; }

private:
    void redraw();
    void followRank();

    ChartView* m_chart;
    QLineEdit* m_search;
    QCheckBox* m_rankOnly;
    QTableView* m_table;
    KernelTableModel* m_model;
    KernelFilterModel* m_filter;
    JobSlot m_job;
    std::shared_ptr<const KernelBreakdown> m_result;
};

} // namespace kscope
