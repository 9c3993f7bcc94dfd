#pragma once

#include "panel.h"

class QLabel;
class QTableView;

namespace kscope {

struct KernelDistributions;
class ImbalanceModel;

// Box plots of one kernel's durations, one box per rank, outliers drawn; the list of the most
// imbalanced kernels picks the kernel, as does a kernel selected anywhere else.
class KernelDistPanel : public Panel {
    Q_OBJECT
public:
    explicit KernelDistPanel(SelectionModel* selection, QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run) override;
    QList<ChartView*> charts() const override;
    QList<TableExport> tables() const override;
    ChartView* chart() const { return m_chart; }
    quint32 shownKernel() const { return m_shownKernel; }

private:
    void showSelectedKernel();
    void drawKernel(const std::shared_ptr<const KernelDistributions>& source, quint32 kernel);

    ChartView* m_chart;
    QTableView* m_list;
    ImbalanceModel* m_model;
    JobSlot m_topJob;
    JobSlot m_kernelJob;
    std::shared_ptr<const KernelDistributions> m_top;
    quint32 m_shownKernel = 0;
};

} // namespace kscope
