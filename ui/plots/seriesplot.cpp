#include "plots/chartview.h"
#include "plots/plots.h"

#include <algorithm>

namespace kscope {

void drawSeries(ChartView& view, const SeriesChartData& data)
{
    view.clearChart(data.title, true);
    view.xAxis->setLabel(data.keyLabel);
    view.yAxis->setLabel(data.valueLabel);
    view.setFootnote(data.footnote);
    const bool empty = std::all_of(data.series.begin(), data.series.end(), [](const LineSeries& s) { return s.keys.isEmpty(); });
    if (!data.message.isEmpty() || empty) {
        view.setLegendVisible(false);
        view.xAxis->setRange(0, 1);
        view.yAxis->setRange(0, 1);
        view.showMessage(data.message);
        view.finishChart();
        return;
    }
    double left = 0, right = 0, top = 0;
    bool first = true;
    for (const LineSeries& series : data.series) {
        auto* graph = view.addGraph(view.xAxis, view.yAxis);
        graph->setName(series.name);
        graph->setLineStyle(data.steps ? QCPGraph::lsStepLeft : QCPGraph::lsLine);
        graph->setPen(QPen(series.color, 1.3));
        graph->setData(series.keys, series.values, true);
        if (series.keys.isEmpty())
            continue;
        left = first ? series.keys.front() : std::min(left, series.keys.front());
        right = first ? series.keys.back() : std::max(right, series.keys.back());
        first = false;
        for (double v : series.values)
            top = std::max(top, v);
    }
    view.xAxis->setRange(left, right > left ? right : left + 1);
    view.yAxis->setRange(0, top > 0 ? top * 1.08 : 1.0);
    view.setLegendVisible(data.series.size() > 1);
    view.finishChart();
}

} // namespace kscope
