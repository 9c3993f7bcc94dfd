#pragma once

#include "panel.h"

class QCheckBox;
class QLabel;

namespace kscope {

struct IdleTime;
struct IdleHistogram;

// Idle time of the selected rank: stacked bars per stream (host wait / kernel wait / other)
// and a histogram of idle-interval lengths per cause.
class IdlePanel : public Panel {
    Q_OBJECT
public:
    explicit IdlePanel(SelectionModel* selection, QWidget* parent = nullptr);

    void setRun(std::shared_ptr<const Run> run) override;
    QList<ChartView*> charts() const override;
    QList<TableExport> tables() const override;
    int shownRank() const { return m_shownRank; }  // the rank whose results are on screen
    ChartView* streamChart() const { return m_streams; }
    ChartView* histogramChart() const { return m_histogram; }

private:
    int requestedRank() const;
    void analyse();
    void analyseHistogram();
    void redrawStreams();

    QLabel* m_rankLabel;
    QCheckBox* m_percent;
    QCheckBox* m_logBins;
    ChartView* m_streams;
    ChartView* m_histogram;
    JobSlot m_idleJob;
    JobSlot m_histogramJob;
    std::shared_ptr<const IdleTime> m_idle;
    std::shared_ptr<const IdleHistogram> m_bins;
    int m_shownRank = -1;
};

} // namespace kscope
