#pragma once

#include "panel.h"

class QCheckBox;

namespace kscope {

struct TemporalBreakdown;

// Stacked bars per rank: idle / compute / non-compute, as percent of the GPU span or absolute.
class TemporalPanel : public Panel {
    Q_OBJECT
public:
    explicit TemporalPanel(SelectionModel* selection, QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run) override;
    QList<ChartView*> charts() const override;
    QList<TableExport> tables() const override;
    ChartView* chart() const { return m_chart; }

private:
    void redraw();

    ChartView* m_chart;
    QCheckBox* m_percent;
    JobSlot m_job;
    std::shared_ptr<const TemporalBreakdown> m_result;
};

} // namespace kscope
