#pragma once

#include "panel.h"

namespace kscope {

struct Overlap;

// Communication time overlapped by computation, one bar per rank.
class OverlapPanel : public Panel {
    Q_OBJECT
public:
    explicit OverlapPanel(SelectionModel* selection, QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run) override;
    QList<ChartView*> charts() const override;
    QList<TableExport> tables() const override;
    ChartView* chart() const { return m_chart; }

private:
    void redraw();

    ChartView* m_chart;
    JobSlot m_job;
    std::shared_ptr<const Overlap> m_result;
};

} // namespace kscope
